/// Runs `body` over the collection's bytes as one contiguous buffer, copying only when the
/// collection has no contiguous storage. The pointer is never nil, even for empty input,
/// because some C APIs (OpenSSL's HMAC among them) read a nil pointer as "no argument".
func withContiguousBytes<C: Collection<UInt8>, R>(
    _ bytes: C,
    _ body: (UnsafePointer<UInt8>, Int) throws -> R
) rethrows -> R {
    let direct = try bytes.withContiguousStorageIfAvailable { buffer -> R in
        try withNonNilBase(buffer, body)
    }
    if let direct { return direct }
    return try Array(bytes).withUnsafeBufferPointer { try withNonNilBase($0, body) }
}

private func withNonNilBase<R>(
    _ buffer: UnsafeBufferPointer<UInt8>,
    _ body: (UnsafePointer<UInt8>, Int) throws -> R
) rethrows -> R {
    if let base = buffer.baseAddress { return try body(base, buffer.count) }
    var placeholder: UInt8 = 0
    return try withUnsafePointer(to: &placeholder) { try body($0, 0) }
}
