/// Why an address request was refused.
public enum AddressError: Error, Equatable, Sendable {
    /// No such address in this user's book.
    case notFound
    case limitExceeded(max: Int)
    /// `region_code` is well formed but no division has it.
    case unknownRegion(RegionCode)
    /// `region_code` names a province or a city that has districts: an address names a leaf.
    case regionNotALeaf(RegionCode, name: String)
}
