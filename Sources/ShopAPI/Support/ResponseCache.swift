import Crypto
import Dispatch
import HTTP
import Synchronization

/// An encoded response body and its strong entity tag (a digest of the bytes, so equal bodies
/// get equal tags on every node and a changed body always gets a new one).
struct Representation: Sendable {
    let body: [UInt8]
    let etag: EntityTag

    init(body: [UInt8]) {
        self.body = body
        etag = EntityTag(Self.hex(Digest.sha256(body).prefix(16)))
    }

    private static let digits = Array("0123456789abcdef".utf8)

    /// Lowercase hex, written here: the generic `Hex.encode`, unspecialised across the module
    /// boundary, took 17k instructions for these 16 bytes (callgrind), a quarter of a cache fill.
    private static func hex(_ bytes: ArraySlice<UInt8>) -> String {
        var text: [UInt8] = []
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}

/// Encoded responses remembered per key with the database version they were read at; a caller
/// reuses one only after reading the same version again, so nothing it serves is older than the
/// database (see `CatalogService.product(_:unlessAt:)`). Bounded in entries and in body bytes;
/// when full, the clock (second-chance) policy evicts: an entry used since the hand last passed
/// it gets another round, so often-read pages stay while one-off reads make room.
final class ResponseCache<Key: Hashable & Sendable>: Sendable {
    struct Entry: Sendable {
        let version: Int64
        let representation: Representation
        /// When it was stored (monotonic nanoseconds): its counters' age.
        let storedAt: UInt64
    }

    struct Limits: Sendable {
        var entries: Int
        var bytes: Int
        /// A body larger than this is never kept (one huge page must not flush the rest).
        var entryBytes: Int { bytes / 16 }

        /// About 32 MiB of bodies: every product page of a large shop, or the first pages of many lists.
        static var standard: Limits { Limits(entries: 16_384, bytes: 32 << 20) }
    }

    private struct Slot {
        var entry: Entry
        var used: Bool
    }

    private struct State {
        var slots: [Key: Slot] = [:]
        /// Every key in `slots` once, oldest at `hand`; the clock turns by moving the hand.
        var ring: [Key] = []
        var hand = 0
        var bytes = 0
    }

    let limits: Limits
    private let state = Mutex(State())
    private let now: @Sendable () -> UInt64

    init(limits: Limits = .standard, now: @escaping @Sendable () -> UInt64 = { DispatchTime.now().uptimeNanoseconds }) {
        self.limits = limits
        self.now = now
    }

    /// The entry held for `key`, whatever its version, unless it was stored more than `maxAge`
    /// ago (what it shows besides its version, such as sales counts, may have moved since).
    func entry(for key: Key, maxAge: Duration? = nil) -> Entry? {
        let limit = maxAge.map { (now: now(), nanoseconds: Self.nanoseconds($0)) }
        return state.withLock { state in
            guard let slot = state.slots[key] else { return nil }
            if let limit, limit.now > slot.entry.storedAt, limit.now - slot.entry.storedAt > limit.nanoseconds { return nil }
            if !slot.used { state.slots[key]?.used = true }
            return slot.entry
        }
    }

    /// Whether `entry` was stored more than `age` ago.
    func isOlder(_ entry: Entry, than age: Duration) -> Bool {
        let now = now()
        return now > entry.storedAt && now - entry.storedAt > Self.nanoseconds(age)
    }

    private static func nanoseconds(_ duration: Duration) -> UInt64 {
        let (seconds, attoseconds) = duration.components
        return UInt64(max(0, seconds)) * 1_000_000_000 + UInt64(max(0, attoseconds) / 1_000_000_000)
    }

    /// Keeps `representation` as what `key` answered at `version`, evicting as needed.
    func store(_ representation: Representation, for key: Key, at version: Int64) {
        let size = representation.body.count
        guard size <= limits.entryBytes, limits.entries > 0 else { return }
        state.withLock { state in
            let entry = Entry(version: version, representation: representation, storedAt: now())
            if let old = state.slots[key] {
                // A reader that began before a newer one may finish after it: keep the newer.
                guard old.entry.version <= version else { return }
                state.bytes += size - old.entry.representation.body.count
                state.slots[key] = Slot(entry: entry, used: true)
            } else {
                state.slots[key] = Slot(entry: entry, used: false)
                state.ring.append(key)
                state.bytes += size
            }
            Self.evict(&state, limits: limits)
        }
    }

    /// How many entries and body bytes are held.
    var size: (entries: Int, bytes: Int) {
        state.withLock { ($0.slots.count, $0.bytes) }
    }

    private static func evict(_ state: inout State, limits: Limits) {
        while state.slots.count > limits.entries || state.bytes > limits.bytes, state.hand < state.ring.count {
            let key = state.ring[state.hand]
            state.hand += 1
            guard let slot = state.slots[key] else { continue }
            if slot.used {
                state.slots[key]?.used = false
                state.ring.append(key)
            } else {
                state.slots[key] = nil
                state.bytes -= slot.entry.representation.body.count
            }
        }
        // Drop the keys behind the hand once they are half the ring, so the ring stays O(entries).
        if state.hand > 64 && state.hand * 2 > state.ring.count {
            state.ring.removeFirst(state.hand)
            state.hand = 0
        }
    }
}
