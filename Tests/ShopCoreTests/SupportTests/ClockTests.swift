import Foundation
import ShopCore
import Testing

@Suite("Clock")
struct ClockTests {
    @Test func aFixedClockAlwaysAnswersTheSameInstant() {
        let instant = Date(timeIntervalSince1970: 1_796_025_600.9)
        let clock = Clock.fixed(instant)
        #expect(clock.now == instant)
        #expect(clock.now == instant)
        #expect(clock.unixNow == 1_796_025_600)
    }

    @Test func unixNowRoundsDownEvenBefore1970() {
        #expect(Clock.fixed(Date(timeIntervalSince1970: -0.5)).unixNow == -1)
    }

    @Test func aManualClockMovesOnlyWhenAdvanced() {
        let manual = ManualClock(Date(timeIntervalSince1970: 1_000))
        let clock = manual.clock
        #expect(clock.unixNow == 1_000)
        manual.advance(by: 59)
        #expect(clock.unixNow == 1_059)
        #expect(manual.now == Date(timeIntervalSince1970: 1_059))
    }

    @Test func theSystemClockIsNow() {
        #expect(abs(Clock.system.now.timeIntervalSinceNow) < 5)
    }
}
