import CArgon2

/// Argon2id password hashing (RFC 9106) in the standard PHC encoded form, via libargon2.
public struct PasswordHasher: Sendable {
    /// Argon2 cost parameters.
    public struct Parameters: Sendable, Equatable {
        /// Memory cost in KiB (`m`).
        public var memoryKiB: UInt32
        /// Number of passes over memory (`t`).
        public var iterations: UInt32
        /// Number of lanes (`p`).
        public var parallelism: UInt32

        /// Creates parameters from explicit costs.
        public init(memoryKiB: UInt32, iterations: UInt32, parallelism: UInt32) {
            self.memoryKiB = memoryKiB
            self.iterations = iterations
            self.parallelism = parallelism
        }

        /// OWASP's minimum recommendation for Argon2id: 19 MiB, 2 passes, 1 lane.
        public static let `default` = Parameters(memoryKiB: 19_456, iterations: 2, parallelism: 1)
    }

    private static let saltLength = 16
    private static let hashLength = 32

    /// The parameters new hashes are made with.
    public let parameters: Parameters
    private let random: SecureRandom

    /// Creates a hasher that hashes with `parameters` and draws salts from `random`.
    public init(parameters: Parameters, random: SecureRandom = SecureRandom()) {
        self.parameters = parameters
        self.random = random
    }

    /// Hashes `secret` with a fresh 16-byte salt into "$argon2id$v=19$m=..,t=..,p=..$salt$hash".
    public func hash(_ secret: [UInt8]) throws -> String {
        let salt = random.bytes(Self.saltLength)
        let length = argon2_encodedlen(
            parameters.iterations, parameters.memoryKiB, parameters.parallelism,
            UInt32(Self.saltLength), UInt32(Self.hashLength), Argon2_id
        )
        var encoded = [CChar](repeating: 0, count: length)
        let status = secret.withUnsafeBytes { pwd in
            salt.withUnsafeBytes { saltBytes in
                argon2id_hash_encoded(
                    parameters.iterations, parameters.memoryKiB, parameters.parallelism,
                    pwd.baseAddress, pwd.count, saltBytes.baseAddress, saltBytes.count,
                    Self.hashLength, &encoded, encoded.count
                )
            }
        }
        guard status == ARGON2_OK.rawValue else {
            throw CryptoError.hashingFailed(String(cString: argon2_error_message(status)))
        }
        let text = encoded.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        return String(decoding: text, as: UTF8.self)
    }

    /// True when `secret` matches the Argon2id hash in `encoded`; false for any malformed input.
    public func verify(_ secret: [UInt8], encoded: String) -> Bool {
        // Parse first so only well-formed Argon2id strings reach the C decoder.
        guard Argon2Encoded(encoded) != nil else { return false }
        let status = secret.withUnsafeBytes { pwd in
            argon2id_verify(encoded, pwd.baseAddress, pwd.count)
        }
        return status == ARGON2_OK.rawValue
    }

    /// True when `encoded` is not Argon2id v19 or any of its costs is below the current parameters.
    public func needsRehash(_ encoded: String) -> Bool {
        guard let stored = Argon2Encoded(encoded) else { return true }
        return stored.version != UInt32(ARGON2_VERSION_NUMBER.rawValue)
            || stored.parameters.memoryKiB < parameters.memoryKiB
            || stored.parameters.iterations < parameters.iterations
            || stored.parameters.parallelism < parameters.parallelism
    }
}
