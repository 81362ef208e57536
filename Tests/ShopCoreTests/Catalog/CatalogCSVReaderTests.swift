import ShopTestSupport
import Testing
@testable import ShopCore

@Suite("Catalogue CSV reader (RFC 4180)")
struct CatalogCSVReaderTests {
    private func read(_ text: String) throws -> [CSVReader.Record] {
        try CSVReader.records(Array(text.utf8))
    }

    @Test func aQuotedFieldKeepsItsNewline() throws {
        let records = try read("a,b\n\"第一行\n第二行\",x\n")
        #expect(records.map(\.fields) == [["a", "b"], ["第一行\n第二行", "x"]])
    }

    @Test func aDoubledQuoteInsideQuotesIsOneQuote() throws {
        let records = try read("\"他说\"\"你好\"\"\",\"\"\"\"\n")
        #expect(records.map(\.fields) == [["他说\"你好\"", "\""]])
    }

    @Test func aQuotedCommaDoesNotSplitTheField() throws {
        let records = try read("\"玫瑰,百合\",\"a, b, c\",plain\n")
        #expect(records.map(\.fields) == [["玫瑰,百合", "a, b, c", "plain"]])
    }

    @Test func aUTF8ByteOrderMarkIsDropped() throws {
        let records = try CSVReader.records([0xEF, 0xBB, 0xBF] + Array("product_code,title\nP1,玫瑰\n".utf8))
        #expect(records.map(\.fields) == [["product_code", "title"], ["P1", "玫瑰"]])
        #expect(records.first?.fields.first?.unicodeScalars.first == "p")
    }

    @Test func crlfLineEndsLeaveNoCarriageReturnsBehind() throws {
        let records = try read("a,b\r\n1,2\r\n\"x\",\"y\"\r\n")
        #expect(records.map(\.fields) == [["a", "b"], ["1", "2"], ["x", "y"]])
        #expect(records.map(\.line) == [1, 2, 3])
    }

    @Test func aQuotedCRLFIsKeptInsideTheField() throws {
        let records = try read("a\r\n\"1\r\n2\"\r\nnext\r\n")
        #expect(records.map(\.fields) == [["a"], ["1\r\n2"], ["next"]])
        #expect(records.map(\.line) == [1, 2, 4])
    }

    @Test func aTrailingEmptyLineYieldsNoRecord() throws {
        #expect(try read("a,b\n1,2\n").count == 2)
        #expect(try read("a,b\n1,2\n\n").count == 2)
        #expect(try read("a,b\r\n1,2\r\n\r\n").count == 2)
        #expect(try read("a,b\n1,2").map(\.fields) == [["a", "b"], ["1", "2"]])
    }

    @Test func emptyFieldsAreKept() throws {
        #expect(try read("a,,\"\",b\n").map(\.fields) == [["a", "", "", "b"]])
        #expect(try read(",\n").map(\.fields) == [["", ""]])
    }

    @Test func eachRecordKnowsThePhysicalLineItStartsOn() throws {
        let text = "h1,h2\n" // line 1
            + "a,\"two\nlines\"\n" // lines 2-3
            + "b,c\n" // line 4
            + "\n" // line 5: blank
            + "\"x\ny\nz\",d\n" // lines 6-8
            + "e,f\n" // line 9
        let records = try read(text)
        #expect(records.map(\.line) == [1, 2, 4, 6, 9])
        #expect(records.map { $0.fields[0] } == ["h1", "a", "b", "x\ny\nz", "e"])
    }

    @Test func anUnterminatedQuoteFailsNamingTheLineWhereTheRecordStarts() throws {
        #expect(throws: CSVReader.Failure.self) { try read("a,b\n1,2\n3,\"never closed\n4,5\n") }
        do {
            _ = try read("a,b\n1,2\n3,\"never closed\n4,5\n")
        } catch let failure as CSVReader.Failure {
            #expect(failure.line == 3)
            #expect(failure.reason.contains("never closed"))
        }
    }

    @Test func aQuoteInsideAnUnquotedFieldOrTextAfterAClosingQuoteFails() throws {
        #expect(throws: CSVReader.Failure(line: 2, reason: "a quote inside an unquoted field (quote the whole field and double the quote)")) {
            try read("a\nab\"c\n")
        }
        #expect(throws: CSVReader.Failure(line: 1, reason: "text after a closing quote")) {
            try read("\"ab\"c,d\n")
        }
    }

    @Test func anUnterminatedQuoteInAnImportIsReportedWithItsLine() throws {
        let fixture = try TestShop()
        let text = CatalogLine.file([CatalogLine()]) + "P2,\"P2-S1,a\nP3,P3-S1\n"
        #expect(throws: ImportError.invalidRows([ImportIssue(line: 3, column: "file", reason: "a quoted field is never closed")])) {
            try fixture.importCatalogCSV(text)
        }
        #expect(try fixture.catalogSnapshot().productCount == 0)
    }

    @Test func readingInChunksOfAnySizeGivesTheSameRecordsAsTheWholeFile() throws {
        // A BOM, CRLFs, a doubled quote, a quoted CRLF and comma, multi-byte text and no final line end:
        // every chunk boundary falls somewhere awkward for one of the sizes.
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("a,\"b\"\"c\"\r\n\"玫\r\n瑰,\",x\r\n\r\n\"\",\"\"\"\"\nlast,行".utf8)
        let whole = try CSVReader.records(bytes)
        #expect(whole.map(\.fields) == [["a", "b\"c"], ["玫\r\n瑰,", "x"], ["", "\""], ["last", "行"]])
        #expect(whole.map(\.line) == [1, 2, 5, 6])
        for size in 1...9 {
            var reader = CSVReader()
            var records: [CSVReader.Record] = []
            var start = 0
            while start < bytes.count {
                try reader.read(Array(bytes[start..<min(bytes.count, start + size)])) { records.append($0) }
                start += size
            }
            try reader.finish { records.append($0) }
            #expect(records == whole, "chunks of \(size) bytes")
        }
    }
}
