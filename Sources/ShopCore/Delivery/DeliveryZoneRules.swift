import Localization

/// Checks a whole set of zones against the region directory, collecting every problem (an operator
/// fixes a file once, not once per line): names, limits, codes the directory knows, and no code
/// listed twice or lying inside another listed code (`RegionDirectory.contains` decides, so a city
/// in one zone and one of its districts in another is refused), which makes the zone of an address
/// unique. Pure.
public struct DeliveryZoneRules: Sendable {
    public static let maxZones = 100
    public static let maxRegionsPerZone = 500
    public static let maxNameLength = 30
    /// ¥1,000: a fee above it is a typo.
    public static let maxFeeCents: Int64 = 100_000
    /// ¥100,000.
    public static let maxFreeOverCents: Int64 = 10_000_000

    let regions: RegionDirectory

    public init(regions: RegionDirectory) { self.regions = regions }

    /// The zones as the shop keeps them (names trimmed, codes typed), or `DeliveryZoneError.invalid`
    /// listing every problem.
    public func validated(_ drafts: [DeliveryZoneDraft]) throws(DeliveryZoneError) -> [DeliveryZone] {
        var problems: [ZoneProblem] = []
        guard drafts.count <= Self.maxZones else {
            throw .invalid([ZoneProblem(zone: 0, .tooManyZones, ["max": .verbatim(String(Self.maxZones))])])
        }
        var zones: [DeliveryZone] = []
        var zoneOfName: [String: Int] = [:]
        /// Every listed code and the zone (from 1) that lists it first.
        var zoneOfCode: [RegionCode: Int] = [:]
        var listed: [(zone: Int, region: Region)] = []
        for (offset, draft) in drafts.enumerated() {
            let number = offset + 1
            let name = draft.name.trimmedInput
            if !(1...Self.maxNameLength).contains(name.unicodeScalars.count) {
                problems.append(ZoneProblem(zone: number, .nameLength, ["max": .verbatim(String(Self.maxNameLength))]))
            } else if name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
                problems.append(ZoneProblem(zone: number, .nameControlCharacters))
            } else if let other = zoneOfName[name] {
                problems.append(ZoneProblem(zone: number, .nameTaken, ["name": .verbatim(name), "other": .verbatim(String(other))]))
            } else {
                zoneOfName[name] = number
            }
            if !(0...Self.maxFeeCents).contains(draft.feeCents) {
                problems.append(ZoneProblem(zone: number, .feeRange, ["max": .verbatim(String(Self.maxFeeCents))]))
            }
            if let freeOver = draft.freeOverCents, !(0...Self.maxFreeOverCents).contains(freeOver) {
                problems.append(ZoneProblem(zone: number, .freeOverRange, ["max": .verbatim(String(Self.maxFreeOverCents))]))
            }
            if draft.regionCodes.isEmpty { problems.append(ZoneProblem(zone: number, .noRegions)) }
            if draft.regionCodes.count > Self.maxRegionsPerZone {
                problems.append(ZoneProblem(zone: number, .tooManyRegions, ["max": .verbatim(String(Self.maxRegionsPerZone))]))
                continue
            }
            var codes: [RegionCode] = []
            for text in draft.regionCodes {
                guard let code = RegionCode(text) else {
                    problems.append(ZoneProblem(zone: number, .malformedCode, ["code": .verbatim(String(text.prefix(20)))]))
                    continue
                }
                guard let region = regions.region(code) else {
                    problems.append(ZoneProblem(zone: number, .unknownCode, ["code": .verbatim(code.rawValue)]))
                    continue
                }
                guard region.level != .province else {
                    problems.append(ZoneProblem(zone: number, .province, Self.naming(region)))
                    continue
                }
                if let other = zoneOfCode[code] {
                    problems.append(ZoneProblem(zone: number, .listedTwice,
                                                Self.naming(region).merging(["other": .verbatim(String(other))]) { $1 }))
                    continue
                }
                zoneOfCode[code] = number
                listed.append((number, region))
                codes.append(code)
            }
            zones.append(DeliveryZone(name: name, regionCodes: codes.sorted(), feeCents: draft.feeCents,
                                      freeOverCents: draft.freeOverCents, sameDay: draft.sameDay))
        }
        // a code inside another listed code (a district of a listed city), in any zone
        for (number, region) in listed {
            for ancestor in regions.path(to: region.code).dropLast() {
                guard let other = zoneOfCode[ancestor.code] else { continue }
                problems.append(ZoneProblem(zone: number, .overlaps, Self.naming(region).merging([
                    "ancestor": .verbatim(ancestor.code.rawValue), "ancestor_name": .verbatim(ancestor.name),
                    "other": .verbatim(String(other)),
                ]) { $1 }))
            }
        }
        guard problems.isEmpty else {
            throw .invalid(problems.sorted { $0.zone < $1.zone })
        }
        return zones
    }

    static func naming(_ region: Region) -> [String: LocalizedText] {
        ["code": .verbatim(region.code.rawValue), "region": .verbatim(region.name)]
    }
}
