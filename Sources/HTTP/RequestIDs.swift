import Synchronization

/// Makes request ids: 16 lowercase hex digits, never the same twice in one process.
///
/// A request id correlates log lines; it is no secret (a client may send its own). So instead of
/// drawing 8 bytes from a CSPRNG per request, each id is a counter passed through a fixed
/// permutation of 64-bit values (SplitMix64's finaliser, started at a random seed): distinct
/// counters give distinct ids, and two processes repeat each other's ids only if their seeds lie
/// fewer requests apart than they serve (for n requests, odds of about n / 2^63).
public final class RequestIDGenerator: Sendable {
    private let seed: UInt64
    private let counter = Atomic<UInt64>(0)

    /// `seed`: random bytes, of which the first 8 key the permutation, e.g. `SecureRandom().bytes(8)`.
    public init(seed: some Sequence<UInt8>) {
        self.seed = seed.prefix(8).reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// The next id.
    public func next() -> String {
        let n = counter.add(1, ordering: .relaxed).newValue
        return Self.hex(Self.permute(n &+ seed))
    }

    /// A bijection on 64-bit values that scatters neighbours (SplitMix64's output function).
    static func permute(_ value: UInt64) -> UInt64 {
        var z = value &* 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// The 16 hex digits of `value`, most significant first.
    static func hex(_ value: UInt64) -> String {
        String(unsafeUninitializedCapacity: 16) { buffer in
            for index in 0..<16 {
                let nibble = UInt8(truncatingIfNeeded: value >> (60 - 4 * index)) & 0x0F
                buffer[index] = nibble < 10 ? 0x30 + nibble : 0x57 + nibble
            }
            return 16
        }
    }
}
