extension StringProtocol {
    /// True when the text is non-empty and every byte is an ASCII digit `0`…`9`.
    ///
    /// Checked on UTF-8 bytes, never on `Character`s: a `Character` such as "3\u{301}" (a digit
    /// with a combining mark) or "3\u{200D}" sorts between "0" and "9", so a range check on
    /// characters lets invisible and combining marks through. Every byte of a non-ASCII scalar
    /// is 0x80 or above, so a byte check admits exactly the ten ASCII digits.
    public var isASCIIDigits: Bool {
        !utf8.isEmpty && utf8.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    }
}
