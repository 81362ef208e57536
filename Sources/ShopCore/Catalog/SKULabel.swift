/// A SKU as a shopper sees it: its product's title and its own name (`红玫瑰花束·热恋`, `19枝`),
/// so messages name what is on the page rather than an internal id.
public struct SKULabel: Sendable, Equatable {
    public let title: String
    public let name: String

    public init(title: String, name: String) {
        self.title = title
        self.name = name
    }

    /// `红玫瑰花束·热恋 19枝`; the title alone for a product's only, unnamed SKU (`默认`).
    public var text: String {
        let name = name.trimmedInput
        return name.isEmpty || name == CatalogRowValidator.defaultSKUName ? title : "\(title) \(name)"
    }
}
