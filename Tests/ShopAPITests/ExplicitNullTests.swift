import Foundation
import HTTP
@testable import ShopAPI
import Testing

@Suite struct ExplicitNullTests {
    struct Shipment: Encodable {
        let carrier: String
        @ExplicitNull var trackingNumber: String?
    }

    struct Body: Encodable {
        @ExplicitNull var paidAt: Date?
        @ExplicitNull var shipment: Shipment?
        let liked: Bool?
    }

    private func wire(_ value: some Encodable) throws -> String {
        String(decoding: try JSON.encode(value), as: UTF8.self)
    }

    @Test func aMissingValueIsWrittenAsNullWhileAPlainOptionalIsLeftOut() throws {
        #expect(try wire(Body(paidAt: nil, shipment: nil, liked: nil)) == #"{"paid_at":null,"shipment":null}"#)
    }

    @Test func aPresentValueIsWrittenAsTheValueWithTheEncodersConventions() throws {
        let body = Body(paidAt: Date(timeIntervalSince1970: 0), shipment: Shipment(carrier: "SF", trackingNumber: "SF1"),
                        liked: true)
        #expect(try wire(body)
            == #"{"liked":true,"paid_at":"1970-01-01T00:00:00Z","shipment":{"carrier":"SF","tracking_number":"SF1"}}"#)
    }

    @Test func aNestedMissingValueIsNullInsideItsObject() throws {
        let body = Body(paidAt: nil, shipment: Shipment(carrier: "SF", trackingNumber: nil), liked: nil)
        #expect(try wire(body) == #"{"paid_at":null,"shipment":{"carrier":"SF","tracking_number":null}}"#)
    }

    @Test func inAnArrayEachElementIsNullOrItsValue() throws {
        let list = [ExplicitNull<Int>(wrappedValue: 1), ExplicitNull(wrappedValue: nil)]
        #expect(try wire(list) == "[1,null]")
    }
}
