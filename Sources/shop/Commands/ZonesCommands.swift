import Foundation
import Localization
import ShopCore

/// `shop zones import FILE`: replaces every delivery zone with those of a JSON file.
struct ZonesImportCommand: Command {
    let path = ["zones", "import"]
    let summary = "replace the delivery zones with those of a JSON file (all or nothing)"
    let usage = """
        Usage: shop zones import FILE [--config PATH]

        FILE is JSON: {"zones": [...]} (what GET /admin/delivery/zones answers) or the bare array.
        Each zone: {"name": "市区", "region_codes": ["440303", "440304"], "fee_cents": 800,
        "free_over_cents": 19900, "same_day": true}. region_codes are cities or districts (GB/T 2260,
        as GET /regions lists them); a city covers its districts. No code may be listed twice or lie
        inside another listed code (a city in one zone and one of its districts in another). fee_cents
        0 to 100000; free_over_cents (optional) 0 to 10000000, compared with the goods after a coupon's
        discount; same_day false: no same-day delivery there. At most 100 zones of 500 codes.
        The file replaces every zone; an empty list removes them all (every address is served
        free). Any problem: each is listed (zone N: …), nothing changes, exit 1. Audited as cli:$USER.
        """

    func run(_ arguments: Arguments) throws -> Int32 {
        try arguments.allow(options: ["config"], positionals: 1)
        let data = try Self.read(arguments.positionals[0])
        let config = try ShopEnvironment.config(arguments)
        let shop = try ShopEnvironment.openShop(config, logger: .silent)
        let zones: [DeliveryZone]
        do {
            zones = try shop.deliveryZones.replace(with: try DeliveryZoneFile.drafts(from: data), by: Operator.actor)
        } catch let error as DeliveryZoneError {
            guard case .invalid(let problems) = error else { throw error }
            problems.forEach { standardError($0.message[.ofTerminal]) }
            throw CommandFailure(description: say(zh: "\(problems.count) 处问题，配送区域未作任何更改",
                                                  en: "\(problems.count) problem\(problems.count == 1 ? "" : "s"); the delivery zones were not changed"))
        }
        print(ZonesListCommand.render(zones, regions: shop.regions, format: .table), terminator: "")
        print(say(zh: "已导入 \(zones.count) 个配送区域", en: "\(zones.count) delivery zone\(zones.count == 1 ? "" : "s") imported"))
        return 0
    }

    /// A regular file of at most `DeliveryZoneFile.maxBytes`.
    static func read(_ path: String) throws -> Data {
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        guard let attributes, attributes[.type] as? FileAttributeType == .typeRegular else {
            throw CommandFailure(description: say(zh: "找不到文件 \(path)", en: "no such file: \(path)"))
        }
        guard let size = attributes[.size] as? Int, size <= DeliveryZoneFile.maxBytes else {
            throw CommandFailure(description: say(zh: "\(path) 超过 \(DeliveryZoneFile.maxBytes) 字节", en: "\(path) is larger than \(DeliveryZoneFile.maxBytes) bytes"))
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CommandFailure(description: say(zh: "无法读取 \(path)", en: "cannot read \(path)"))
        }
        return data
    }
}

/// `shop zones list`: the delivery zones, their fees and regions.
struct ZonesListCommand: Command {
    let path = ["zones", "list"]
    let valuedOptions: Set<String> = ["format"]
    let summary = "list the delivery zones with their fees and regions"
    let usage = """
        Usage: shop zones list [--format table|csv|json] [--config PATH]

        Fees in yuan. No zones: every address is served free. `shop zones import` replaces them.
        """

    func run(_ arguments: Arguments) throws -> Int32 {
        try arguments.allow(options: ["config", "format"])
        let format = try OutputFormat(arguments.option("format"))
        let config = try ShopEnvironment.config(arguments)
        let shop = try ShopEnvironment.openShop(config, logger: .silent)
        let zones = try shop.deliveryZones.list()
        print(Self.render(zones, regions: shop.regions, format: format), terminator: "")
        if format == .table {
            print(zones.isEmpty
                  ? say(zh: "没有配送区域：所有地址都免费配送", en: "no delivery zones: every address is served free")
                  : say(zh: "共 \(zones.count) 个配送区域", en: "\(zones.count) delivery zone\(zones.count == 1 ? "" : "s")"))
        }
        return 0
    }

    static func render(_ zones: [DeliveryZone], regions: RegionDirectory, format: OutputFormat) -> String {
        let rows = zones.map { zone -> [String] in
            [zone.name, Money.yuan(fromCents: zone.feeCents), zone.freeOverCents.map(Money.yuan(fromCents:)) ?? "",
             zone.sameDay ? "yes" : "no",
             zone.regionCodes.map { "\($0) \(regions.region($0)?.name ?? "")" }.joined(separator: ", ")]
        }
        return format.render(header: ["NAME", "FEE", "FREE OVER", "SAME DAY", "REGIONS"], rows: rows)
    }
}
