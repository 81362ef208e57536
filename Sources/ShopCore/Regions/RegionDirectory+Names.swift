extension RegionDirectory {
    /// The most specific division an address typed by hand names: its province by name, then its
    /// city among the province's, then its district among the city's; nil when not even the province
    /// is found. A name matches exactly, or as the start of the directory's name (`浙江` for
    /// `浙江省`, `西湖` for `西湖区`) when exactly one division starts so. A municipality's city may be
    /// left out or typed as the province (`北京市` `北京市` `朝阳区`, or `北京` `朝阳区` `` ``).
    /// Used for addresses without a `region_code`, so zones can still find them.
    public func code(province: String, city: String, district: String) -> RegionCode? {
        let names = [province, city, district].map { $0.trimmedInput }
        guard let top = Self.match(names[0], among: provinces) else { return nil }
        let cities = childrenByName(top.code)
        var found = Self.match(names[1], among: cities)
        var districtName = names[2]
        if found == nil, cities.count == 1, let only = cities.first, only.name == top.name {
            // a municipality: its one city bears its name; the city field may hold the district
            found = only
            if districtName.isEmpty { districtName = names[1] }
        }
        guard let city = found else { return top.code }
        return Self.match(districtName, among: childrenByName(city.code))?.code ?? city.code
    }

    private func childrenByName(_ code: RegionCode) -> [Region] {
        (try? children(of: code)) ?? []
    }

    /// The one division named `name`: exactly, else the only one whose name starts with it (two
    /// characters at least, so `市` alone finds nothing).
    static func match(_ name: String, among regions: [Region]) -> Region? {
        guard !name.isEmpty else { return nil }
        if let exact = regions.first(where: { $0.name == name }) { return exact }
        guard name.count >= 2 else { return nil }
        let starting = regions.filter { $0.name.hasPrefix(name) }
        return starting.count == 1 ? starting[0] : nil
    }
}
