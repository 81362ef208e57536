import HTTP
import ShopCore

/// `/cart`: the signed-in user's cart.
struct CartController {
    let carts: CartService

    struct AddItemRequest: Decodable {
        let skuID: SKUID
        let quantity: Int
    }

    /// Only these fields can change on a line.
    struct UpdateItemRequest: Decodable {
        let quantity: Int?
        let selected: Bool?
    }

    /// Every route on the request threads: a cart change commits without waiting for the disk
    /// (`CartService.durability`) and holds the writer for well under a millisecond; moved to the
    /// `writes` bulkhead like a checkout, the cart row lost 30-40% of its throughput to the hop.
    func register(_ signedIn: RouteGroup) {
        signedIn.get("/cart", use: show)
            .delete("/cart", use: clear)
            .post("/cart/items", use: addItem)
            .patch("/cart/items/:id", use: updateItem)
            .delete("/cart/items/:id", use: removeItem)
    }

    /// The cart with current prices, stock and availability; `?coupon_code=` applies a coupon to
    /// the selected lines (422 `coupon_invalid` saying why it does not apply; 429 `too_many_attempts`
    /// after too many refused codes); `?address_id=` (one's own, else 404) adds the delivery fee to
    /// it (422 `delivery_unavailable` outside every zone).
    func show(_ request: Request, _ context: Context) throws -> Response {
        let address = try request.queryInt("address_id").map { id -> AddressID in
            guard id > 0 else { throw AddressError.notFound }
            return AddressID(id)
        }
        return try .json(CartResponse(carts.cart(of: try context.user(), couponCode: request.query["coupon_code"],
                                                 addressID: address, clientIP: request.clientAddress)))
    }

    /// Adds a SKU (merging with its line); the cap is `cart.max_items` items in all.
    func addItem(_ request: Request, _ context: Context) throws -> Response {
        let body = try request.decode(AddItemRequest.self)
        return try .json(CartResponse(carts.add(body.skuID, quantity: body.quantity, for: try context.user())), status: .created)
    }

    /// Changes a line's quantity or selection.
    func updateItem(_ request: Request, _ context: Context) throws -> Response {
        let line = CartItemID(try request.idParameter())
        let body = try request.decode(UpdateItemRequest.self)
        return try .json(CartResponse(carts.update(line, quantity: body.quantity, selected: body.selected, for: try context.user())))
    }

    /// Removes a line.
    func removeItem(_ request: Request, _ context: Context) throws -> Response {
        try .json(CartResponse(carts.remove(CartItemID(try request.idParameter()), for: try context.user())))
    }

    /// Empties the cart.
    func clear(_ request: Request, _ context: Context) throws -> Response {
        try .json(CartResponse(carts.clear(for: try context.user())))
    }
}
