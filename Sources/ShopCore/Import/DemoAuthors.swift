import Foundation
import SQL

/// Creates the demo column authors of `Examples/authors.jsonl` when missing; one that exists is
/// left as it is (an operator may have revoked its role or its owner edited the profile). Their password is
/// locked (no hash verifies against it): a person taking one over resets it by SMS code.
public struct DemoAuthorSeeder: Sendable {
    let pool: any Database
    let clock: Clock

    public init(pool: any Database, clock: Clock) {
        self.pool = pool
        self.clock = clock
    }

    struct Entry: Decodable {
        let phone: String
        let nickname: String
        let signature: String?
        let avatarURL: String?
        let gender: User.Gender?

        enum CodingKeys: String, CodingKey {
            case phone, nickname, signature, avatarURL = "avatar_url", gender
        }
    }

    /// Answers how many authors were created.
    public func seed(fileAt path: String) throws -> Int {
        guard let data = FileManager.default.contents(atPath: path) else { throw ImportError.unreadable("\(path) cannot be read") }
        var entries: [Entry] = []
        for (index, line) in data.split(separator: 0x0A, omittingEmptySubsequences: false).enumerated()
        where !line.allSatisfy({ $0 == 0x20 || $0 == 0x0D }) {
            guard let entry = try? JSONDecoder().decode(Entry.self, from: Data(line)) else {
                throw ImportError.invalidRows([ImportIssue(line: index + 1, column: "line", reason: "is not an author object")])
            }
            entries.append(entry)
        }
        let now = clock.unixNow
        let users = UserStore()
        return try pool.write { db in
            var created = 0
            for entry in entries {
                let phone = try PhoneNumber.normalize(entry.phone)
                if try users.find(phone: phone, db) == nil {
                    let id = try users.insert(phone: phone, nickname: entry.nickname, passwordHash: "!locked", at: now, db)
                    guard var user = try users.find(id, db) else { throw ImportError.unreadable("author \(phone) vanished") }
                    user.signature = entry.signature ?? ""
                    user.avatarURL = entry.avatarURL ?? ""
                    user.gender = entry.gender ?? .unknown
                    try users.update(user, at: now, db)
                    _ = try ProfileStore().setAuthor(true, phone: phone, at: now, db)
                    created += 1
                }
            }
            return created
        }
    }
}
