import Foundation

/// Reads a catalogue file (`.csv` or `.jsonl`) record by record, with the line each starts on.
enum CatalogFile {
    enum Format {
        case csv, jsonLines

        init?(path: String) {
            switch URL(fileURLWithPath: path).pathExtension.lowercased() {
            case "csv": self = .csv
            case "jsonl", "ndjson": self = .jsonLines
            default: return nil
            }
        }
    }

    /// One record: raw values to validate, or the problems that keep it from being read at all.
    enum Record {
        case raw(CatalogRowValidator.Raw)
        case invalid([ImportIssue])
    }

    /// Calls `body` with each record in file order. A file that cannot be read as a whole throws:
    /// a bad header (`badHeader`), an unparseable CSV (`invalidRows`), text that is not UTF-8
    /// (`CSVReader.NotUTF8`). No row of such a file is valid, so skipping invalid rows must not
    /// turn it into a successful import.
    static func forEachRecord(in source: any ImportSource, format: Format, _ body: (Record) throws -> Void) throws {
        switch format {
        case .csv: try readCSV(source, body)
        case .jsonLines: try readJSONLines(source, body)
        }
    }

    private static func readCSV(_ source: any ImportSource, _ body: (Record) throws -> Void) throws {
        var reader = CSVReader()
        var positions: [String: Int]?
        func handle(_ record: CSVReader.Record) throws {
            guard let positions else {
                positions = try header(record)
                return
            }
            guard record.fields.count == positions.count else {
                return try body(.invalid([ImportIssue(line: record.line, column: "row",
                                                      reason: "has \(record.fields.count) fields, the header has \(positions.count)")]))
            }
            try body(.raw(.init(line: record.line, positions: positions, fields: record.fields)))
        }
        do {
            while let chunk = try source.next() { try reader.read(chunk, handle) }
            try reader.finish(handle)
        } catch let failure as CSVReader.Failure {
            throw ImportError.invalidRows([ImportIssue(line: failure.line, column: "file", reason: failure.reason)])
        }
        if positions == nil {
            throw ImportError.badHeader([ImportIssue(line: 1, column: "header", reason: "the file is empty")])
        }
    }

    /// Where each column is, or `badHeader` naming every unknown, missing and repeated column.
    private static func header(_ record: CSVReader.Record) throws -> [String: Int] {
        let names = record.fields.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        var issues: [ImportIssue] = []
        for name in names where !CatalogRowValidator.columns.contains(name) {
            issues.append(ImportIssue(line: record.line, column: name.isEmpty ? "header" : name, reason: "unknown column"))
        }
        for name in CatalogRowValidator.required.sorted() where !names.contains(name) {
            issues.append(ImportIssue(line: record.line, column: name, reason: "required column is missing from the header"))
        }
        var seen = Set<String>()
        for name in names where !name.isEmpty && !seen.insert(name).inserted {
            issues.append(ImportIssue(line: record.line, column: name, reason: "column appears twice in the header"))
        }
        guard issues.isEmpty else { throw ImportError.badHeader(issues.sorted { ($0.line, $0.column) < ($1.line, $1.column) }) }
        return Dictionary(uniqueKeysWithValues: names.enumerated().map { ($1, $0) })
    }

    /// Each line one object; every value a string except `stock` (integer) and `attributes` (object).
    private static func readJSONLines(_ source: any ImportSource, _ body: (Record) throws -> Void) throws {
        var carry: [UInt8] = []
        var line = 0
        var first = true
        func handle(_ bytes: ArraySlice<UInt8>) throws {
            line += 1
            var content = bytes
            if first {
                first = false
                if content.starts(with: [0xEF, 0xBB, 0xBF]) { content = content.dropFirst(3) }
            }
            guard let text = String(validating: content, as: UTF8.self) else { throw CSVReader.NotUTF8(line: line) }
            try parseJSONLine(text.trimmingCharacters(in: .whitespacesAndNewlines), line: line, body)
        }
        while let chunk = try source.next() {
            var start = 0
            while let newline = chunk[start...].firstIndex(of: 0x0A) {
                if carry.isEmpty {
                    try handle(chunk[start..<newline])
                } else {
                    carry += chunk[start..<newline]
                    try handle(carry[...])
                    carry.removeAll(keepingCapacity: true)
                }
                start = newline + 1
            }
            carry += chunk[start...]
        }
        if !carry.isEmpty { try handle(carry[...]) }
    }

    private static func parseJSONLine(_ text: String, line: Int, _ body: (Record) throws -> Void) throws {
        if text.isEmpty { return }
        guard case .object(let object)? = try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)) else {
            return try body(.invalid([ImportIssue(line: line, column: "line", reason: "is not a JSON object")]))
        }
        var values: [String: String] = [:]
        var issues: [ImportIssue] = []
        for (key, value) in object.sorted(by: { $0.key < $1.key }) {
            guard CatalogRowValidator.columns.contains(key) else {
                issues.append(ImportIssue(line: line, column: key, reason: "unknown key"))
                continue
            }
            switch (key, value) {
            case ("stock", .number(let number)):
                if let exact = Int64(exactly: number) {
                    values[key] = String(exact)
                } else {
                    issues.append(ImportIssue(line: line, column: key, reason: "must be a whole number"))
                }
            case ("stock", _):
                issues.append(ImportIssue(line: line, column: key, reason: "must be an integer"))
            case ("attributes", .object(let nested)):
                values[key] = JSONValue.canonicalText(nested)
            case ("attributes", _):
                issues.append(ImportIssue(line: line, column: key, reason: "must be a JSON object"))
            case (_, .string(let string)):
                values[key] = string
            case (_, .null):
                continue
            default:
                issues.append(ImportIssue(line: line, column: key, reason: "must be a string"))
            }
        }
        try body(issues.isEmpty ? .raw(.init(line: line, values: values)) : .invalid(issues))
    }
}
