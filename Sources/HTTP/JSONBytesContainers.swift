import Foundation

// The three containers of `JSONBytesEncoder`. Each knows the depth of the value it writes; the
// encoder checks that this value is still the one being written.

/// An object's members.
struct JSONKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: JSONBytesEncoder
    let depth: Int

    var codingPath: [any CodingKey] { encoder.codingPath }

    @inline(__always)
    private func write(_ key: Key, _ body: (JSONWriter) -> Void) {
        let member = encoder.beginMember(key, at: depth, pushingPath: false)
        body(encoder.writer)
        encoder.endMember(member, poppingPath: false)
    }

    private func writeFloatingPoint<Number: BinaryFloatingPoint & LosslessStringConvertible>(_ value: Number, forKey key: Key) throws {
        guard value.isFinite else { throw JSONBytesEncoder.nonFinite(value, at: codingPath + [key]) }
        write(key) { $0.appendFloatingPoint(value) }
    }

    mutating func encodeNil(forKey key: Key) throws { write(key) { $0.append("null") } }
    mutating func encode(_ value: Bool, forKey key: Key) throws { write(key) { $0.append(value ? "true" : "false") } }
    mutating func encode(_ value: String, forKey key: Key) throws { write(key) { $0.appendString(value) } }
    mutating func encode(_ value: Double, forKey key: Key) throws { try writeFloatingPoint(value, forKey: key) }
    mutating func encode(_ value: Float, forKey key: Key) throws { try writeFloatingPoint(value, forKey: key) }
    mutating func encode(_ value: Int, forKey key: Key) throws { write(key) { $0.appendInteger(value) } }
    mutating func encode(_ value: Int8, forKey key: Key) throws { write(key) { $0.appendInteger(value) } }
    mutating func encode(_ value: Int16, forKey key: Key) throws { write(key) { $0.appendInteger(value) } }
    mutating func encode(_ value: Int32, forKey key: Key) throws { write(key) { $0.appendInteger(value) } }
    mutating func encode(_ value: Int64, forKey key: Key) throws { write(key) { $0.appendInteger(value) } }
    @available(macOS 15.0, *)
    mutating func encode(_ value: Int128, forKey key: Key) throws { write(key) { $0.appendInteger(value) } }
    mutating func encode(_ value: UInt, forKey key: Key) throws { write(key) { $0.appendInteger(value) } }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { write(key) { $0.appendInteger(value) } }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { write(key) { $0.appendInteger(value) } }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { write(key) { $0.appendInteger(value) } }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { write(key) { $0.appendInteger(value) } }
    @available(macOS 15.0, *)
    mutating func encode(_ value: UInt128, forKey key: Key) throws { write(key) { $0.appendInteger(value) } }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try encoder.encodeMember(value, forKey: key, at: depth)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        encoder.detachedMember(key, at: depth, codingPath: codingPath + [key]).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        encoder.detachedMember(key, at: depth, codingPath: codingPath + [key]).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        encoder.detachedMember(JSONCodingKey.super, at: depth, codingPath: codingPath + [JSONCodingKey.super])
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        encoder.detachedMember(key, at: depth, codingPath: codingPath + [key])
    }
}

/// An array's elements.
struct JSONUnkeyedContainer: UnkeyedEncodingContainer {
    let encoder: JSONBytesEncoder
    let depth: Int

    var codingPath: [any CodingKey] { encoder.codingPath }
    var count: Int { encoder.elementCount(at: depth) }

    @inline(__always)
    private func write(_ body: (JSONWriter) -> Void) {
        encoder.beginElement(at: depth)
        body(encoder.writer)
    }

    private func writeFloatingPoint<Number: BinaryFloatingPoint & LosslessStringConvertible>(_ value: Number) throws {
        guard value.isFinite else { throw JSONBytesEncoder.nonFinite(value, at: codingPath + [JSONCodingKey(index: count)]) }
        write { $0.appendFloatingPoint(value) }
    }

    mutating func encodeNil() throws { write { $0.append("null") } }
    mutating func encode(_ value: Bool) throws { write { $0.append(value ? "true" : "false") } }
    mutating func encode(_ value: String) throws { write { $0.appendString(value) } }
    mutating func encode(_ value: Double) throws { try writeFloatingPoint(value) }
    mutating func encode(_ value: Float) throws { try writeFloatingPoint(value) }
    mutating func encode(_ value: Int) throws { write { $0.appendInteger(value) } }
    mutating func encode(_ value: Int8) throws { write { $0.appendInteger(value) } }
    mutating func encode(_ value: Int16) throws { write { $0.appendInteger(value) } }
    mutating func encode(_ value: Int32) throws { write { $0.appendInteger(value) } }
    mutating func encode(_ value: Int64) throws { write { $0.appendInteger(value) } }
    @available(macOS 15.0, *)
    mutating func encode(_ value: Int128) throws { write { $0.appendInteger(value) } }
    mutating func encode(_ value: UInt) throws { write { $0.appendInteger(value) } }
    mutating func encode(_ value: UInt8) throws { write { $0.appendInteger(value) } }
    mutating func encode(_ value: UInt16) throws { write { $0.appendInteger(value) } }
    mutating func encode(_ value: UInt32) throws { write { $0.appendInteger(value) } }
    mutating func encode(_ value: UInt64) throws { write { $0.appendInteger(value) } }
    @available(macOS 15.0, *)
    mutating func encode(_ value: UInt128) throws { write { $0.appendInteger(value) } }

    mutating func encode<T: Encodable>(_ value: T) throws {
        try encoder.encodeElement(value, at: depth)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        encoder.detachedElement(at: depth, codingPath: codingPath + [JSONCodingKey(index: count)]).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        encoder.detachedElement(at: depth, codingPath: codingPath + [JSONCodingKey(index: count)]).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        encoder.detachedElement(at: depth, codingPath: codingPath + [JSONCodingKey(index: count)])
    }
}

/// One scalar, or a value that encodes itself in its place.
struct JSONSingleValueContainer: SingleValueEncodingContainer {
    let encoder: JSONBytesEncoder
    let depth: Int

    var codingPath: [any CodingKey] { encoder.codingPath }

    @inline(__always)
    private func write(_ body: (JSONWriter) -> Void) {
        encoder.beginSingleValue(at: depth)
        body(encoder.writer)
    }

    private func writeFloatingPoint<Number: BinaryFloatingPoint & LosslessStringConvertible>(_ value: Number) throws {
        guard value.isFinite else { throw JSONBytesEncoder.nonFinite(value, at: codingPath) }
        write { $0.appendFloatingPoint(value) }
    }

    mutating func encodeNil() throws { write { $0.append("null") } }
    mutating func encode(_ value: Bool) throws { write { $0.append(value ? "true" : "false") } }
    mutating func encode(_ value: String) throws { write { $0.appendString(value) } }
    mutating func encode(_ value: Double) throws { try writeFloatingPoint(value) }
    mutating func encode(_ value: Float) throws { try writeFloatingPoint(value) }
    mutating func encode(_ value: Int) throws { write { $0.appendInteger(value) } }
    mutating func encode(_ value: Int8) throws { write { $0.appendInteger(value) } }
    mutating func encode(_ value: Int16) throws { write { $0.appendInteger(value) } }
    mutating func encode(_ value: Int32) throws { write { $0.appendInteger(value) } }
    mutating func encode(_ value: Int64) throws { write { $0.appendInteger(value) } }
    @available(macOS 15.0, *)
    mutating func encode(_ value: Int128) throws { write { $0.appendInteger(value) } }
    mutating func encode(_ value: UInt) throws { write { $0.appendInteger(value) } }
    mutating func encode(_ value: UInt8) throws { write { $0.appendInteger(value) } }
    mutating func encode(_ value: UInt16) throws { write { $0.appendInteger(value) } }
    mutating func encode(_ value: UInt32) throws { write { $0.appendInteger(value) } }
    mutating func encode(_ value: UInt64) throws { write { $0.appendInteger(value) } }
    @available(macOS 15.0, *)
    mutating func encode(_ value: UInt128) throws { write { $0.appendInteger(value) } }

    mutating func encode<T: Encodable>(_ value: T) throws {
        try encoder.encodeSingleValue(value, at: depth)
    }
}
