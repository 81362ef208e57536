import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Reads an import file whole, but only a regular file within the size limit: the file is opened
/// once and checked and read through that one descriptor, so a symlink to a FIFO, a device or a
/// file that grows after the check cannot get past the limit.
enum ImportFile {
    static func read(_ path: String, maxBytes: Int) throws -> [UInt8] {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw ImportError.unreadable("\(path) does not exist or cannot be read") }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw ImportError.unreadable("\(path) cannot be read") }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            throw ImportError.unreadable("\(path) is not a regular file")
        }
        guard info.st_size <= maxBytes else { throw ImportError.fileTooLarge(bytes: Int(info.st_size), limit: maxBytes) }
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size) + 1)
        var count = 0
        while count < bytes.count {
            let n = bytes.withUnsafeMutableBytes { buffer in
                Glibc.read(fd, buffer.baseAddress! + count, buffer.count - count)
            }
            if n < 0 && errno == EINTR { continue }
            guard n >= 0 else { throw ImportError.unreadable("\(path) cannot be read") }
            if n == 0 { break }
            count += n
            guard count <= maxBytes else { throw ImportError.fileTooLarge(bytes: count, limit: maxBytes) }
        }
        bytes.removeLast(bytes.count - count)
        return bytes
    }
}
