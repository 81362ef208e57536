import Crypto
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// The flat `<xml><k>v</k>...</xml>` of WeChat Pay v2, read with XMLParser; external entities
/// are never resolved and a document type declaration is refused outright.
enum WechatXML {
    static func parse(_ body: [UInt8], root: String = "xml") -> [String: String]? {
        // No NUL byte: UTF-16 without a BOM is valid "UTF-8" byte for byte, and the parser would
        // detect and read it, past the text filters below.
        guard body.count <= 64 * 1024, !body.contains(0), let text = String(validating: body, as: UTF8.self),
              declaresUTF8OrNothing(text) else { return nil }
        guard !text.uppercased().contains("<!DOCTYPE"), !text.uppercased().contains("<!ENTITY") else { return nil }
        let parser = XMLParser(data: Data(body))
        parser.shouldResolveExternalEntities = false
        let collector = Collector()
        parser.delegate = collector
        guard parser.parse(), collector.rootName == root else { return nil }
        return collector.fields
    }

    /// Only UTF-8 is read: the filters above look at the UTF-8 text, so a body that names another
    /// encoding in its `<?xml ... encoding="..."?>` prolog (which the parser would honour) is refused.
    static func declaresUTF8OrNothing(_ text: String) -> Bool {
        let start = text.drop { $0 == "\u{FEFF}" || $0.isWhitespace }
        guard start.hasPrefix("<?xml"), let end = start.range(of: "?>") else { return true }
        let prolog = start[..<end.lowerBound].lowercased()
        guard let name = prolog.range(of: "encoding") else { return true }
        let value = prolog[name.upperBound...].drop { $0 == " " || $0 == "=" || $0 == "\"" || $0 == "'" }
        return value.hasPrefix("utf-8\"") || value.hasPrefix("utf-8'") || value.hasPrefix("utf8\"") || value.hasPrefix("utf8'")
    }

    /// The success answer WeChat expects.
    static let successReply = "<xml><return_code><![CDATA[SUCCESS]]></return_code><return_msg><![CDATA[OK]]></return_msg></xml>"

    /// Builds a notification body (tests and tools).
    static func document(_ fields: [String: String]) -> String {
        // a value holding `]]>` is split over two CDATA sections, so it cannot end its own early
        "<xml>" + fields.sorted { $0.key < $1.key }.map { field in
            let value = field.value.replacingOccurrences(of: "]]>", with: "]]]]><![CDATA[>")
            return "<\(field.key)><![CDATA[\(value)]]></\(field.key)>"
        }.joined() + "</xml>"
    }

    private final class Collector: NSObject, XMLParserDelegate {
        var rootName: String?
        var fields: [String: String] = [:]
        private var depth = 0
        private var current = ""

        func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                    qualifiedName: String?, attributes: [String: String] = [:]) {
            depth += 1
            if depth == 1 { rootName = elementName }
            current = ""
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) { current += string }

        func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) { current += String(decoding: CDATABlock, as: UTF8.self) }

        func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
            if depth == 2 { fields[elementName] = current.trimmingCharacters(in: .whitespacesAndNewlines) }
            depth -= 1
            current = ""
        }
    }
}
