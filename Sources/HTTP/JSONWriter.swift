import Foundation

/// A growable UTF-8 buffer with the API's spelling of each JSON primitive, byte for byte what
/// `JSON.encoder()` (Foundation) writes: strings escaped as Foundation escapes them (`\"`, `\\`,
/// `\b \f \n \r \t`, other controls as `\u00xx`, `/` and non-ASCII left as they are), integers in
/// decimal, floating point as Swift prints it without a trailing `.0`, dates in RFC 3339 UTC.
///
/// One writer serves one encoding on one thread, and no access to its storage outlives the call
/// that makes it, so the properties opt out of runtime exclusivity checks: with them, the checks
/// were a third of the encoding time.
final class JSONWriter {
    @exclusivity(unchecked) private(set) var base: UnsafeMutablePointer<UInt8>
    @exclusivity(unchecked) private(set) var count = 0
    @exclusivity(unchecked) private var capacity: Int

    init(capacity: Int = 1_024) {
        self.capacity = capacity
        base = .allocate(capacity: capacity)
    }

    deinit { base.deallocate() }

    /// The bytes written from `start` on, as a new array.
    func bytes(from start: Int = 0) -> [UInt8] {
        Array(UnsafeBufferPointer(start: base + start, count: count - start))
    }

    /// Overwrites one byte already written.
    func replace(at index: Int, with byte: UInt8) {
        precondition(index >= 0 && index < count, "replacing a byte not written yet")
        base[index] = byte
    }

    /// Forgets everything written from `end` on.
    func truncate(to end: Int) {
        precondition(end >= 0 && end <= count, "truncating past the written bytes")
        count = end
    }

    // MARK: Raw bytes

    @inline(__always)
    func reserve(_ extra: Int) {
        if capacity - count < extra { grow(toHold: count + extra) }
    }

    @inline(never)
    private func grow(toHold needed: Int) {
        let newCapacity = Swift.max(capacity * 2, needed)
        let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newBase.initialize(from: base, count: count)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }

    @inline(__always)
    func append(_ byte: UInt8) {
        reserve(1)
        base[count] = byte
        count += 1
    }

    /// ASCII text known to need no escaping (punctuation, `null`, `true`).
    @inline(__always)
    func append(_ text: StaticString) {
        append(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        reserve(bytes.count)
        (base + count).update(from: source, count: bytes.count)
        count += bytes.count
    }

    /// Copies `range` of another writer (or of this one, below `count`) to the end.
    func append(_ range: Range<Int>, of other: JSONWriter) {
        append(UnsafeBufferPointer(start: other.base + range.lowerBound, count: range.count))
    }

    // MARK: Strings

    /// A JSON string literal.
    func appendString(_ string: String) {
        if string.utf8.withContiguousStorageIfAvailable({ appendQuoted($0) }) == nil {
            var copy = string
            _ = copy.withUTF8 { appendQuoted($0) }
        }
    }

    /// A JSON string literal of UTF-8 text; returns whether any byte needed an escape.
    @discardableResult
    func appendQuoted(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        reserve(utf8.count + 2)
        base[count] = UInt8(ascii: "\"")
        count += 1
        var escaped = false
        var runStart = 0
        var index = 0
        while index < utf8.count {
            // Most text needs no escape: skip it eight bytes at a time.
            if index + 8 <= utf8.count,
               let word = utf8.baseAddress.map({ UnsafeRawPointer($0 + index).loadUnaligned(as: UInt64.self) }),
               !Self.mayNeedEscape(word) {
                index += 8
                continue
            }
            for position in index..<Swift.min(index + 8, utf8.count) {
                let byte = utf8[position]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                append(UnsafeBufferPointer(rebasing: utf8[runStart..<position]))
                appendEscape(byte)
                escaped = true
                runStart = position + 1
            }
            index += 8
        }
        append(UnsafeBufferPointer(rebasing: utf8[runStart...]))
        append(UInt8(ascii: "\""))
        return escaped
    }

    /// Whether one of the eight bytes is a control character, `"` or `\`, by the exact "has a byte
    /// less than n" and "has a zero byte" word tests (no false negatives; false positives only
    /// send the word through the byte loop).
    @inline(__always)
    private static func mayNeedEscape(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highBits: UInt64 = 0x8080_8080_8080_8080
        let quotes = word ^ (ones &* UInt64(UInt8(ascii: "\"")))
        let backslashes = word ^ (ones &* UInt64(UInt8(ascii: "\\")))
        let controls = (word &- ones &* 0x20) & ~word
        let quote = (quotes &- ones) & ~quotes
        let backslash = (backslashes &- ones) & ~backslashes
        return (controls | quote | backslash) & highBits != 0
    }

    private func appendEscape(_ byte: UInt8) {
        switch byte {
        case UInt8(ascii: "\""): append("\\\"")
        case UInt8(ascii: "\\"): append("\\\\")
        case 0x08: append("\\b")
        case 0x0C: append("\\f")
        case UInt8(ascii: "\n"): append("\\n")
        case UInt8(ascii: "\r"): append("\\r")
        case UInt8(ascii: "\t"): append("\\t")
        default:
            let hex: StaticString = "0123456789abcdef"
            append("\\u00")
            append(hex.utf8Start[Int(byte >> 4)])
            append(hex.utf8Start[Int(byte & 0x0F)])
        }
    }

    // MARK: Keys

    /// `"name":` with the name as it is (dictionary keys, integer keys); returns whether it needed escapes.
    @discardableResult
    func appendKey(_ name: String) -> Bool {
        var escaped = false
        if name.utf8.withContiguousStorageIfAvailable({ escaped = appendQuoted($0) }) == nil {
            var copy = name
            copy.withUTF8 { escaped = appendQuoted($0) }
        }
        append(UInt8(ascii: ":"))
        return escaped
    }

    /// `"wire_name":` for a Swift name, spelled as `JSON.snakeCase` spells it (`skuID` → `sku_id`,
    /// `imageURLs` → `image_urls`, `avatarURLString` → `avatar_url_string`), converted on the fly
    /// rather than looked up: the names are short and ASCII, and a lookup would hash them anyway.
    /// Returns false, having written nothing, for a name outside printable ASCII or with `"` or `\`
    /// in it: the caller converts that one with `JSON.snakeCase` itself (by Unicode letter classes).
    func appendSnakeCaseKey(_ name: String) -> Bool {
        if let written = name.utf8.withContiguousStorageIfAvailable({ appendSnakeCaseKey(utf8: $0) }) {
            return written
        }
        var copy = name
        return copy.withUTF8 { appendSnakeCaseKey(utf8: $0) }
    }

    private func appendSnakeCaseKey(utf8 name: UnsafeBufferPointer<UInt8>) -> Bool {
        for byte in name where byte >= 0x80 || byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
            return false
        }
        @inline(__always) func isUpper(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "A") < 26 }
        @inline(__always) func isLower(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "a") < 26 }
        @inline(__always) func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }
        reserve(2 * name.count + 3)
        var out = base + count
        out.pointee = UInt8(ascii: "\"")
        out += 1
        let n = name.count
        for i in 0..<n {
            let byte = name[i]
            if i > 0 && isUpper(byte) {
                let previous = name[i - 1]
                let next: UInt8 = i + 1 < n ? name[i + 1] : 0
                // The same rules as `JSON.snakeCase`: a plural acronym (`IDs`) keeps its `s`,
                // `URLString` splits before the `S`.
                let pluralS = next == UInt8(ascii: "s") && (i + 2 == n || !isLower(name[i + 2]))
                let wordAfterAcronym = isUpper(previous) && isLower(next) && !pluralS
                if isLower(previous) || isDigit(previous) || wordAfterAcronym {
                    out.pointee = UInt8(ascii: "_")
                    out += 1
                }
            }
            out.pointee = isUpper(byte) ? byte | 0x20 : byte
            out += 1
        }
        out.pointee = UInt8(ascii: "\"")
        (out + 1).pointee = UInt8(ascii: ":")
        count = out + 2 - base
        return true
    }

    // MARK: Numbers

    func appendInteger<Integer: BinaryInteger>(_ value: Integer) {
        if let small = Int64(exactly: value) {
            appendDecimal(small.magnitude, negative: small < 0)
        } else if let large = UInt64(exactly: value) {
            appendDecimal(large, negative: false)
        } else {
            appendASCII(value.description)
        }
    }

    private func appendDecimal(_ magnitude: UInt64, negative: Bool) {
        reserve(21)
        if negative {
            base[count] = UInt8(ascii: "-")
            count += 1
        }
        var digits = 1
        var rest = magnitude / 10
        while rest > 0 {
            digits += 1
            rest /= 10
        }
        var value = magnitude
        var position = count + digits
        count = position
        repeat {
            position -= 1
            base[position] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: value % 10)
            value /= 10
        } while value > 0
    }

    /// A finite `Double` or `Float` as Foundation writes it: Swift's shortest round-tripping
    /// spelling (`0.1`, `1e+20`), with a trailing `.0` dropped (`100`, `-0`).
    func appendFloatingPoint<Number: BinaryFloatingPoint & LosslessStringConvertible>(_ value: Number) {
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        appendASCII(text)
    }

    /// Text that needs no escaping (numbers).
    func appendASCII(_ text: String) {
        var copy = text
        copy.withUTF8 { append($0) }
    }

    // MARK: Dates

    /// `"2026-11-30T08:00:00Z"`: `Date.ISO8601FormatStyle`'s default (what `.iso8601` writes), whole
    /// seconds rounded down. Computed here for the years 1601–9999 (the proleptic Gregorian calendar
    /// agrees with Foundation's there); Foundation formats any other date itself.
    func appendDate(_ date: Date) {
        let seconds = date.timeIntervalSince1970.rounded(.down)
        guard seconds >= -11_644_473_600, seconds < 253_402_300_800 else {
            appendString(date.formatted(.iso8601))
            return
        }
        let total = Int64(seconds)
        let days = (total >= 0 ? total : total - 86_399) / 86_400
        let secondOfDay = total - days * 86_400
        // Days since 1970-01-01 to a civil date (Howard Hinnant's `civil_from_days`).
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)

        reserve(22)
        let out = base + count
        @inline(__always) func put(_ value: Int64, width: Int, at offset: Int) {
            var rest = value
            for position in stride(from: offset + width - 1, through: offset, by: -1) {
                out[position] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: rest % 10)
                rest /= 10
            }
        }
        out[0] = UInt8(ascii: "\"")
        put(year, width: 4, at: 1)
        out[5] = UInt8(ascii: "-")
        put(month, width: 2, at: 6)
        out[8] = UInt8(ascii: "-")
        put(day, width: 2, at: 9)
        out[11] = UInt8(ascii: "T")
        put(secondOfDay / 3_600, width: 2, at: 12)
        out[14] = UInt8(ascii: ":")
        put(secondOfDay / 60 % 60, width: 2, at: 15)
        out[17] = UInt8(ascii: ":")
        put(secondOfDay % 60, width: 2, at: 18)
        out[20] = UInt8(ascii: "Z")
        out[21] = UInt8(ascii: "\"")
        count += 22
    }
}
