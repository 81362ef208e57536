/// One administrative division: its code, its name, and where it sits in the tree.
public struct Region: Hashable, Sendable {
    public let code: RegionCode
    public let name: String
    /// The division it belongs to; nil for a province.
    public let parent: RegionCode?
    public let level: RegionLevel
}

/// How deep a division sits, which is the field of an address it names. A county-level city
/// directly under its province (济源市, 仙桃市, Hainan's 4690xx) and Hong Kong's and Macau's
/// districts sit at the city level; a prefecture city without districts (东莞市) is a city too.
public enum RegionLevel: Int, Comparable, Sendable {
    case province = 1, city, district

    public static func < (lhs: RegionLevel, rhs: RegionLevel) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// The names an address shows for a division: its province's, its city's and its district's.
/// A division at the city level has no district (`""`); a province has neither city nor district.
public struct RegionNames: Equatable, Sendable {
    public let province: String
    public let city: String
    public let district: String

    public init(province: String, city: String, district: String) {
        self.province = province
        self.city = city
        self.district = district
    }
}

/// `GET /regions?parent=` named a well-formed code that no division has.
public enum RegionError: Error, Equatable, Sendable {
    case notFound(RegionCode)
}

/// The shipped region data does not read as the generator writes it (a programmer's error: the
/// file is checked in, written by `scripts/regions_from_cpca.py`, and read by the tests).
public struct RegionDataError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The line of the data (1-based), 0 when the fault is in the whole.
    public let line: Int
    public let reason: String

    public var description: String { line > 0 ? "line \(line): \(reason)" : reason }
}
