/// An RFC 4180 reader: quoted fields with embedded commas, doubled quotes and newlines,
/// CRLF or LF line ends, and a UTF-8 byte order mark. It reads a file a chunk at a time and
/// hands on each record as it ends, so only one record is ever held.
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

    /// A field that is not UTF-8 text, on this line.
    struct NotUTF8: Error, Equatable {
        let line: Int
    }

    private static let quote: UInt8 = 0x22, comma: UInt8 = 0x2C, cr: UInt8 = 0x0D, lf: UInt8 = 0x0A

    private var fields: [String] = []
    private var field: [UInt8] = []
    private var line = 1
    private var recordLine = 1
    private var inQuotes = false
    private var fieldWasQuoted = false
    /// The last byte of the previous chunk was a quote inside quotes (its meaning needs the next byte).
    private var quotePending = false
    /// The last byte of the previous chunk was a CR outside quotes (a following LF belongs to it).
    private var crPending = false
    private var started = false
    private var bomChecked: [UInt8] = []

    /// Every record of a whole file; blank lines (such as a trailing newline) yield no record.
    static func records(_ bytes: [UInt8]) throws -> [Record] {
        var reader = CSVReader()
        var records: [Record] = []
        try reader.read(bytes) { records.append($0) }
        try reader.finish { records.append($0) }
        return records
    }

    /// Reads the next chunk of the file, calling `emit` for each record it completes.
    mutating func read(_ chunk: [UInt8], _ emit: (Record) throws -> Void) throws {
        guard started else {
            // The byte order mark may straddle chunks: hold up to three bytes until decided.
            bomChecked += chunk
            let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
            if bomChecked.count < 3 && bom.starts(with: bomChecked) { return }
            started = true
            let bytes = bomChecked
            bomChecked = []
            return try scan(bytes, from: bytes.starts(with: bom) ? 3 : 0, emit)
        }
        try scan(chunk, from: 0, emit)
    }

    private mutating func scan(_ chunk: [UInt8], from start: Int, _ emit: (Record) throws -> Void) throws {
        var index = start
        let end = chunk.count
        if quotePending && index < end {
            quotePending = false
            if chunk[index] == Self.quote {
                field.append(Self.quote)
                index += 1
            } else {
                inQuotes = false
            }
        }
        if crPending && index < end {
            crPending = false
            if chunk[index] == Self.lf { index += 1 }
        }
        while index < end {
            let byte = chunk[index]
            if inQuotes {
                if byte == Self.quote {
                    let next = index + 1
                    if next == end {
                        quotePending = true
                    } else if chunk[next] == Self.quote {
                        field.append(Self.quote)
                        index = next
                    } else {
                        inQuotes = false
                    }
                } else {
                    if byte == Self.lf { line += 1 }
                    field.append(byte)
                }
            } else {
                switch byte {
                case Self.quote:
                    guard field.isEmpty && !fieldWasQuoted else {
                        throw Failure(line: line, reason: "a quote inside an unquoted field (quote the whole field and double the quote)")
                    }
                    inQuotes = true
                    fieldWasQuoted = true
                case Self.comma:
                    try endField()
                case Self.cr:
                    let next = index + 1
                    if next == end { crPending = true } else if chunk[next] == Self.lf { index = next }
                    try endRecord(emit)
                    line += 1
                    recordLine = line
                case Self.lf:
                    try endRecord(emit)
                    line += 1
                    recordLine = line
                default:
                    if fieldWasQuoted {
                        throw Failure(line: line, reason: "text after a closing quote")
                    }
                    field.append(byte)
                }
            }
            index += 1
        }
    }

    /// The end of the file: the last record, if it had no line end.
    mutating func finish(_ emit: (Record) throws -> Void) throws {
        if !started {
            started = true
            let bytes = bomChecked
            bomChecked = []
            try scan(bytes, from: 0, emit)
        }
        if quotePending {
            quotePending = false
            inQuotes = false
        }
        if inQuotes { throw Failure(line: recordLine, reason: "a quoted field is never closed") }
        if !field.isEmpty || !fields.isEmpty || fieldWasQuoted { try endRecord(emit) }
    }

    private mutating func endField() throws {
        guard let text = String(validating: field, as: UTF8.self) else { throw NotUTF8(line: line) }
        fields.append(text)
        field.removeAll(keepingCapacity: true)
        fieldWasQuoted = false
    }

    private mutating func endRecord(_ emit: (Record) throws -> Void) throws {
        try endField()
        let record = fields
        fields.removeAll(keepingCapacity: true)
        if !(record.count == 1 && record[0].isEmpty) {
            try emit(Record(line: recordLine, fields: record))
        }
    }
}
