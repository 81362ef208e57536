import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The bytes of an import file, a chunk at a time, so a large file is never held whole.
protocol ImportSource: AnyObject {
    /// The next chunk (never empty), or nil at the end.
    func next() throws -> [UInt8]?
    /// Bytes of the file read so far and in all, for progress.
    var bytesRead: Int { get }
    var totalBytes: Int { get }
    /// Back to the first byte: a transaction the database gave up on runs again from the start.
    func rewind() throws
}

extension ImportSource {
    /// The whole input again from its start (for a check that needs it: is it GB18030 text?).
    func readAll() throws -> [UInt8] {
        try rewind()
        var bytes: [UInt8] = []
        bytes.reserveCapacity(totalBytes)
        while let chunk = try next() { bytes += chunk }
        return bytes
    }
}

/// A regular file within the size limit, opened once and checked and read through that one
/// descriptor, so a symlink to a FIFO, a device or a file that grows after the check cannot get
/// past the limit.
final class FileImportSource: ImportSource {
    static let chunkSize = 1 << 16

    private let descriptor: Int32
    private let path: String
    private let maxBytes: Int
    let totalBytes: Int
    private(set) var bytesRead = 0

    init(path: String, maxBytes: Int) throws {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw ImportError.unreadable("\(path) does not exist or cannot be read") }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            close(fd)
            throw ImportError.unreadable("\(path) cannot be read")
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            close(fd)
            throw ImportError.unreadable("\(path) is not a regular file")
        }
        guard info.st_size <= maxBytes else {
            close(fd)
            throw ImportError.fileTooLarge(bytes: Int(info.st_size), limit: maxBytes)
        }
        descriptor = fd
        self.path = path
        self.maxBytes = maxBytes
        totalBytes = Int(info.st_size)
    }

    deinit { close(descriptor) }

    func next() throws -> [UInt8]? {
        var chunk = [UInt8](repeating: 0, count: Self.chunkSize)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress!, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n >= 0 else { throw ImportError.unreadable("\(path) cannot be read") }
            guard n > 0 else { return nil }
            bytesRead += n
            guard bytesRead <= maxBytes else { throw ImportError.fileTooLarge(bytes: bytesRead, limit: maxBytes) }
            chunk.removeLast(chunk.count - n)
            return chunk
        }
    }

    func rewind() throws {
        guard lseek(descriptor, 0, SEEK_SET) == 0 else { throw ImportError.unreadable("\(path) cannot be read") }
        bytesRead = 0
    }
}

/// Bytes already in memory (tests, and callers that hold the file), in chunks like a file.
final class MemoryImportSource: ImportSource {
    private let bytes: [UInt8]
    private let chunkSize: Int
    private(set) var bytesRead = 0
    var totalBytes: Int { bytes.count }

    init(_ bytes: [UInt8], chunkSize: Int = FileImportSource.chunkSize) {
        self.bytes = bytes
        self.chunkSize = max(1, chunkSize)
    }

    func next() throws -> [UInt8]? {
        guard bytesRead < bytes.count else { return nil }
        let end = min(bytes.count, bytesRead + chunkSize)
        defer { bytesRead = end }
        return Array(bytes[bytesRead..<end])
    }

    func rewind() throws { bytesRead = 0 }
}

/// Another source's GB18030 (or GBK, its subset) text as UTF-8, converted chunk by chunk with
/// glibc's iconv; a character split between two chunks is carried over to the next.
final class GB18030ImportSource: ImportSource {
    private let source: any ImportSource
    private let converter: iconv_t
    private var pending: [UInt8] = []
    private var ended = false
    var bytesRead: Int { source.bytesRead }
    var totalBytes: Int { source.totalBytes }

    init(_ source: any ImportSource) throws {
        guard let converter = iconv_open("UTF-8", "GB18030"), converter != iconv_t(bitPattern: -1) else {
            throw ImportError.unreadable("this system cannot convert GB18030 text (iconv)")
        }
        self.source = source
        self.converter = converter
    }

    deinit { iconv_close(converter) }

    func rewind() throws {
        try source.rewind()
        _ = iconv(converter, nil, nil, nil, nil)
        pending = []
        ended = false
    }

    func next() throws -> [UInt8]? {
        while !ended {
            guard let chunk = try source.next() else {
                ended = true
                guard pending.isEmpty else { throw ImportError.notGB18030 }
                return nil
            }
            pending += chunk
            let converted = try convert()
            if !converted.isEmpty { return converted }
        }
        return nil
    }

    /// Converts what `pending` holds, keeping an incomplete last character for the next chunk.
    private func convert() throws -> [UInt8] {
        var output = [UInt8](repeating: 0, count: pending.count * 2 + 16)
        var inputLeft = pending.count
        var outputLeft = output.count
        let (result, error) = pending.withUnsafeMutableBytes { input in
            output.withUnsafeMutableBytes { out in
                var inPointer = input.baseAddress?.assumingMemoryBound(to: CChar.self)
                var outPointer = out.baseAddress?.assumingMemoryBound(to: CChar.self)
                let result = iconv(converter, &inPointer, &inputLeft, &outPointer, &outputLeft)
                return (result, errno)
            }
        }
        if result == -1 && error != EINVAL { throw ImportError.notGB18030 }
        pending.removeFirst(pending.count - inputLeft)
        output.removeLast(outputLeft)
        return output
    }

    /// Whether `bytes` read as GB18030 text from start to end.
    static func decodes(_ bytes: [UInt8]) -> Bool {
        guard let source = try? GB18030ImportSource(MemoryImportSource(bytes)) else { return false }
        do {
            while try source.next() != nil {}
            return true
        } catch {
            return false
        }
    }
}
