import HTTP
import ShopCore

/// The search synonyms for staff (owner and manager: `search`): the dictionary in force, and
/// replacing it whole (checked whole, audited; a refused dictionary changes nothing and the one in
/// force stays). A saved dictionary applies to the next search on every node.
struct AdminSearchController {
    let synonyms: SearchSynonyms

    /// `PUT /admin/search/synonyms` `{"text": "..."}`: the whole dictionary, in the format of
    /// Config/search_synonyms.txt.
    struct ReplaceRequest: Decodable {
        let text: String
    }

    func register(_ admin: AdminRoutes) {
        admin.get("/admin/search/synonyms", use: show)
        admin.put("/admin/search/synonyms", use: replace)
    }

    /// `{"text", "source", "updated_at"}`: the dictionary in force and where it comes from.
    func show(_ request: Request, _ context: Context) throws -> Response {
        try .json(SynonymsResponse(try synonyms.current()))
    }

    /// Replaces the dictionary; 422 `invalid_synonyms` naming each problem's line otherwise.
    func replace(_ request: Request, _ context: Context) throws -> Response {
        let body = try AdminBody(request, allowed: ["text"])
        if body.isNull("text") { throw ValidationError("text", .required) }
        let sent = try request.decode(ReplaceRequest.self)
        return try .json(SynonymsResponse(try synonyms.replace(with: sent.text, by: try context.staffActor())))
    }
}

/// `{"text", "source", "updated_at"}`: `source` is `database` (saved by staff) or `configuration`
/// (`search.synonyms_path`, else the shipped file); `updated_at` null until staff save one.
struct SynonymsResponse: Encodable {
    let text: String
    let source: String
    @ExplicitNull var updatedAt: Int64?

    init(_ current: (text: String, source: SearchSynonyms.Source, updatedAt: Int64?)) {
        text = current.text
        source = current.source.rawValue
        updatedAt = current.updatedAt
    }
}
