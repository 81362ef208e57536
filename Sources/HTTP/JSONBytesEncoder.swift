import Foundation

/// The encoder behind `JSON.encode`: writes a value straight into one byte buffer, with no tree
/// of boxed values, no dictionary per object and no date formatter in between.
///
/// Each value being written is a `Frame` on a stack (values finish in the order they started,
/// because `encode(to:)` returns before its caller goes on). An object's members are written as
/// `,"key":value` in the order they come and remembered as byte ranges; when the object closes
/// they are put in key order (Foundation's `sortedKeys`: the UTF-8 bytes of the key), a repeated
/// key keeps its last value, and the first placeholder comma becomes `{`. Nested containers and
/// super encoders, which a caller may fill in any order, get an encoder of their own whose bytes
/// are spliced in when the container holding them closes.
final class JSONBytesEncoder: Encoder {
    /// One value being written.
    struct Frame {
        enum Kind { case empty, single, keyed, unkeyed }

        var kind = Kind.empty
        /// Where the value's bytes begin.
        let start: Int
        /// The type being encoded: a `[String: Value]` keeps its keys as they are.
        var valueType: Any.Type
        var memberBase = 0
        let pendingBase: Int
        let rawKeyBase: Int
        var elementCount = 0
        var convertsKeys = true
    }

    /// One member of an object: `,"key":value` at `start..<end`, the value from `valueStart`.
    struct Member {
        let start: Int
        let valueStart: Int
        var end = 0
        /// Its value comes from `pending[detached]` (a nested container) when not -1.
        var detached = -1
        /// Its key's unescaped bytes are `rawKeys[rawKey]` when not -1 (a key that needed escapes).
        let rawKey: Int
    }

    /// A value written by its own encoder (a nested container or super encoder), spliced in at
    /// `offset` (arrays) or at its member (objects) when the container holding it closes.
    struct Pending {
        let offset: Int
        let encoder: JSONBytesEncoder
    }

    /// A step of the coding path, turned into a `CodingKey` only when someone asks for the path.
    enum PathStep {
        case key(String, Int?)
        case index(Int)
    }

    /// How far the buffers reached, to undo a value that threw (its key or comma included).
    struct Mark {
        let bytes, frames, members, pending, rawKeys, path: Int
    }

    // One document, one thread, and no access held across a call into `encode(to:)`: as in
    // `JSONWriter`, the state opts out of runtime exclusivity checks (they cost a third of the time).
    // Internal rather than private only for the closing half in `JSONBytesEncoder+Closing.swift`.
    let writer = JSONWriter()
    let scratch = JSONWriter(capacity: 256)
    @exclusivity(unchecked) var frames: [Frame] = []
    @exclusivity(unchecked) var members: [Member] = []
    @exclusivity(unchecked) var pending: [Pending] = []
    @exclusivity(unchecked) var rawKeys: [[UInt8]] = []
    @exclusivity(unchecked) private var path: [PathStep] = []
    @exclusivity(unchecked) private var lastKeyedType: (type: ObjectIdentifier, isStringKeyedDictionary: Bool)?
    private let basePath: [any CodingKey]

    init(codingPath: [any CodingKey] = []) {
        basePath = codingPath
        frames.reserveCapacity(8)
        members.reserveCapacity(32)
        path.reserveCapacity(8)
    }

    var codingPath: [any CodingKey] {
        basePath + path.map { step -> any CodingKey in
            switch step {
            case .key(let name, let intValue): JSONCodingKey(stringValue: name, intValue: intValue)
            case .index(let index): JSONCodingKey(index: index)
            }
        }
    }

    var userInfo: [CodingUserInfoKey: Any] { [:] }

    // MARK: Values

    /// Writes a whole document; as Foundation does, a value that writes nothing at all is an error.
    func encodeRoot<T: Encodable>(_ value: T) throws {
        if try writePrimitive(value) { return }
        pushFrame(for: T.self)
        try value.encode(to: self)
        guard frames[0].kind != .empty else {
            throw EncodingError.invalidValue(value, .init(codingPath: [], debugDescription: "Top-level \(T.self) did not encode any values."))
        }
        close(frames.removeLast())
    }

    /// Writes one value at the current position (a member's or element's value).
    func encodeValue<T: Encodable>(_ value: T) throws {
        if try writePrimitive(value) { return }
        pushFrame(for: T.self)
        try value.encode(to: self)
        close(frames.removeLast())
    }

    /// The types Foundation's encoder writes itself rather than through their `encode(to:)`
    /// (`Date`, `Data`, `URL`, `Decimal`), and the common scalars, written without a frame.
    @inline(__always)
    private func writePrimitive<T: Encodable>(_ value: T) throws -> Bool {
        if T.self == String.self {
            writer.appendString(unsafeBitCast(value, to: String.self))
        } else if T.self == Int.self {
            writer.appendInteger(unsafeBitCast(value, to: Int.self))
        } else if T.self == Int64.self {
            writer.appendInteger(unsafeBitCast(value, to: Int64.self))
        } else if T.self == Bool.self {
            writer.append(unsafeBitCast(value, to: Bool.self) ? "true" : "false")
        } else if T.self == Date.self {
            writer.appendDate(unsafeBitCast(value, to: Date.self))
        } else if T.self == Double.self {
            let number = unsafeBitCast(value, to: Double.self)
            guard number.isFinite else { throw Self.nonFinite(number, at: codingPath) }
            writer.appendFloatingPoint(number)
        } else if T.self == Data.self {
            writer.appendString(unsafeBitCast(value, to: Data.self).base64EncodedString())
        } else if T.self == URL.self {
            writer.appendString(unsafeBitCast(value, to: URL.self).absoluteString)
        } else if T.self == Decimal.self {
            writer.appendASCII(unsafeBitCast(value, to: Decimal.self).description)
        } else {
            return false
        }
        return true
    }

    /// Non-finite numbers have no JSON spelling: an error, as with Foundation's default strategy.
    static func nonFinite<Number: BinaryFloatingPoint>(_ value: Number, at path: [any CodingKey]) -> EncodingError {
        .invalidValue(value, .init(codingPath: path, debugDescription: "Unable to encode \(Number.self).\(value) directly in JSON."))
    }

    private func pushFrame(for type: Any.Type) {
        frames.append(Frame(start: writer.count, valueType: type, pendingBase: pending.count, rawKeyBase: rawKeys.count))
    }

    func checkpoint() -> Mark {
        Mark(bytes: writer.count, frames: frames.count, members: members.count, pending: pending.count,
             rawKeys: rawKeys.count, path: path.count)
    }

    /// Forgets everything written since `mark`: a value that threw leaves no trace, as in Foundation.
    func rollback(to mark: Mark) {
        writer.truncate(to: mark.bytes)
        frames.removeSubrange(mark.frames...)
        members.removeSubrange(mark.members...)
        pending.removeSubrange(mark.pending...)
        rawKeys.removeSubrange(mark.rawKeys...)
        path.removeSubrange(mark.path...)
    }

    // MARK: Containers

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        let depth = currentDepth()
        switch frames[depth].kind {
        case .empty:
            frames[depth].kind = .keyed
            frames[depth].memberBase = members.count
            frames[depth].convertsKeys = !isStringKeyedDictionary(frames[depth].valueType)
        case .keyed:
            break
        case .single, .unkeyed:
            preconditionFailure("Attempt to push new keyed encoding container when already previously encoded at this path.")
        }
        return KeyedEncodingContainer(JSONKeyedContainer<Key>(encoder: self, depth: depth))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        let depth = currentDepth()
        switch frames[depth].kind {
        case .empty:
            frames[depth].kind = .unkeyed
            writer.append(UInt8(ascii: "["))
        case .unkeyed:
            break
        case .single, .keyed:
            preconditionFailure("Attempt to push new unkeyed encoding container when already previously encoded at this path.")
        }
        return JSONUnkeyedContainer(encoder: self, depth: depth)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        JSONSingleValueContainer(encoder: self, depth: currentDepth())
    }

    /// Foundation leaves the keys of a `[String: Value]` alone; other dictionaries' keys (integers,
    /// `CodingKeyRepresentable`) go through the key strategy like any other. The dynamic cast is
    /// the slow part of opening an object, and objects come in runs of one type (list items).
    private func isStringKeyedDictionary(_ type: Any.Type) -> Bool {
        if let last = lastKeyedType, last.type == ObjectIdentifier(type) { return last.isStringKeyedDictionary }
        let answer = type is StringKeyedDictionary.Type
        lastKeyedType = (ObjectIdentifier(type), answer)
        return answer
    }

    private func currentDepth() -> Int {
        precondition(!frames.isEmpty, "The encoder was used after its value was finished.")
        return frames.count - 1
    }

    /// A container is only written while its own value is the one being encoded.
    @inline(__always)
    func checkDepth(_ depth: Int) {
        precondition(depth == frames.count - 1, "A container was used after the value it belongs to was finished.")
    }

    // MARK: Single values

    /// Claims the current value for one scalar.
    func beginSingleValue(at depth: Int) {
        checkDepth(depth)
        precondition(frames[depth].kind == .empty, "Attempt to encode value through single value container when previously value already encoded.")
        frames[depth].kind = .single
    }

    /// A value encoded through a single-value container is this value (as in Foundation): it
    /// writes its own containers into the current frame.
    func encodeSingleValue<T: Encodable>(_ value: T, at depth: Int) throws {
        checkDepth(depth)
        let fresh = frames[depth]
        precondition(fresh.kind == .empty, "Attempt to encode value through single value container when previously value already encoded.")
        if try writePrimitive(value) {
            frames[depth].kind = .single
            return
        }
        let saved = checkpoint()
        frames[depth].valueType = T.self
        do {
            try value.encode(to: self)
        } catch {
            rollback(to: saved)
            frames[depth] = fresh
            throw error
        }
    }

    // MARK: Object members

    /// Writes `,"key":` for a member of the object at `depth`.
    @inline(__always)
    func beginMember<Key: CodingKey>(_ key: Key, at depth: Int, pushingPath: Bool) -> Member {
        checkDepth(depth)
        let start = writer.count
        writer.append(UInt8(ascii: ","))
        let name = key.stringValue
        let intValue = key.intValue
        var escaped: [UInt8]?
        if frames[depth].convertsKeys && intValue == nil {
            if !writer.appendSnakeCaseKey(name) {
                let wireName = JSON.wireNames.snakeCase(name)
                if writer.appendKey(wireName) { escaped = Array(wireName.utf8) }
            }
        } else if writer.appendKey(name) {
            escaped = Array(name.utf8)
        }
        var rawKey = -1
        if let escaped {
            rawKey = rawKeys.count
            rawKeys.append(escaped)
        }
        if pushingPath { path.append(.key(name, intValue)) }
        return Member(start: start, valueStart: writer.count, rawKey: rawKey)
    }

    @inline(__always)
    func endMember(_ member: Member, poppingPath: Bool) {
        var member = member
        member.end = writer.count
        members.append(member)
        if poppingPath { path.removeLast() }
    }

    func encodeMember<T: Encodable, Key: CodingKey>(_ value: T, forKey key: Key, at depth: Int) throws {
        let saved = checkpoint()
        let member = beginMember(key, at: depth, pushingPath: true)
        do {
            try encodeValue(value)
        } catch {
            rollback(to: saved)
            throw error
        }
        endMember(member, poppingPath: true)
    }

    /// The encoder that writes the value of `key` later (a nested container or a super encoder).
    /// Asking twice for the same key continues the same value, as Foundation does.
    func detachedMember<Key: CodingKey>(_ key: Key, at depth: Int, codingPath: [any CodingKey]) -> JSONBytesEncoder {
        var member = beginMember(key, at: depth, pushingPath: false)
        for index in frames[depth].memberBase..<members.count where members[index].detached >= 0 {
            if compareKeys(members[index], member, in: writer, shift: 0) == 0 {
                if member.rawKey >= 0 { rawKeys.removeLast() }
                writer.truncate(to: member.start)
                return pending[members[index].detached].encoder
            }
        }
        let nested = JSONBytesEncoder(codingPath: codingPath)
        nested.pushFrame(for: Void.self)
        member.detached = pending.count
        pending.append(Pending(offset: 0, encoder: nested))
        endMember(member, poppingPath: false)
        return nested
    }

    // MARK: Array elements

    /// Writes the separator before an element of the array at `depth`.
    @inline(__always)
    func beginElement(at depth: Int) {
        checkDepth(depth)
        if frames[depth].elementCount > 0 { writer.append(UInt8(ascii: ",")) }
        frames[depth].elementCount += 1
    }

    func encodeElement<T: Encodable>(_ value: T, at depth: Int) throws {
        let saved = checkpoint()
        let index = frames[depth].elementCount
        beginElement(at: depth)
        path.append(.index(index))
        do {
            try encodeValue(value)
        } catch {
            rollback(to: saved)
            frames[depth].elementCount = index
            throw error
        }
        path.removeLast()
    }

    /// The encoder that writes the next element later (a nested container or a super encoder).
    func detachedElement(at depth: Int, codingPath: [any CodingKey]) -> JSONBytesEncoder {
        beginElement(at: depth)
        let nested = JSONBytesEncoder(codingPath: codingPath)
        nested.pushFrame(for: Void.self)
        pending.append(Pending(offset: writer.count, encoder: nested))
        return nested
    }

    func elementCount(at depth: Int) -> Int { frames[depth].elementCount }
}

/// `[String: Value]`, whose keys Foundation's encoder writes as they are.
private protocol StringKeyedDictionary {}
extension Dictionary: StringKeyedDictionary where Key == String {}

/// A key of the coding path: a member's name or an array index (`Index 3`, as Foundation names it).
struct JSONCodingKey: CodingKey {
    let stringValue: String
    let intValue: Int?

    init(stringValue: String, intValue: Int?) {
        self.stringValue = stringValue
        self.intValue = intValue
    }

    init(stringValue: String) { self.init(stringValue: stringValue, intValue: nil) }
    init(intValue: Int) { self.init(stringValue: String(intValue), intValue: intValue) }
    init(index: Int) { self.init(stringValue: "Index \(index)", intValue: index) }

    static let `super` = JSONCodingKey(stringValue: "super")
}
