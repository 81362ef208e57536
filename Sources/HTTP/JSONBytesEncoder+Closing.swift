import Foundation

// Closing a value: an object's members put in key order (a repeated key keeping its last value),
// an array's and an object's nested containers spliced in, an empty value written as `{}`.
extension JSONBytesEncoder {
    func close(_ frame: Frame) {
        switch frame.kind {
        case .empty: writer.append("{}")  // what Foundation writes for a value that encoded nothing
        case .single: break
        case .keyed: closeObject(frame)
        case .unkeyed: closeArray(frame)
        }
    }

    /// Appends a detached encoder's value, closing it first.
    private func finish(into target: JSONWriter) {
        precondition(frames.count == 1, "A nested container's value was still being written.")
        close(frames.removeLast())
        target.append(0..<writer.count, of: writer)
    }

    private func closeObject(_ frame: Frame) {
        let first = frame.memberBase
        let end = members.count
        defer {
            members.removeLast(end - first)
            if pending.count > frame.pendingBase { pending.removeSubrange(frame.pendingBase...) }
            if rawKeys.count > frame.rawKeyBase { rawKeys.removeSubrange(frame.rawKeyBase...) }
        }
        guard first < end else {
            writer.append("{}")
            return
        }
        var ascending = true
        for index in first..<(end - 1) where compareKeys(members[index], members[index + 1], in: writer, shift: 0) >= 0 {
            ascending = false
            break
        }
        if ascending && pending.count == frame.pendingBase {
            // Already in key order, one after the other: the placeholder comma opens the object.
            writer.replace(at: frame.start, with: UInt8(ascii: "{"))
            writer.append(UInt8(ascii: "}"))
            return
        }
        if !ascending {
            members[first..<end].sort { a, b in
                let order = compareKeys(a, b, in: writer, shift: 0)
                return order < 0 || (order == 0 && a.start < b.start)
            }
        }
        let shift = frame.start
        scratch.truncate(to: 0)
        scratch.append(shift..<writer.count, of: writer)
        writer.truncate(to: shift)
        writer.append(UInt8(ascii: "{"))
        var wroteOne = false
        for index in first..<end {
            let member = members[index]
            // A key written twice keeps its later value (sorted ties keep the order written).
            if index + 1 < end && compareKeys(member, members[index + 1], in: scratch, shift: shift) == 0 { continue }
            if wroteOne { writer.append(UInt8(ascii: ",")) }
            wroteOne = true
            if member.detached >= 0 {
                writer.append((member.start + 1 - shift)..<(member.valueStart - shift), of: scratch)
                pending[member.detached].encoder.finish(into: writer)
            } else {
                writer.append((member.start + 1 - shift)..<(member.end - shift), of: scratch)
            }
        }
        writer.append(UInt8(ascii: "}"))
    }

    private func closeArray(_ frame: Frame) {
        guard pending.count > frame.pendingBase else {
            writer.append(UInt8(ascii: "]"))
            return
        }
        let shift = frame.start
        let end = writer.count
        scratch.truncate(to: 0)
        scratch.append(shift..<end, of: writer)
        writer.truncate(to: shift)
        var copied = shift
        for item in pending[frame.pendingBase...] {
            writer.append((copied - shift)..<(item.offset - shift), of: scratch)
            item.encoder.finish(into: writer)
            copied = item.offset
        }
        writer.append((copied - shift)..<(end - shift), of: scratch)
        writer.append(UInt8(ascii: "]"))
        pending.removeSubrange(frame.pendingBase...)
    }

    /// Orders two members by the UTF-8 bytes of their unescaped keys, as Foundation's
    /// `sortedKeys` does; `buffer` holds their bytes, moved down by `shift`.
    func compareKeys(_ a: Member, _ b: Member, in buffer: JSONWriter, shift: Int) -> Int {
        // `,"` before the key, `":` after it.
        func written(_ member: Member) -> UnsafeBufferPointer<UInt8> {
            UnsafeBufferPointer(start: buffer.base + (member.start + 2 - shift), count: member.valueStart - member.start - 4)
        }
        if a.rawKey < 0 && b.rawKey < 0 { return compareBytes(written(a), written(b)) }
        let left = a.rawKey >= 0 ? rawKeys[a.rawKey] : Array(written(a))
        let right = b.rawKey >= 0 ? rawKeys[b.rawKey] : Array(written(b))
        return left.withUnsafeBufferPointer { l in right.withUnsafeBufferPointer { r in compareBytes(l, r) } }
    }

    /// Keys are a few bytes long: a loop beats calling `memcmp`.
    private func compareBytes(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Int {
        for index in 0..<Swift.min(a.count, b.count) where a[index] != b[index] {
            return Int(a[index]) - Int(b[index])
        }
        return a.count - b.count
    }
}
