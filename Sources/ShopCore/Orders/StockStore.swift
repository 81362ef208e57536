import Foundation
import SQL

/// SQL on SKU stock and product sales for orders: the guard that never oversells.
struct StockStore {
    struct Priced {
        let productID: ProductID
        let title: String
        let skuName: String
        let priceCents: Int64
        let onSale: Bool
        let delivery: DeliveryKind
    }

    func priced(_ sku: SKUID, _ db: any SQLConnection) throws -> Priced? {
        try db.queryOne("""
            SELECT s.product_id, p.title, s.name, s.price_cents, \(CartStore.onSale) AS status, p.delivery FROM skus s JOIN products p ON p.id = s.product_id
            WHERE s.id = \(sku)
            """).map { row in
            Priced(productID: try row.decode("product_id"), title: try row.decode("title"), skuName: try row.decode("name"),
                   priceCents: try row.decode("price_cents"), onSale: try row.decode("status", as: ProductStatus.self) == .onSale,
                   delivery: try row.decode("delivery"))
        }
    }

    /// The statement that takes `quantity` of an on-sale SKU of an on-sale product, only if that
    /// many are there, and answers what its order line needs (one statement where `priced` and
    /// `take` were two), to send with others (`SQLConnection.queries`): its one row read by
    /// `taken`; no row (nothing changed) when it could not, and `refusal` then says why.
    func takingForSale(_ quantity: Int, of sku: SKUID) -> SQL {
        """
        UPDATE skus SET stock = stock - \(quantity)
        WHERE id = \(sku) AND stock >= \(quantity) AND status = 'on_sale'
          AND product_id IN (SELECT id FROM products WHERE status = 'on_sale')
        RETURNING product_id, name, price_cents,
                  (SELECT p.title FROM products p WHERE p.id = skus.product_id) AS title,
                  (SELECT p.delivery FROM products p WHERE p.id = skus.product_id) AS delivery
        """
    }

    /// What the row of `takingForSale` says of the SKU taken.
    static func taken(_ row: Row) throws -> Priced {
        Priced(productID: try row.decode("product_id"), title: try row.decode("title"), skuName: try row.decode("name"),
               priceCents: try row.decode("price_cents"), onSale: true, delivery: try row.decode("delivery"))
    }

    /// Why `takingForSale` refused `sku`: gone or off sale (`skuNotFound`), else short of stock
    /// (`outOfStock`, with what is left now). Read only on that rare path.
    func refusal(of sku: SKUID, _ db: any SQLConnection) throws -> OrderError {
        guard let priced = try priced(sku, db), priced.onSale else { return .skuNotFound(sku) }
        return .outOfStock(sku, sku: SKULabel(title: priced.title, name: priced.skuName), available: try available(sku, db))
    }

    /// Takes `quantity` from stock only if that many are there; false (nothing changed) otherwise.
    func take(_ quantity: Int, of sku: SKUID, _ db: any SQLConnection) throws -> Bool {
        try db.run("UPDATE skus SET stock = stock - \(quantity) WHERE id = \(sku) AND stock >= \(quantity)") == 1
    }

    /// The stock left now (0 for a SKU that is gone), read after `take` refused, to tell the buyer.
    func available(_ sku: SKUID, _ db: any SQLConnection) throws -> Int64 {
        try db.queryOne("SELECT stock FROM skus WHERE id = \(sku)").map { try $0.decode("stock") } ?? 0
    }

    /// Held to go with the next statement or the commit (`runLater`): only its failure matters.
    func giveBack(_ quantity: Int, of sku: SKUID, _ db: any SQLConnection) throws {
        try db.runLater("UPDATE skus SET stock = stock + \(quantity) WHERE id = \(sku)")
    }

    func addSales(_ quantity: Int, to product: ProductID, _ db: any SQLConnection) throws {
        try db.run("UPDATE products SET sales = sales + \(quantity) WHERE id = \(product)")
    }
}
