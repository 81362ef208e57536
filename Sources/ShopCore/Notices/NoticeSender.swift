import CurlClient
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// Delivers one notice (`notifications.sender`): to the log, a JSON-lines file, or an SMS
/// gateway. Called only by the outbox's dispatcher, on its own thread, never on a request's.
/// Throwing means "not delivered": the outbox tries again later.
public protocol NoticeSender: Sendable {
    func send(_ message: NoticeMessage) throws
}

/// Why a sender could not deliver a notice.
public struct NoticeSendError: Error, CustomStringConvertible {
    public let description: String

    public init(_ description: String) { self.description = description }
}

/// Writes each notice to the server log (development).
public struct LogNoticeSender: NoticeSender {
    let logger: Logger

    public init(logger: Logger) { self.logger = logger }

    public func send(_ message: NoticeMessage) throws {
        logger.info("notice", ["id": message.id.description, "to": message.to, "event": message.event.rawValue,
                               "order": message.orderNumber, "text": message.text])
    }
}

/// Appends one JSON line per notice to a file, exactly once per notice id even when the process
/// is killed between writing a line and the outbox marking it sent: under an exclusive `flock`
/// on the file (shared by every process and node writing it), the sender first looks for a line
/// with the notice's id and writes only when there is none, then `fsync`s before answering. So a
/// notice whose claim was recovered after a crash, or that a slow dispatcher still holds when its
/// claim expired, is written once whoever gets to it. Reading the file costs time in its length:
/// this sender is for development and tests, like the code file.
public final class FileNoticeSender: NoticeSender, Sendable {
    let path: String
    /// Threads of one process take turns here; processes take turns at the `flock`.
    private let appending = Mutex(())

    public init(path: String) {
        self.path = path
    }

    public func send(_ message: NoticeMessage) throws {
        try appending.withLock { _ in try append(message) }
    }

    private func append(_ message: NoticeMessage) throws {
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let fd = open(path, O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw NoticeSendError("cannot open \(path): errno \(errno)") }
        defer { close(fd) }
        guard flock(fd, LOCK_EX) == 0 else { throw NoticeSendError("cannot lock \(path): errno \(errno)") }
        defer { flock(fd, LOCK_UN) }
        if try written(message.id) { return }
        let line = Array(NoticeLine.encode(message))
        var offset = 0
        while offset < line.count {
            let count = line[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw NoticeSendError("cannot write \(path): errno \(errno)")
            }
            offset += count
        }
        guard fsync(fd) == 0 else { throw NoticeSendError("cannot sync \(path): errno \(errno)") }
    }

    /// Whether a line of the file is the notice `id`'s (a torn last line counts if its id is whole).
    private func written(_ id: NoticeID) throws -> Bool {
        guard let data = FileManager.default.contents(atPath: path), !data.isEmpty else { return false }
        let needle = Array("\"id\":\(id.rawValue),".utf8)
        for line in data.split(separator: UInt8(ascii: "\n")) where line.count >= needle.count {
            // keys are sorted: `"event":"…","id":N,` — the id follows the event's closing quote
            if let range = line.firstRange(of: needle), range.lowerBound > line.startIndex,
               line[line.index(before: range.lowerBound)] == UInt8(ascii: ",") {
                return true
            }
        }
        return false
    }
}

/// POSTs each notice as JSON (`NoticeLine`, with its `id`: the gateway can drop a repeat) to an
/// SMS gateway through libcurl, blocking the dispatcher's thread for at most `timeout`; a status
/// outside 2xx, a timeout or a refused connection is a failed try. Delivery is at least once: a
/// node killed after the gateway took a message and before the outbox marked it sent sends it
/// again, with the same id.
public struct WebhookNoticeSender: NoticeSender {
    let url: URL
    let timeout: TimeInterval

    public init(url: URL, timeout: TimeInterval = 5) {
        self.url = url
        self.timeout = timeout
    }

    public func send(_ message: NoticeMessage) throws {
        let answer: (status: Int, body: [UInt8])
        do {
            answer = try CurlClient.post(url: url.absoluteString, body: Array(NoticeLine.encode(message)),
                                         contentType: "application/json", timeoutMilliseconds: max(1, Int(timeout * 1_000)),
                                         maxAnswerBytes: 16 * 1024)
        } catch CurlClient.Failure.timedOut {
            throw NoticeSendError("gateway timed out after \(Int(timeout)) s")
        } catch {
            throw NoticeSendError("gateway unreachable: \(error)")
        }
        guard (200..<300).contains(answer.status) else { throw NoticeSendError("gateway answered \(answer.status)") }
    }
}

/// A notice as one JSON line: sorted keys, snake_case, RFC 3339 time, a final line feed.
enum NoticeLine {
    static func encode(_ message: NoticeMessage) -> Data {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let body = (try? encoder.encode(message)) ?? Data()
        return body + Data("\n".utf8)
    }
}
