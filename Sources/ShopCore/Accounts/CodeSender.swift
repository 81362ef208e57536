import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization

/// One verification code on its way to a phone.
public struct CodeMessage: Sendable, Codable, Equatable {
    public let phone: String
    public let purpose: String
    public let code: String
    public let sentAt: Date
}

/// Delivers verification codes: to the log, a JSON-lines file, or an SMS gateway.
public protocol CodeSender: Sendable {
    func send(_ message: CodeMessage)
}

/// Writes the code to the server log (development).
public struct LogCodeSender: CodeSender {
    let logger: Logger

    public init(logger: Logger) { self.logger = logger }

    public func send(_ message: CodeMessage) {
        logger.info("verification code", ["phone": message.phone, "purpose": message.purpose, "code": message.code])
    }
}

/// Appends one JSON line per code to a file (tests and local tools read it).
public final class FileCodeSender: CodeSender, Sendable {
    let path: String
    let logger: Logger
    /// Held while appending, so lines from concurrent sends never interleave.
    private let appending = Mutex(())

    public init(path: String, logger: Logger) {
        self.path = path
        self.logger = logger
    }

    public func send(_ message: CodeMessage) {
        appending.withLock { _ in append(message) }
    }

    private func append(_ message: CodeMessage) {
        do {
            let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            if !FileManager.default.fileExists(atPath: path) {
                _ = FileManager.default.createFile(atPath: path, contents: nil)
            }
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
            defer { try? handle.close() }
            try handle.seekToEnd()
            try handle.write(contentsOf: CodeMessageJSON.line(message))
        } catch {
            logger.error("verification code not written", ["path": path, "error": String(describing: error)])
        }
    }
}

/// POSTs the JSON to an SMS gateway, with a timeout; a failure is logged, never thrown at the client.
public struct WebhookCodeSender: CodeSender {
    let url: URL
    let timeout: TimeInterval
    let logger: Logger

    public init(url: URL, timeout: TimeInterval = 5, logger: Logger) {
        self.url = url
        self.timeout = timeout
        self.logger = logger
    }

    public func send(_ message: CodeMessage) {
        var request = URLRequest(url: url, timeoutInterval: timeout)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = CodeMessageJSON.line(message)
        let logger = self.logger
        let target = url.absoluteString
        let phone = message.phone
        URLSession.shared.dataTask(with: request) { _, response, error in
            let status = (response as? HTTPURLResponse)?.statusCode ?? 0
            if let error {
                logger.error("sms gateway failed", ["url": target, "phone": phone, "error": error.localizedDescription])
            } else if !(200..<300).contains(status) {
                logger.error("sms gateway refused", ["url": target, "phone": phone, "status": String(status)])
            }
        }.resume()
    }
}

enum CodeMessageJSON {
    static func line(_ message: CodeMessage) -> Data {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = .sortedKeys
        let body = (try? encoder.encode(message)) ?? Data()
        return body + Data("\n".utf8)
    }
}
