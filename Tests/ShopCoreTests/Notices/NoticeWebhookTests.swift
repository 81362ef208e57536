import Foundation
#if canImport(Glibc)
import Glibc
#endif
import ShopTestSupport
import Testing
@testable import ShopCore

/// A loopback port whose connections the kernel completes but nobody ever reads or answers.
final class SilentListener {
    let fd: Int32
    let port: UInt16

    init() throws {
        let socketFD = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socketFD, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(socketFD, 16) == 0 else {
            close(socketFD)
            throw FixtureError("cannot listen")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socketFD, $0, &length) }
        }
        fd = socketFD
        port = UInt16(bigEndian: address.sin_port)
    }

    deinit { close(fd) }
}

@Suite("Notices: a webhook gateway that never answers")
struct NoticeWebhookTests {
    @Test func aSilentGatewayIsAFailedTryWithinItsTimeoutAndRequestsGoOnMeanwhile() throws {
        let s = try PaymentScenario()
        let order = try NoticeDispatchTests.threeDue(s)
        let silent = try SilentListener()
        let sender = WebhookNoticeSender(url: try #require(URL(string: "http://127.0.0.1:\(silent.port)/notices")), timeout: 1)
        let outbox = s.test.outbox(sender)

        let started = Date()
        let done = DispatchSemaphore(value: 0)
        let result = Outcomes<NoticeOutbox.Run>()
        Thread {
            if let run = try? outbox.dispatchDue(batch: 1) { result.record(run) }
            done.signal()
        }.start()
        // while the dispatcher waits on the gateway, the shop's own work is not held up
        Thread.sleep(forTimeInterval: 0.2)
        let readStarted = Date()
        let tracked = try s.shop.orders.tracked(token: try #require(order.trackingToken))
        _ = try s.placeOrder(quantity: 1)
        #expect(tracked.order.id == order.id)
        #expect(Date().timeIntervalSince(readStarted) < 0.9)

        done.wait()
        let elapsed = Date().timeIntervalSince(started)
        #expect(elapsed >= 0.9 && elapsed < 4, "\(elapsed)")
        #expect(result.all == [NoticeOutbox.Run(sent: 0, failed: 1)])
        let notices = try outbox.list(order: order.id)
        let tried = try #require(notices.first { $0.attempts == 1 })
        #expect(tried.status == .pending && tried.lastError?.contains("timed out") == true)
        #expect(tried.nextAttemptAt == s.test.clock.now.addingTimeInterval(30))
        // the other two were never claimed: due now, for this node or another
        #expect(notices.filter { $0.attempts == 0 }.allSatisfy { $0.status == .pending })
    }
}
