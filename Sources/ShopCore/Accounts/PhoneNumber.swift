import Crypto

/// Mainland mobile numbers: 11 ASCII digits starting with 1; a `+86` prefix is accepted and dropped.
public enum PhoneNumber {
    /// Checked on UTF-8 bytes, so an invisible or combining mark never makes a second spelling
    /// of one number (which would give it a second account, cooldown and daily SMS cap).
    public static func normalize(_ raw: String, field: String = "phone") throws -> String {
        let prefix = "+86".utf8
        let phone = raw.utf8.starts(with: prefix) ? String(decoding: raw.utf8.dropFirst(prefix.count), as: UTF8.self) : raw
        guard phone.utf8.count == 11, phone.utf8.first == UInt8(ascii: "1"), phone.isASCIIDigits else {
            throw ValidationError(field, .mobilePhone)
        }
        return phone
    }
}
