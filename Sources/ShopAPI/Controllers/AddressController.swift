import Foundation
import HTTP
import ShopCore

/// `/addresses`: the signed-in user's address book.
struct AddressController {
    let addresses: AddressService

    /// The writable fields; `id` and `user_id` in a body are ignored. With `region_code` (a leaf
    /// division's GB/T 2260 code) the province, city and district come from the region directory.
    struct AddressRequest: Decodable {
        let recipient: String?
        let phone: String?
        let province: String?
        let city: String?
        let district: String?
        let detail: String?
        let postalCode: String?
        let isDefault: Bool?
        let regionCode: String?

        var fields: AddressFields {
            AddressFields(recipient: recipient, phone: phone, province: province, city: city, district: district,
                          detail: detail, postalCode: postalCode, isDefault: isDefault, regionCode: regionCode)
        }
    }

    func register(_ signedIn: RouteGroup) {
        signedIn.get("/addresses", use: list)
            .post("/addresses", use: create)
            .get("/addresses/:id", use: show)
            .patch("/addresses/:id", use: update)
            .delete("/addresses/:id", use: delete)
            .post("/addresses/:id/default", use: makeDefault)
    }

    /// Every address, the default first.
    func list(_ request: Request, _ context: Context) throws -> Response {
        try .json(ItemsResponse(items: try addresses.list(for: try context.user()).map(AddressResponse.init)))
    }

    /// A new address's text fields are strings when sent (an update's may be `null`: unchanged).
    static let createTextFields = ["recipient", "phone", "province", "city", "district", "detail"]

    func create(_ request: Request, _ context: Context) throws -> Response {
        let body = try request.decode(AddressRequest.self)
        if let object = try? JSONSerialization.jsonObject(with: Data(request.body)) as? [String: Any],
           let field = Self.createTextFields.first(where: { object[$0] is NSNull }) {
            throw HTTPError(HTTPMessage.fieldWrongType, ["field": .verbatim(field)], field: field)
        }
        return try .json(AddressResponse(addresses.create(body.fields, for: try context.user())), status: .created)
    }

    func show(_ request: Request, _ context: Context) throws -> Response {
        try .json(AddressResponse(addresses.address(AddressID(try request.idParameter()), for: try context.user())))
    }

    func update(_ request: Request, _ context: Context) throws -> Response {
        let id = AddressID(try request.idParameter())
        let body = try request.decode(AddressRequest.self)
        return try .json(AddressResponse(addresses.update(id, body.fields, for: try context.user())))
    }

    /// Deletes an address; the default moves to the most recently updated one left.
    func delete(_ request: Request, _ context: Context) throws -> Response {
        try addresses.delete(AddressID(try request.idParameter()), for: try context.user())
        return .empty()
    }

    func makeDefault(_ request: Request, _ context: Context) throws -> Response {
        try .json(AddressResponse(addresses.makeDefault(AddressID(try request.idParameter()), for: try context.user())))
    }
}
