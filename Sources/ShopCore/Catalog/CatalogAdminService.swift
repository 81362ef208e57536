import SQL

/// The staff's catalogue (`/admin/products`, `/admin/skus`, `shop products …`): every product
/// whatever its status, and audited edits of products and SKUs. Writes go through the stores the
/// import uses, one transaction each with its audit row; the catalogue's change counters move by
/// trigger and the search index is rewritten in the same transaction, so buyers' lists, pages,
/// searches and every cache of them show an edit on the next request.
public struct CatalogAdminService: Sendable {
    let pool: any Database
    let search: any SearchEngine
    let clock: Clock
    let store = CatalogAdminStore()
    let writes = CatalogWriteStore()
    let categoryStore = CategoryAdminStore()
    let audit = AuditTrail()

    public init(pool: any Database, search: any SearchEngine, clock: Clock) {
        self.pool = pool
        self.search = search
        self.clock = clock
    }

    /// A page of products, on sale or not, newest first.
    public func products(_ query: AdminProductQuery) throws -> Page<AdminProduct> {
        var query = query
        query.text = query.text.map(ImportText.trimmed).flatMap { $0.isEmpty ? nil : $0 }
        if let text = query.text, text.unicodeScalars.count > 100 { throw ValidationError.tooLong("q", max: 100) }
        if let low = query.lowStock, !(0...CatalogAdminRules.maxStock).contains(low) {
            throw ValidationError("low_stock", .wholeNumberInRange, .range(0...CatalogAdminRules.maxStock))
        }
        return try pool.read { db in
            if let category = query.categoryID, try categoryStore.find(category, db) == nil { throw CatalogError.categoryNotFound }
            return try store.products(query, db)
        }
    }

    /// One product, on sale or not; unknown: `productNotFound`.
    public func product(_ id: ProductID) throws -> AdminProduct {
        guard let product = try pool.read({ db in try store.product(id, db) }) else { throw CatalogError.productNotFound }
        return product
    }

    /// Creates a product with its SKUs (`product.create`).
    public func create(_ new: NewProduct, by actor: StaffActor) throws -> AdminProduct {
        let new = try CatalogAdminRules.validated(new)
        let attributes = try CatalogAdminRules.attributes(new.attributes)
        let now = clock.unixNow
        return try pool.write { db in
            guard try categoryStore.find(new.categoryID, db) != nil else { throw CatalogAdminError.unknownCategory(field: "category_id") }
            if try store.productCodeTaken(new.code, except: nil, db) { throw CatalogAdminError.productCodeTaken(new.code) }
            let taken = try store.takenSKUCodes(new.skus.map(\.code), db)
            if let index = new.skus.firstIndex(where: { taken.contains($0.code) }) {
                throw CatalogAdminError.skuCodeTaken(new.skus[index].code, field: "skus.\(index).code")
            }
            let fields = CatalogWriteStore.ProductFields(
                categoryID: new.categoryID, title: new.title, subtitle: new.subtitle, description: new.description,
                coverURL: new.coverURL, attributes: attributes, status: new.status, delivery: .sameDay, images: new.imageURLs)
            guard let id = try writes.insertProducts([(new.code, fields)], at: now, db)[new.code] else { throw CatalogError.productNotFound }
            try writes.insertSKUs(new.skus.map { sku in
                (sku.code, CatalogWriteStore.SKUFields(productID: id, name: sku.name, priceCents: sku.priceCents,
                                                       originalPriceCents: sku.originalPriceCents ?? sku.priceCents, stock: sku.stock,
                                                       status: .onSale))
            }, at: now, db)
            try search.reindex([id], db)
            guard let after = try store.product(id, db) else { throw CatalogError.productNotFound }
            try audit.record(actor, "product.create", target: "product:\(id)", after: after, at: now, db)
            return after
        }
    }

    /// Changes a product's own fields (`product.update`); its SKUs are changed one by one.
    public func update(_ id: ProductID, _ changes: ProductChanges, by actor: StaffActor) throws -> AdminProduct {
        let code = try changes.code.map { try CatalogAdminRules.code($0, field: "code") }
        let title = try changes.title.map(CatalogAdminRules.title)
        let subtitle = try changes.subtitle.map(CatalogAdminRules.subtitle)
        let description = try changes.description.map(CatalogAdminRules.description)
        let coverURL = try changes.coverURL.map { try CatalogAdminRules.url($0, field: "cover_url") }
        let images = try changes.imageURLs.map(CatalogAdminRules.images)
        let attributes = try changes.attributes.map(CatalogAdminRules.attributes)
        let now = clock.unixNow
        return try pool.write { db in
            guard try store.lockProduct(id, at: now, db), let before = try store.product(id, db) else { throw CatalogError.productNotFound }
            if let category = changes.categoryID, try categoryStore.find(category, db) == nil {
                throw CatalogAdminError.unknownCategory(field: "category_id")
            }
            if let code, code != before.code {
                if try store.productCodeTaken(code, except: id, db) { throw CatalogAdminError.productCodeTaken(code) }
                try store.setProductCode(code, of: id, db)
            }
            let fields = CatalogWriteStore.ProductFields(
                categoryID: changes.categoryID ?? before.categoryID, title: title ?? before.title, subtitle: subtitle ?? before.subtitle,
                description: description ?? before.description, coverURL: coverURL ?? before.coverURL,
                attributes: try attributes ?? CatalogAdminRules.attributes(before.attributes), status: changes.status ?? before.status,
                delivery: before.delivery, images: images ?? before.imageURLs)
            try writes.updateProduct(id, fields, at: now, db)
            if fields.status != before.status || !fields.title.utf8.elementsEqual(before.title.utf8)
                || !fields.subtitle.utf8.elementsEqual(before.subtitle.utf8) || !fields.description.utf8.elementsEqual(before.description.utf8) {
                try search.reindex([id], db)
            }
            guard let after = try store.product(id, db) else { throw CatalogError.productNotFound }
            try audit.record(actor, "product.update", target: "product:\(id)", before: before, after: after, at: now, db)
            return after
        }
    }

    /// Changes a SKU (`sku.update`): name, prices, stock (set, or moved by a delta that never takes
    /// it below 0, applied to the stock as it is at the commit, not as it was read), and its own sale status.
    public func updateSKU(_ id: SKUID, _ changes: SKUChanges, by actor: StaffActor) throws -> AdminSKUUpdate {
        try updateSKU(changes, by: actor) { db in id }
    }

    /// `updateSKU` by the SKU's code (`shop products set SKU_CODE`).
    public func updateSKU(code: String, _ changes: SKUChanges, by actor: StaffActor) throws -> AdminSKUUpdate {
        try updateSKU(changes, by: actor) { db in
            guard let id = try store.skuID(code: code, db) else { throw CatalogAdminError.skuNotFound }
            return id
        }
    }

    private func updateSKU(_ changes: SKUChanges, by actor: StaffActor, find: (any SQLConnection) throws -> SKUID) throws -> AdminSKUUpdate {
        let name = try changes.name.map { try CatalogAdminRules.skuName($0, field: "name") }
        let price = try changes.priceCents.map { try CatalogAdminRules.price($0, field: "price_cents") }
        let original = try changes.originalPriceCents.map { try CatalogAdminRules.price($0, field: "original_price_cents") }
        switch changes.stock {
        case .set(let stock)?: _ = try CatalogAdminRules.stock(stock, field: "stock")
        case .delta(let delta)?:
            let limit = CatalogAdminRules.maxStock
            guard (-limit...limit).contains(delta) else { throw ValidationError("stock_delta", .wholeNumberInRange, .range(-limit...limit)) }
        case nil: break
        }
        let now = clock.unixNow
        return try pool.write { db in
            let id = try find(db)
            guard let productID = try store.lockSKU(id, at: now, db), try store.lockProduct(productID, at: now, db),
                  let sku = try store.sku(id, db), let product = try store.product(productID, db) else { throw CatalogAdminError.skuNotFound }
            let before = AdminSKUUpdate(sku: sku, productID: productID, productStatus: product.status)
            if let name, name != sku.name, try store.skuNameTaken(name, product: productID, except: id, db) {
                throw ValidationError("name", .oneOf, ["choices": CatalogAdminRules.distinctNames])
            }
            if name != nil || price != nil || original != nil {
                try store.updateSKU(id, name: name ?? sku.name, priceCents: price ?? sku.priceCents,
                                    originalPriceCents: original ?? sku.originalPriceCents, at: now, db)
            }
            switch changes.stock {
            case .set(let stock)?: try store.setStock(stock, of: id, db)
            case .delta(let delta)?:
                guard try store.moveStock(of: id, by: delta, db) else { throw CatalogAdminError.stockBelowZero(stock: sku.stock, delta: delta) }
                if let moved = try store.sku(id, db), moved.stock > CatalogAdminRules.maxStock {
                    throw ValidationError("stock_delta", .wholeNumberInRange, .range(-sku.stock...(CatalogAdminRules.maxStock - sku.stock)))
                }
            case nil: break
            }
            if let status = changes.status, status != sku.status {
                try store.setSKUStatus(status, of: id, db)
            }
            guard let changed = try store.sku(id, db) else { throw CatalogAdminError.skuNotFound }
            let after = AdminSKUUpdate(sku: changed, productID: productID, productStatus: product.status)
            try audit.record(actor, "sku.update", target: "sku:\(id)", before: before, after: after, at: now, db)
            return after
        }
    }
}

extension Shop {
    /// The staff's catalogue over this shop's primary database and search.
    public var catalogAdmin: CatalogAdminService { CatalogAdminService(pool: pool, search: search, clock: clock) }
}
