/// `value` in decimal, padded with zeros on the left to `width` characters (a minus sign counts):
/// what `String(format: "%0<width>d", value)` writes, without Foundation's formatter, which builds
/// a `CFString` on every call. Days are spelled this way many times per checkout (the delivery
/// calendar compares them as text), and on the PostgreSQL checkout bench the formatter was about
/// 5% of the shop's CPU.
func zeroPadded(_ value: Int, _ width: Int) -> String {
    let digits = String(value.magnitude)
    let sign = value < 0 ? "-" : ""
    let padding = width - digits.utf8.count - sign.utf8.count
    return padding > 0 ? sign + String(repeating: "0", count: padding) + digits : sign + digits
}
