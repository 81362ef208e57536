import SQL
import SQLite
import Testing

@Suite("Memory-mapped reads")
struct MemoryMapTests {
    @Test func everyConnectionOfAPoolMapsTheFileUpToTheConfiguredSize() throws {
        try withTemporaryDirectory { directory in
            let pool = try DatabasePool(path: directory + "/mapped.sqlite", readers: 2,
                                        options: ConnectionOptions(mmapBytes: 64 << 20))
            try pool.write { db in
                #expect(try db.scalarInt("PRAGMA mmap_size") == 64 << 20)
                try db.execute(script: "CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT NOT NULL)")
                try db.run("INSERT INTO t (v) VALUES (\("petal"))")
            }
            // Both readers, taken at once so neither is the other.
            var answers: [[Int64?]] = []
            var distinct = false
            try pool.read { first in
                try pool.read { second in
                    distinct = (first as AnyObject) !== (second as AnyObject)
                    for reader in [first, second] {
                        answers.append([try reader.scalarInt("PRAGMA mmap_size"), try reader.scalarInt("SELECT COUNT(*) FROM t")])
                    }
                }
            }
            #expect(distinct)
            #expect(answers == [[64 << 20, 1], [64 << 20, 1]])
        }
    }

    @Test func noSizeLeavesReadsUnmapped() throws {
        let size = try withTemporaryPool(readers: 1) { pool in try pool.read { try $0.scalarInt("PRAGMA mmap_size") } }
        #expect(size == 0)
    }
}
