import Foundation
import ShopTestSupport
import Testing
@testable import ShopCore

/// With `auth.session_cache_ms` set (it is 0 by default), a node answers a token it read within
/// that time from memory; a revocation made through it is refused at once, one made through
/// another node within that time.
@Suite("Accounts: tokens kept per node for at most a second")
struct SessionCacheTests {
    let phone = "13800138000"

    @Test func aTokenReadOnceIsAnsweredWithoutAStatementUntilItsLifetimeEnds() throws {
        let fixture = try TestShop { $0.auth.sessionCacheMilliseconds = 1_000 }
        let session = try fixture.register(phone)
        let (node, database) = try fixture.counted()
        #expect(try node.accounts.authenticate(token: session.token) == session.user.id)
        #expect(database.statements == 1)
        database.reset()
        #expect(try node.accounts.authenticate(token: session.token) == session.user.id)
        #expect(database.statements == 0)
        Thread.sleep(forTimeInterval: Double(node.accounts.sessions.lifetimeMilliseconds) / 1_000 + 0.1)
        #expect(try node.accounts.authenticate(token: session.token) == session.user.id)
        #expect(database.statements == 1, "read again once its lifetime passed")
    }

    @Test func aKeptTokenStillExpiresOnTheSecond() throws {
        let fixture = try TestShop { $0.auth.sessionCacheMilliseconds = 1_000 }
        let session = try fixture.register(phone)
        fixture.clock.advance(by: 30 * 86_400 - 1)
        #expect(try fixture.accounts.authenticate(token: session.token) == session.user.id)
        fixture.clock.advance(by: 1)
        #expect(throws: AccountError.unauthorized) { try fixture.accounts.authenticate(token: session.token) }
    }

    @Test func anUnknownTokenIsReadEveryTimeSoATokenIssuedOnAnotherNodeWorksAtOnce() throws {
        let fixture = try TestShop { $0.auth.sessionCacheMilliseconds = 1_000 }
        let (node, database) = try fixture.counted()
        for _ in 0..<2 {
            #expect(throws: AccountError.unauthorized) { try node.accounts.authenticate(token: "not-a-token") }
        }
        #expect(database.statements == 2)
        #expect(node.accounts.sessions.count == 0)
        let session = try fixture.register(phone)
        #expect(try node.accounts.authenticate(token: session.token) == session.user.id)
    }

    @Test func aLogoutThroughThisNodeIsRefusedAtOnceAndThroughAnotherWithinTheLifetime() throws {
        let fixture = try TestShop { $0.auth.sessionCacheMilliseconds = 1_000 }
        let first = try fixture.register(phone)
        let second = try fixture.login(phone)
        let other = try fixture.reopened { _ in }
        for token in [first.token, second.token] {
            #expect(try fixture.accounts.authenticate(token: token) == first.user.id)
            #expect(try other.accounts.authenticate(token: token) == first.user.id)
        }
        let lifetime = Double(other.accounts.sessions.lifetimeMilliseconds) / 1_000
        #expect(lifetime > 0 && lifetime <= 1)
        try fixture.accounts.logout(token: first.token)
        #expect(throws: AccountError.unauthorized) { try fixture.accounts.authenticate(token: first.token) }
        try other.accounts.logout(token: second.token)
        #expect(throws: AccountError.unauthorized) { try other.accounts.authenticate(token: second.token) }
        Thread.sleep(forTimeInterval: lifetime + 0.1)
        for node in [fixture.shop, other] {
            for token in [first.token, second.token] {
                #expect(throws: AccountError.unauthorized) { try node.accounts.authenticate(token: token) }
            }
        }
    }

    @Test func aBanOrAResetThroughOneNodeReachesAnotherWithinTheLifetime() throws {
        let fixture = try TestShop { $0.auth.sessionCacheMilliseconds = 1_000 }
        let banned = try fixture.register(phone)
        let reset = try fixture.register("13900139000")
        let other = try fixture.reopened { _ in }
        for session in [banned, reset] {
            #expect(try other.accounts.authenticate(token: session.token) == session.user.id)
        }
        _ = try fixture.shop.buyers.ban(banned.user.id, reason: "spam", by: .commandLine(user: "ops"))
        let code = try fixture.sendCode(to: "13900139000", for: .resetPassword)
        try fixture.accounts.resetPassword(phone: "13900139000", code: code,
                                           credential: Credential(passwordMD5: nil, password: "rose-garden-9"), clientIP: "10.0.0.1")
        for session in [banned, reset] {
            #expect(throws: AccountError.unauthorized) { try fixture.accounts.authenticate(token: session.token) }
        }
        Thread.sleep(forTimeInterval: Double(other.accounts.sessions.lifetimeMilliseconds) / 1_000 + 0.1)
        for session in [banned, reset] {
            #expect(throws: AccountError.unauthorized) { try other.accounts.authenticate(token: session.token) }
        }
    }

    @Test func anAnswerReadBeforeARevocationThroughThisNodeIsNotKeptAfterIt() {
        let sessions = SessionCache(lifetimeMilliseconds: 1_000)
        let before = sessions.generation
        sessions.forgetAll()
        sessions.keep(tokenHash: "h", user: UserID(7), expiresAt: .max, readAfter: before)
        #expect(sessions.user(tokenHash: "h", at: 0) == nil)
        sessions.keep(tokenHash: "h", user: UserID(7), expiresAt: .max, readAfter: sessions.generation)
        #expect(sessions.user(tokenHash: "h", at: 0) == UserID(7))
    }

    @Test func byDefaultEveryRequestReadsItsTokenSoALogoutAnywhereIsRefusedEverywhereAtOnce() throws {
        let fixture = try TestShop()
        let session = try fixture.register(phone)
        let other = try fixture.reopened { _ in }
        #expect(other.accounts.sessions.lifetimeMilliseconds == 0)
        #expect(try other.accounts.authenticate(token: session.token) == session.user.id)
        try fixture.accounts.logout(token: session.token)
        #expect(throws: AccountError.unauthorized) { try other.accounts.authenticate(token: session.token) }
    }

    @Test func noLifetimeKeepsNothingAndAFullCacheKeepsNoMore() throws {
        let off = SessionCache(lifetimeMilliseconds: 0)
        off.keep(tokenHash: "h", user: UserID(7), expiresAt: .max, readAfter: off.generation)
        #expect(off.user(tokenHash: "h", at: 0) == nil)
        let small = SessionCache(lifetimeMilliseconds: 1_000, maxEntries: 2)
        for hash in ["a", "b", "c"] { small.keep(tokenHash: hash, user: UserID(1), expiresAt: .max, readAfter: small.generation) }
        #expect(small.count == 2)
        #expect(small.user(tokenHash: "c", at: 0) == nil)

        let fixture = try TestShop { $0.auth.sessionCacheMilliseconds = 0 }
        let session = try fixture.register(phone)
        let (node, database) = try fixture.counted()
        for _ in 0..<2 { #expect(try node.accounts.authenticate(token: session.token) == session.user.id) }
        #expect(database.statements == 2)
    }
}
