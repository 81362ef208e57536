/// WebP files as RIFF chunks. libvips 8.14's WebP saver writes an EXIF chunk of its own even with
/// `strip` (no camera data, but metadata all the same); the shop sends none, so the metadata
/// chunks are dropped and the extended header's flags cleared.
enum WebPChunks {
    /// Chunks that hold metadata, never pixels.
    static let metadata: Set<String> = ["EXIF", "XMP ", "ICCP"]

    /// `webp` without its EXIF, XMP and ICC chunks; unchanged when it is not a RIFF WebP it can read.
    static func strippingMetadata(_ webp: [UInt8]) -> [UInt8] {
        guard webp.count >= 12, webp.starts(with: Array("RIFF".utf8)), webp[8..<12].elementsEqual("WEBP".utf8) else { return webp }
        var chunks: [UInt8] = []
        var offset = 12
        while offset + 8 <= webp.count {
            let fourCC = String(decoding: webp[offset..<(offset + 4)], as: UTF8.self)
            let size = (0..<4).reduce(0) { $0 | Int(webp[offset + 4 + $1]) << (8 * $1) }
            let end = offset + 8 + size + (size & 1)
            guard end <= webp.count || (size & 1 == 1 && end - 1 == webp.count) else { return webp }
            var chunk = Array(webp[offset..<min(end, webp.count)])
            if fourCC == "VP8X", chunk.count > 8 {
                chunk[8] &= ~(0x20 | 0x08 | 0x04)
            }
            if !metadata.contains(fourCC) { chunks += chunk }
            offset = end
        }
        let riffSize = 4 + chunks.count
        return Array("RIFF".utf8) + (0..<4).map { UInt8((riffSize >> (8 * $0)) & 0xFF) } + Array("WEBP".utf8) + chunks
    }
}
