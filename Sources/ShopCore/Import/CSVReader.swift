/// An RFC 4180 reader: quoted fields with embedded commas, doubled quotes and newlines,
/// CRLF or LF line ends, and a UTF-8 byte order mark.
struct CSVReader {
    /// One record and the physical line it starts on (the first line is 1).
    struct Record: Equatable {
        let line: Int
        let fields: [String]
    }

    /// A malformed file: an unterminated quote or a quote inside an unquoted field.
    struct Failure: Error, Equatable {
        let line: Int
        let reason: String
    }

    /// Every record; blank lines (such as a trailing newline) yield no record.
    static func records(_ bytes: [UInt8]) throws -> [Record] {
        var input = bytes[...]
        if input.starts(with: [0xEF, 0xBB, 0xBF]) { input = input.dropFirst(3) }
        let quote: UInt8 = 0x22, comma: UInt8 = 0x2C, cr: UInt8 = 0x0D, lf: UInt8 = 0x0A

        var records: [Record] = []
        var fields: [String] = []
        var field: [UInt8] = []
        var line = 1
        var recordLine = 1
        var inQuotes = false
        var fieldWasQuoted = false
        var index = input.startIndex

        func endField() {
            fields.append(String(decoding: field, as: UTF8.self))
            field.removeAll(keepingCapacity: true)
            fieldWasQuoted = false
        }
        func endRecord() {
            endField()
            if !(fields.count == 1 && fields[0].isEmpty) {
                records.append(Record(line: recordLine, fields: fields))
            }
            fields.removeAll(keepingCapacity: true)
        }

        while index < input.endIndex {
            let byte = input[index]
            if inQuotes {
                if byte == quote {
                    let next = input.index(after: index)
                    if next < input.endIndex && input[next] == quote {
                        field.append(quote)
                        index = next
                    } else {
                        inQuotes = false
                    }
                } else {
                    if byte == lf { line += 1 }
                    field.append(byte)
                }
            } else {
                switch byte {
                case quote:
                    guard field.isEmpty && !fieldWasQuoted else {
                        throw Failure(line: line, reason: "a quote inside an unquoted field (quote the whole field and double the quote)")
                    }
                    inQuotes = true
                    fieldWasQuoted = true
                case comma:
                    endField()
                case cr:
                    let next = input.index(after: index)
                    if next < input.endIndex && input[next] == lf { index = next }
                    endRecord()
                    line += 1
                    recordLine = line
                case lf:
                    endRecord()
                    line += 1
                    recordLine = line
                default:
                    if fieldWasQuoted {
                        throw Failure(line: line, reason: "text after a closing quote")
                    }
                    field.append(byte)
                }
            }
            index = input.index(after: index)
        }
        if inQuotes { throw Failure(line: recordLine, reason: "a quoted field is never closed") }
        if !field.isEmpty || !fields.isEmpty || fieldWasQuoted { endRecord() }
        return records
    }
}
