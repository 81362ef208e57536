import Foundation

/// `--format table|csv|json`: a table for people, CSV (with a BOM, for Excel) or JSON lines-free
/// arrays for scripts. Every listing command of the operators' desk takes it.
enum OutputFormat: String, CaseIterable {
    case table, csv, json

    init(_ text: String?) throws {
        guard let format = OutputFormat(rawValue: text ?? "table") else {
            throw UsageError(description: say(zh: "--format 必须是 table、csv 或 json", en: "--format must be table, csv or json"))
        }
        self = format
    }

    /// The rows under `header`, ending with a line break. JSON is an array of objects keyed by the
    /// header in lower case (`CREATED AT` → `created_at`), every value a string as in the table.
    func render(header: [String], rows: [[String]]) -> String {
        switch self {
        case .table: return Table.render(header: header, rows: rows) + "\n"
        case .csv: return CSV.render(header: header.map { $0.lowercased().replacingOccurrences(of: " ", with: "_") }, rows: rows)
        case .json:
            let keys = header.map { $0.lowercased().replacingOccurrences(of: " ", with: "_") }
            let objects = rows.map { Dictionary(uniqueKeysWithValues: zip(keys, $0)) }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            return String(decoding: (try? encoder.encode(objects)) ?? Data("[]".utf8), as: UTF8.self) + "\n"
        }
    }
}
