import HTTP
import ShopCore

/// The shop's figures: sales by day and one day's deliveries, in `app.timezone`.
struct AdminReportController {
    let reports: ReportService
    let timezone: String

    func register(_ admin: AdminRoutes) {
        admin.get("/admin/reports/sales", use: sales)
            .get("/admin/reports/deliveries", use: deliveries)
    }

    /// `?from=&to=` (YYYY-MM-DD, at most 366 days; default the last 7 days).
    func sales(_ request: Request, _ context: Context) throws -> Response {
        let report = try reports.sales(from: try request.queryDay("from"), to: try request.queryDay("to"))
        return try .json(SalesReportResponse(report, timezone: timezone))
    }

    /// `?date=` (YYYY-MM-DD; default today).
    func deliveries(_ request: Request, _ context: Context) throws -> Response {
        try .json(DeliveriesReportResponse(reports.deliveries(on: try request.queryDay("date"))))
    }
}
