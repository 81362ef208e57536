import HTTP
import Localization
import ShopCore

extension ErrorMapping {
    /// Regions: a well-formed code that no division has is 404.
    @Sendable static func region(_ error: any Error) -> HTTPError? {
        guard let error = error as? RegionError else { return nil }
        switch error {
        case .notFound(let code):
            return HTTPError(APIMessage.regionNotFound, ["code": .verbatim(code.rawValue)], field: "parent")
        }
    }
}
