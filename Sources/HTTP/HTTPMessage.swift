import Localization

/// The errors the HTTP layer answers by itself: routing, body limits and JSON decoding.
public enum HTTPMessage: String, ErrorMessage {
    case notFound, noRoute, methodNotAllowed, payloadTooLarge, controlCharacterInPath
    case unsupportedMediaType, bodyRequired, bodyNotUTF8, bodyNotJSON
    case wholeNumberExpected, fieldRequired, fieldWrongType, bodyWrongType, fieldInvalid
    case internalError

    public var status: Status {
        switch self {
        case .notFound, .noRoute: .notFound
        case .methodNotAllowed: .methodNotAllowed
        case .payloadTooLarge: .payloadTooLarge
        case .unsupportedMediaType: .unsupportedMediaType
        case .internalError: .internalServerError
        case .controlCharacterInPath, .bodyRequired, .bodyNotUTF8, .bodyNotJSON, .wholeNumberExpected, .fieldRequired,
             .fieldWrongType, .bodyWrongType, .fieldInvalid: .badRequest
        }
    }

    public var code: String {
        switch self {
        case .notFound, .noRoute: "not_found"
        case .methodNotAllowed: "method_not_allowed"
        case .payloadTooLarge: "payload_too_large"
        case .unsupportedMediaType: "unsupported_media_type"
        case .controlCharacterInPath, .bodyRequired, .bodyNotJSON: "invalid_request"
        case .bodyNotUTF8, .wholeNumberExpected, .fieldRequired, .fieldWrongType, .bodyWrongType, .fieldInvalid: "validation_failed"
        case .internalError: "internal"
        }
    }

    public var template: LocalizedText {
        switch self {
        case .notFound:
            LocalizedText(zh: "找不到请求的内容。", en: "Not found.")
        case .noRoute:
            LocalizedText(zh: "没有这个地址：{path}", en: "No route for {path}.")
        case .methodNotAllowed:
            LocalizedText(zh: "这个地址不接受 {method} 请求。", en: "{method} is not allowed here.")
        case .payloadTooLarge:
            LocalizedText(zh: "请求内容超过了 {limit} 字节的上限。", en: "The request body is larger than {limit} bytes.")
        case .controlCharacterInPath:
            LocalizedText(zh: "地址中不能含有 %00 这样的控制字符。", en: "The path must not contain control characters such as %00.")
        case .unsupportedMediaType:
            LocalizedText(zh: "请以 application/json 格式发送请求内容。", en: "Send the body as application/json.")
        case .bodyRequired:
            LocalizedText(zh: "这个请求需要 JSON 格式的内容。", en: "The request needs a JSON body.")
        case .bodyNotUTF8:
            LocalizedText(zh: "请求内容不是有效的 UTF-8 文本。", en: "The body is not valid UTF-8.")
        case .bodyNotJSON:
            LocalizedText(zh: "请求内容不是有效的 JSON。", en: "The body is not valid JSON.")
        case .wholeNumberExpected:
            LocalizedText(zh: "请求内容中有一个值类型不对（应为整数）。",
                          en: "A value in the body has the wrong type (a whole number is expected).")
        case .fieldRequired:
            LocalizedText(zh: "缺少 {field}。", en: "{field} is required.")
        case .fieldWrongType:
            LocalizedText(zh: "{field} 的类型不对。", en: "{field} has the wrong type.")
        case .bodyWrongType:
            LocalizedText(zh: "请求内容的类型不对。", en: "body has the wrong type.")
        case .fieldInvalid:
            LocalizedText(zh: "{field} 的值无效。", en: "{field} has an invalid value.")
        case .internalError:
            LocalizedText(zh: "服务器出了点问题，请稍后再试。", en: "Something went wrong on our side.")
        }
    }
}
