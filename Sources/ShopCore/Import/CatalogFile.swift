import Foundation

/// Reads a catalogue file (`.csv` or `.jsonl`) into raw records, with the line each starts on.
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

    /// Raw records, plus the problems of single records (bad line, wrong field count). A file that
    /// cannot be read as a whole (unparseable CSV, empty, bad header) throws `invalidRows`: no row
    /// of it is valid, so skipping invalid rows must not turn it into a successful empty import.
    static func read(_ bytes: [UInt8], format: Format) throws -> (records: [CatalogRowValidator.Raw], issues: [ImportIssue]) {
        guard String(validating: bytes, as: UTF8.self) != nil else {
            throw ImportError.unreadable("the file is not valid UTF-8 text")
        }
        switch format {
        case .csv: return try readCSV(bytes)
        case .jsonLines: return readJSONLines(bytes)
        }
    }

    private static func readCSV(_ bytes: [UInt8]) throws -> (records: [CatalogRowValidator.Raw], issues: [ImportIssue]) {
        let records: [CSVReader.Record]
        do {
            records = try CSVReader.records(bytes)
        } catch let failure as CSVReader.Failure {
            throw ImportError.invalidRows([ImportIssue(line: failure.line, column: "file", reason: failure.reason)])
        }
        guard let header = records.first else {
            throw ImportError.invalidRows([ImportIssue(line: 1, column: "header", reason: "the file is empty")])
        }
        let names = header.fields.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        var issues: [ImportIssue] = []
        for name in names where !CatalogRowValidator.columns.contains(name) {
            issues.append(ImportIssue(line: header.line, column: name.isEmpty ? "header" : name, reason: "unknown column"))
        }
        for name in CatalogRowValidator.required.sorted() where !names.contains(name) {
            issues.append(ImportIssue(line: header.line, column: name, reason: "required column is missing from the header"))
        }
        if Set(names).count != names.count {
            issues.append(ImportIssue(line: header.line, column: "header", reason: "a column appears twice"))
        }
        guard issues.isEmpty else { throw ImportError.invalidRows(issues.sorted { ($0.line, $0.column) < ($1.line, $1.column) }) }
        let positions = Dictionary(uniqueKeysWithValues: names.enumerated().map { ($1, $0) })
        var raws: [CatalogRowValidator.Raw] = []
        raws.reserveCapacity(records.count)
        for record in records.dropFirst() {
            guard record.fields.count == names.count else {
                issues.append(ImportIssue(line: record.line, column: "row",
                                          reason: "has \(record.fields.count) fields, the header has \(names.count)"))
                continue
            }
            raws.append(.init(line: record.line, positions: positions, fields: record.fields))
        }
        return (raws, issues)
    }

    /// Each line one object; every value a string except `stock` (integer) and `attributes` (object).
    private static func readJSONLines(_ bytes: [UInt8]) -> (records: [CatalogRowValidator.Raw], issues: [ImportIssue]) {
        var raws: [CatalogRowValidator.Raw] = []
        var issues: [ImportIssue] = []
        var content = bytes[...]
        if content.starts(with: [0xEF, 0xBB, 0xBF]) { content = content.dropFirst(3) }
        for (offset, lineBytes) in content.split(separator: 0x0A, omittingEmptySubsequences: false).enumerated() {
            let line = offset + 1
            let text = String(decoding: lineBytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            if text.isEmpty { continue }
            guard case .object(let object)? = try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)) else {
                issues.append(ImportIssue(line: line, column: "line", reason: "is not a JSON object"))
                continue
            }
            var values: [String: String] = [:]
            var lineIssues: [ImportIssue] = []
            for (key, value) in object.sorted(by: { $0.key < $1.key }) {
                guard CatalogRowValidator.columns.contains(key) else {
                    lineIssues.append(ImportIssue(line: line, column: key, reason: "unknown key"))
                    continue
                }
                switch (key, value) {
                case ("stock", .number(let number)):
                    if let exact = Int64(exactly: number) {
                        values[key] = String(exact)
                    } else {
                        lineIssues.append(ImportIssue(line: line, column: key, reason: "must be a whole number"))
                    }
                case ("stock", _):
                    lineIssues.append(ImportIssue(line: line, column: key, reason: "must be an integer"))
                case ("attributes", .object(let nested)):
                    values[key] = JSONValue.canonicalText(nested)
                case ("attributes", _):
                    lineIssues.append(ImportIssue(line: line, column: key, reason: "must be a JSON object"))
                case (_, .string(let string)):
                    values[key] = string
                case (_, .null):
                    continue
                default:
                    lineIssues.append(ImportIssue(line: line, column: key, reason: "must be a string"))
                }
            }
            if lineIssues.isEmpty {
                raws.append(.init(line: line, values: values))
            } else {
                issues += lineIssues
            }
        }
        return (raws, issues)
    }
}
