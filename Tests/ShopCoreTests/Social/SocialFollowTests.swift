import Foundation
import ShopTestSupport
import Testing
@testable import ShopCore

@Suite("Social follows: idempotent, counted, only authors, never yourself")
struct SocialFollowTests {
    @Test func followingTwiceCountsOnceAndUnfollowingTwiceBringsTheCountsBackToZero() throws {
        let fixture = try TestShop()
        let author = try fixture.socialAuthor("13800000001")
        let reader = try fixture.socialMember("13800000002")
        let social = fixture.shop.social

        try social.follow(author.id, by: reader.id)
        try social.follow(author.id, by: reader.id)
        #expect(try fixture.socialProfile(author.id).followersCount == 1)
        #expect(try fixture.socialProfile(reader.id).followingCount == 1)
        #expect(try fixture.socialProfile(author.id).followingCount == 0)
        #expect(try fixture.socialCount("follows") == 1)
        #expect(try social.following(reader.id, page: PageRequest()).items.map(\.id) == [author.id])
        #expect(try social.followers(of: author.id, page: PageRequest(), viewer: nil).items.map(\.id) == [reader.id])

        try social.unfollow(author.id, by: reader.id)
        try social.unfollow(author.id, by: reader.id)
        #expect(try fixture.socialProfile(author.id).followersCount == 0)
        #expect(try fixture.socialProfile(reader.id).followingCount == 0)
        #expect(try social.following(reader.id, page: PageRequest()).total == 0)
    }

    @Test func followingYourselfIsRefusedAndStoresNothing() throws {
        let fixture = try TestShop()
        let author = try fixture.socialAuthor("13800000001")
        #expect(throws: SocialError.cannotFollowSelf) { try fixture.shop.social.follow(author.id, by: author.id) }
        #expect(try fixture.socialProfile(author.id).followersCount == 0)
        #expect(try fixture.socialCount("follows") == 0)
    }

    @Test func followingANonAuthorOrAnUnknownIdIsAuthorNotFound() throws {
        let fixture = try TestShop()
        let plain = try fixture.socialMember("13800000001")
        let reader = try fixture.socialMember("13800000002")
        #expect(throws: SocialError.authorNotFound) { try fixture.shop.social.follow(plain.id, by: reader.id) }
        #expect(throws: SocialError.authorNotFound) { try fixture.shop.social.follow(UserID(999_999), by: reader.id) }
        #expect(try fixture.socialCount("follows") == 0)
    }

    @Test func isFollowingIsNilWithoutAViewerAndTellsEachViewerTheTruth() throws {
        let fixture = try TestShop()
        let author = try fixture.socialAuthor("13800000001")
        let fan = try fixture.socialMember("13800000002")
        let stranger = try fixture.socialMember("13800000003")
        try fixture.shop.social.follow(author.id, by: fan.id)

        #expect(try fixture.socialProfile(author.id).isFollowing == nil)
        #expect(try fixture.socialProfile(author.id, viewer: fan.id).isFollowing == true)
        #expect(try fixture.socialProfile(author.id, viewer: stranger.id).isFollowing == false)
        #expect(try fixture.socialProfile(fan.id, viewer: author.id).isFollowing == false)
    }

    @Test func revokingTheRoleTakesTheAuthorOffTheListAndOutOfReachOfNewFollows() throws {
        let fixture = try TestShop()
        let author = try fixture.socialAuthor("13800000001")
        let reader = try fixture.socialMember("13800000002")
        #expect(try fixture.shop.social.authors(sort: .newest, page: PageRequest(), viewer: nil).items.map(\.id) == [author.id])
        try fixture.shop.moderation.setAuthor(false, phone: author.phone, by: .commandLine(user: "test"))
        #expect(try fixture.shop.social.authors(sort: .newest, page: PageRequest(), viewer: nil).total == 0)
        #expect(throws: SocialError.authorNotFound) { try fixture.shop.social.follow(author.id, by: reader.id) }
        #expect(throws: SocialError.userNotFound) { try fixture.shop.moderation.setAuthor(true, phone: "13900000000", by: .commandLine(user: "test")) }
    }
}
