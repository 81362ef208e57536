import CLibPQ
import Foundation
import SQL

/// The type OIDs (`pg_type.oid`) values are sent as and results are decoded by.
enum TypeOID {
    static let unknown: Oid = 0
    static let bool: Oid = 16
    static let bytea: Oid = 17
    static let int8: Oid = 20
    static let int2: Oid = 21
    static let int4: Oid = 23
    static let float4: Oid = 700
    static let float8: Oid = 701
    static let numeric: Oid = 1700
}

/// The values of one statement laid out as `PQexecParams` takes them. Integers and reals go as
/// text typed int8 and float8, text goes untyped so the server infers it from where it is used,
/// blobs go in binary as bytea. The copies live until `deallocate()`.
struct Parameters {
    private(set) var types: [Oid] = []
    private(set) var values: [UnsafePointer<CChar>?] = []
    private(set) var lengths: [Int32] = []
    private(set) var formats: [Int32] = []

    init(_ sqlValues: [SQLValue]) {
        types.reserveCapacity(sqlValues.count)
        for value in sqlValues {
            switch value {
            case .integer(let number): appendText(String(number), type: TypeOID.int8)
            case .real(let number): appendText("\(number)", type: TypeOID.float8)
            case .text(let text): appendText(text, type: TypeOID.unknown)
            case .blob(let bytes):
                let copy = UnsafeMutablePointer<CChar>.allocate(capacity: max(bytes.count, 1))
                UnsafeMutableRawBufferPointer(start: copy, count: bytes.count).copyBytes(from: bytes)
                append(copy, length: bytes.count, format: 1, type: TypeOID.bytea)
            case .null:
                append(nil, length: 0, format: 0, type: TypeOID.unknown)
            }
        }
    }

    private mutating func appendText(_ text: String, type: Oid) {
        let bytes = Array(text.utf8CString)
        let copy = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count)
        copy.initialize(from: bytes, count: bytes.count)
        append(copy, length: bytes.count - 1, format: 0, type: type)
    }

    private mutating func append(_ value: UnsafeMutablePointer<CChar>?, length: Int, format: Int32, type: Oid) {
        values.append(value.map { UnsafePointer($0) })
        lengths.append(Int32(length))
        formats.append(format)
        types.append(type)
    }

    func deallocate() {
        for value in values { value.map { UnsafeMutablePointer(mutating: $0).deallocate() } }
    }
}

/// The column names of one prepared statement's results, read from its first result that has
/// rows and shared by the later ones: a result's names are then not read and hashed again on
/// every call. Belongs to one connection, used by one thread at a time.
final class ResultDescription {
    var columns: ColumnIndex?
    var types: [Oid] = []
}

/// The rows of a `PGresult` in text format, copied out and decoded by each column's type.
struct ResultRows {
    private let result: OpaquePointer
    private let count: Int32
    private let fields: Int32
    /// The columns of the prepared statement that answered, kept from its earlier results.
    private let description: ResultDescription?

    init(_ result: OpaquePointer, description: ResultDescription? = nil) {
        self.result = result
        count = PQntuples(result)
        fields = PQnfields(result)
        self.description = description
    }

    func all() -> [Row] {
        guard count > 0 else { return [] }
        let (columns, types) = described()
        return (0..<count).map { row($0, columns: columns, types: types) }
    }

    func first() -> Row? {
        guard count > 0 else { return nil }
        let (columns, types) = described()
        return row(0, columns: columns, types: types)
    }

    /// The names and types of the result's columns: those its statement's earlier results had
    /// when they are the same in number and types (a prepared statement's result columns do not
    /// change: the server refuses to run it rather than change them), else read and kept.
    private func described() -> (ColumnIndex, [Oid]) {
        let types = (0..<fields).map { PQftype(result, $0) }
        if let description, let columns = description.columns, description.types == types { return (columns, types) }
        let columns = ColumnIndex(names: (0..<fields).map { String(cString: PQfname(result, $0)) })
        description?.columns = columns
        description?.types = types
        return (columns, types)
    }

    private func row(_ index: Int32, columns: ColumnIndex, types: [Oid]) -> Row {
        Row(columns: columns, values: (0..<fields).map { value(row: index, field: $0, type: types[Int($0)]) })
    }

    private func value(row: Int32, field: Int32, type: Oid) -> SQLValue {
        guard PQgetisnull(result, row, field) == 0, let raw = PQgetvalue(result, row, field) else { return .null }
        if type == TypeOID.bytea {
            return Self.unescapedBytea(raw)
        }
        let text = String(cString: raw)
        switch type {
        case TypeOID.int2, TypeOID.int4, TypeOID.int8:
            return Int64(text).map(SQLValue.integer) ?? .text(text)
        case TypeOID.float4, TypeOID.float8:
            return Double(text).map(SQLValue.real) ?? .text(text)
        case TypeOID.numeric:
            return Self.numeric(text)
        case TypeOID.bool:
            return .integer(text == "t" ? 1 : 0)
        default:
            return .text(text)
        }
    }

    /// A numeric without a fractional part (`SUM` of integers, `12.00`) is an integer; any other,
    /// or one past Int64, is a real.
    private static func numeric(_ text: String) -> SQLValue {
        if let whole = Int64(text) { return .integer(whole) }
        if let dot = text.firstIndex(of: "."), text[text.index(after: dot)...].allSatisfy({ $0 == "0" }),
           let whole = Int64(text[..<dot]) {
            return .integer(whole)
        }
        return Double(text).map(SQLValue.real) ?? .text(text)
    }

    /// A bytea column's text form (`\x…`) back to its bytes.
    private static func unescapedBytea(_ raw: UnsafeMutablePointer<CChar>) -> SQLValue {
        var length = 0
        let text = UnsafeRawPointer(raw).assumingMemoryBound(to: UInt8.self)
        // NULL only when malloc failed, where Swift itself would stop too.
        guard let bytes = PQunescapeBytea(text, &length) else { fatalError("out of memory decoding a bytea") }
        defer { PQfreemem(bytes) }
        return .blob(Array(UnsafeBufferPointer(start: bytes, count: length)))
    }
}

/// Values in COPY's text format (the PostgreSQL manual, COPY, "Text Format"): NULL is `\N`; text
/// is its UTF-8 bytes with backslash, tab, line feed and carriage return escaped (`\\`, `\t`,
/// `\n`, `\r`), so no value can end a field or a row, or be read as the end-of-data marker `\.`;
/// integers and reals as their decimal text; blobs as bytea's hex form `\x…` (its backslash
/// escaped in turn).
enum COPYText {
    static func append(_ value: SQLValue, to buffer: inout [UInt8]) {
        switch value {
        case .null:
            buffer.append(0x5C)
            buffer.append(0x4E)
        case .integer(let number):
            buffer.append(contentsOf: String(number).utf8)
        case .real(let number):
            buffer.append(contentsOf: "\(number)".utf8)
        case .text(let text):
            appendEscaped(text, to: &buffer)
        case .blob(let bytes):
            buffer.append(contentsOf: [0x5C, 0x5C, 0x78])
            let digits = Array("0123456789abcdef".utf8)
            for byte in bytes {
                buffer.append(digits[Int(byte >> 4)])
                buffer.append(digits[Int(byte & 0x0F)])
            }
        }
    }

    private static func appendEscaped(_ text: String, to buffer: inout [UInt8]) {
        for byte in text.utf8 {
            switch byte {
            case 0x5C: buffer.append(0x5C); buffer.append(0x5C)
            case 0x09: buffer.append(0x5C); buffer.append(0x74)
            case 0x0A: buffer.append(0x5C); buffer.append(0x6E)
            case 0x0D: buffer.append(0x5C); buffer.append(0x72)
            default: buffer.append(byte)
            }
        }
    }
}
