import Crypto

/// Money is an integer number of cents (分); these helpers convert yuan text exactly.
public enum Money {
    /// "129", "129.5", "129.00" → 12900, 12950, 12900; nil for anything else
    /// (signs, more than two decimals, exponents, empty, too large). No floating point.
    public static func cents(fromYuan text: String) -> Int64? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 1 || parts.count == 2 else { return nil }
        let whole = parts[0]
        let fraction = parts.count == 2 ? parts[1] : ""
        guard whole.isASCIIDigits, whole.utf8.count <= 12,
              fraction.utf8.count <= 2, fraction.isEmpty || fraction.isASCIIDigits,
              parts.count == 1 || !fraction.isEmpty,
              let yuan = Int64(whole) else { return nil }
        let padded = fraction.padding(toLength: 2, withPad: "0", startingAt: 0)
        guard let cents = Int64(padded) else { return nil }
        return yuan * 100 + cents
    }

    /// 12950 → "129.50".
    public static func yuan(fromCents cents: Int64) -> String {
        let sign = cents < 0 ? "-" : ""
        let magnitude = cents.magnitude
        let fraction = magnitude % 100
        return "\(sign)\(magnitude / 100).\(fraction < 10 ? "0" : "")\(fraction)"
    }
}
