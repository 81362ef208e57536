import Localization

/// Why an import wrote nothing.
public enum ImportError: Error, Equatable, CustomStringConvertible {
    case fileTooLarge(bytes: Int, limit: Int)
    case unreadable(String)
    case unsupportedFormat(String)
    /// Invalid rows and no `--skip-invalid`: nothing was written.
    case invalidRows([ImportIssue])
    /// The header row names an unknown column, leaves out a required one or names one twice (or
    /// there is no header at all): no row can be read, so nothing was written.
    case badHeader([ImportIssue])
    /// The file is not UTF-8 text (first bad byte on `line`); `gb18030` when it reads as
    /// GB18030/GBK text, which is what Excel in China saves by default.
    case notUTF8(line: Int, gb18030: Bool)
    /// `--encoding gb18030` was given, but the file is not GB18030 text either.
    case notGB18030

    /// The message in the operator's language.
    public var message: LocalizedText {
        switch self {
        case .fileTooLarge(let bytes, let limit):
            return LocalizedText(zh: "文件有 \(bytes) 字节，超过上限 \(limit) 字节（catalog.import_max_bytes），请拆分后再导入",
                                 en: "the file is \(bytes) bytes, over the limit of \(limit) bytes (catalog.import_max_bytes); split it")
        case .unreadable(let reason):
            return LocalizedText(zh: "无法读取文件：\(reason)", en: "cannot read the file: \(reason)")
        case .unsupportedFormat(let name):
            return LocalizedText(zh: "\(name)：只能导入 .csv 和 .jsonl 文件", en: "\(name): only .csv and .jsonl files can be imported")
        case .invalidRows(let issues):
            let rows = Set(issues.map(\.line)).count
            return LocalizedText(zh: "\(rows) 行有误，未导入任何内容（加 --skip-invalid 可只导入正确的行）",
                                 en: "\(rows) invalid row\(rows == 1 ? "" : "s"); nothing was imported (use --skip-invalid to import the valid rows)")
        case .badHeader(let issues):
            let columns = issues.map(\.column).joined(separator: ", ")
            return LocalizedText(zh: "表头有误（\(columns)），未导入任何内容：第一行须是列名，如 Examples/catalog.csv 的表头",
                                 en: "the header row is wrong (\(columns)); nothing was imported: the first line must name the columns, "
                                     + "as the header of Examples/catalog.csv does")
        case .notUTF8(let line, let gb18030):
            if gb18030 {
                return LocalizedText(
                    zh: "文件不是 UTF-8 编码（第 \(line) 行起），看起来是 GBK/GB18030（中文版 Excel 默认保存的编码）。"
                        + "请在 Excel 中“另存为”并选择“CSV UTF-8（逗号分隔）”，或加 --encoding gb18030 直接导入",
                    en: "the file is not UTF-8 text (from line \(line)); it reads as GBK/GB18030, which Excel in China saves by default. "
                        + "In Excel choose Save As → \"CSV UTF-8 (Comma delimited)\", or import it as it is with --encoding gb18030")
            }
            return LocalizedText(zh: "文件不是 UTF-8 文本（第 \(line) 行起），请另存为 UTF-8 编码后再导入",
                                 en: "the file is not UTF-8 text (from line \(line)); save it as UTF-8 and import it again")
        case .notGB18030:
            return LocalizedText(zh: "按 --encoding gb18030 读取失败：文件也不是 GB18030/GBK 文本",
                                 en: "--encoding gb18030 was given, but the file is not GB18030/GBK text either")
        }
    }

    public var description: String { message.en }
}
