import CLibPQ
import Foundation
import SQL

/// How a transaction sees the writes of others (PostgreSQL's levels; READ UNCOMMITTED is
/// READ COMMITTED there, so it is not offered).
public enum IsolationLevel: String, Sendable {
    case readCommitted = "READ COMMITTED"
    case repeatableRead = "REPEATABLE READ"
    case serializable = "SERIALIZABLE"
}

/// One libpq connection. Not thread-safe: a `Pool` lends it to one closure at a time.
public final class Connection: SQLConnection, SQLBulkCopying {
    public let dialect = SQLDialect.postgresql
    let handle: OpaquePointer
    /// Statements prepared on this session, by text and parameter types: the server parses and
    /// plans each once, not on every call. Session state: a `reset()` forgets them.
    private var preparedNames: [PreparedKey: Prepared] = [:]
    private var preparedCount = 0
    /// Past this many, the session's statements are dropped (`DEALLOCATE ALL`) and prepared again
    /// as they come: one-off texts cannot grow the cache without bound.
    public static let maxPreparedStatements = 512
    /// Statements of the open transaction not sent yet: its `BEGIN` (and `SET LOCAL`), advisory
    /// locks and `runLater` writes wait here and go to the server in one pipeline with the next
    /// statement whose answer is needed, or with `COMMIT`, costing no round trip of their own.
    private var held: [Held] = []
    /// Whether `held` starts with the transaction's `BEGIN`: nothing of it reached the server yet.
    private var beginHeld = false
    /// Whether `queryEnding` committed the transaction the closure still runs in: nothing may follow.
    private var endedEarly = false
    /// Whether the open transaction, when it goes to the server whole in one pipeline, may run as
    /// that pipeline's implicit transaction, without its `BEGIN` and `COMMIT` (see `sendHeld`).
    private var wholeMayRunImplicitly = false
    /// Whether the server begins a transaction READ COMMITTED when not told otherwise
    /// (`default_transaction_isolation`, read when the connection opens): only then is a pipeline's
    /// implicit transaction the same as a READ COMMITTED one.
    private let defaultIsReadCommitted: Bool

    /// Connects with libpq's own rules: a `postgresql://` URL or `key=value` string, with the
    /// `PG*` environment variables (PGPASSWORD, PGSSLMODE, ...) filling what it leaves out, and
    /// Unix sockets through `host=/path`. The session's client encoding is always UTF-8.
    public init(url: String) throws {
        let keywords = ["dbname", "fallback_application_name", "client_encoding"]
        let values = [url, "floral-shop", "UTF8"]
        let connection = withCStrings(keywords) { keywords in
            withCStrings(values) { values in PQconnectdbParams(keywords, values, 1) }
        }
        guard let connection else {
            throw PostgreSQLError(sqlstate: nil, message: "out of memory opening a connection", connectionBroken: true)
        }
        guard PQstatus(connection) == CONNECTION_OK else {
            let error = PostgreSQLError(sqlstate: nil, message: Self.message(of: connection), connectionBroken: true)
            PQfinish(connection)
            throw error
        }
        handle = connection
        let isolation = PQexec(connection, "SHOW default_transaction_isolation")
        defaultIsReadCommitted = PQresultStatus(isolation) == PGRES_TUPLES_OK && PQntuples(isolation) == 1
            && String(cString: PQgetvalue(isolation, 0, 0)) == "read committed"
        PQclear(isolation)
        // Notices ("relation exists, skipping") would go to stderr; a library does not print.
        PQsetNoticeProcessor(handle, { _, _ in }, nil)
    }

    deinit {
        PQfinish(handle)
    }

    /// Whether the connection was usable the last time libpq looked (a backend killed since is
    /// noticed only by the next statement).
    public var isHealthy: Bool { PQstatus(handle) == CONNECTION_OK }

    /// The server process serving this connection (for `pg_terminate_backend`, logs).
    public var backendProcessID: Int32 { PQbackendPID(handle) }

    /// Whether a transaction is open (or failed and waiting for its ROLLBACK).
    public var isInTransaction: Bool {
        let status = PQtransactionStatus(handle)
        return status == PQTRANS_INTRANS || status == PQTRANS_INERROR || status == PQTRANS_ACTIVE
    }

    /// Reopens the connection with the same parameters; answers whether it is usable again.
    /// Statements held for the transaction that was open are dropped with it.
    @discardableResult
    public func reset() -> Bool {
        PQreset(handle)
        preparedNames.removeAll()
        held.removeAll()
        beginHeld = false
        return isHealthy
    }

    /// Runs a script of one or more statements without parameters (migrations, schema). Unless
    /// the script has its own BEGIN/COMMIT, the server runs it as one implicit transaction.
    public func execute(script: String) throws {
        if !held.isEmpty { PQclear(try sendHeld(then: nil)?.result) }
        let result = PQexec(handle, script)
        defer { PQclear(result) }
        try check(result, sql: script)
    }

    /// A transaction-scoped advisory lock per key, in sorted order so two callers never deadlock.
    /// The locks are held back and sent with the next statement (`runLater`): the server takes
    /// them before it runs that statement, and waiting for them costs no round trip of its own.
    public func serialize(onKeys keys: [String]) throws {
        for key in Set(keys).sorted() {
            try runLater("SELECT pg_advisory_xact_lock(hashtextextended(\(key), 0))")
        }
    }

    /// `ANALYZE` each table: after a bulk change the planner's stale statistics would have it scan
    /// every product for a search.
    public func refreshStatistics(of tables: [String]) throws {
        guard !tables.isEmpty else { return }
        try execute(script: tables.map { "ANALYZE \($0)" }.joined(separator: "; "))
    }

    /// Runs a statement; answers the number of rows it changed (`PQcmdTuples`).
    @discardableResult
    public func run(_ sql: SQL) throws -> Int {
        let (result, _) = try execute(sql)
        defer { PQclear(result) }
        return Int(String(cString: PQcmdTuples(result))) ?? 0
    }

    /// All rows of a query.
    public func query(_ sql: SQL) throws -> [Row] {
        let (result, prepared) = try execute(sql)
        defer { PQclear(result) }
        return ResultRows(result, description: prepared?.resultColumns).all()
    }

    /// The rows of each query, sent together with anything held in one pipeline: one round trip
    /// for all. After a failure the server skips the rest; the first failure is thrown.
    public func queries(_ statements: [SQL]) throws -> [[Row]] {
        guard statements.count > 1 else { return try statements.map { try query($0) } }
        let results = try sendHeld(then: statements.map { Held.statement($0) })
        defer { results.forEach { PQclear($0.result) } }
        return results.map { ResultRows($0.result, description: $0.prepared?.resultColumns).all() }
    }

    /// The rows of the transaction's last query, sent with anything held and its `COMMIT` in one
    /// pipeline: one round trip where the query and the commit were two. The transaction has
    /// ended when it returns; a failure of either is thrown (the query's first), and a failed
    /// query leaves the transaction aborted for `inOpenTransaction` to roll back. Outside a
    /// transaction (autocommit) it is `query`.
    public func queryEnding(_ sql: SQL) throws -> [Row] {
        guard beginHeld || isInTransaction else { return try query(sql) }
        endedEarly = true
        let results = try sendHeld(then: [.statement(sql), .command("COMMIT")])
        defer { results.forEach { PQclear($0.result) } }
        return ResultRows(results[0].result, description: results[0].prepared?.resultColumns).all()
    }

    /// The first row of a query, or nil.
    public func queryOne(_ sql: SQL) throws -> Row? {
        let (result, prepared) = try execute(sql)
        defer { PQclear(result) }
        return ResultRows(result, description: prepared?.resultColumns).first()
    }

    /// Bytes of COPY data sent per `PQputCopyData` call: large enough that the calls cost nothing,
    /// small enough that a big copy never sits whole in memory twice.
    static let copyChunkBytes = 1 << 18

    /// `COPY table (columns) FROM STDIN` in the text format: each row one line, values separated
    /// by tabs, NULL as `\N`, and in each value backslash, tab, line feed and carriage return
    /// written as `\\`, `\t`, `\n`, `\r` (`COPYText.append`), so any text arrives byte for byte.
    /// The rows go as a stream (`PQputCopyData`), ended by `PQputCopyEnd`; the server's answer
    /// (`PQgetResult`) says how many rows it loaded, or why it refused them, in which case
    /// nothing of the copy is loaded.
    @discardableResult
    public func copy(into table: String, columns: [String], rows: [[SQLValue]]) throws -> Int {
        let sql = "COPY \(Self.quotedIdentifier(table)) (\(columns.map(Self.quotedIdentifier).joined(separator: ", "))) FROM STDIN"
        // The transaction's BEGIN (and anything else held) must reach the server first, or the
        // rows would be copied outside the transaction, committed whatever it does next.
        if !held.isEmpty { PQclear(try sendHeld(then: nil)?.result) }
        let start = PQexec(handle, sql)
        let status = start.map(PQresultStatus)
        if status != PGRES_COPY_IN {
            defer { PQclear(start) }
            try check(start, sql: sql)
            throw PostgreSQLError(sqlstate: nil, message: "COPY did not start", sql: sql, connectionBroken: !isHealthy)
        }
        PQclear(start)
        var buffer: [UInt8] = []
        buffer.reserveCapacity(Self.copyChunkBytes + 4_096)
        var sendFailure: PostgreSQLError?
        func send() {
            guard sendFailure == nil, !buffer.isEmpty else { return }
            let sent = buffer.withUnsafeBufferPointer { bytes in
                bytes.withMemoryRebound(to: CChar.self) { PQputCopyData(handle, $0.baseAddress, Int32($0.count)) }
            }
            if sent != 1 {
                sendFailure = PostgreSQLError(sqlstate: nil, message: Self.message(of: handle), sql: sql, connectionBroken: !isHealthy)
            }
            buffer.removeAll(keepingCapacity: true)
        }
        for row in rows {
            precondition(row.count == columns.count, "a COPY row has one value per column")
            for (index, value) in row.enumerated() {
                if index > 0 { buffer.append(0x09) }
                COPYText.append(value, to: &buffer)
            }
            buffer.append(0x0A)
            if buffer.count >= Self.copyChunkBytes { send() }
            if sendFailure != nil { break }
        }
        send()
        // A failed send still ends the copy, so the connection leaves COPY mode.
        if PQputCopyEnd(handle, sendFailure == nil ? nil : "the client could not send the rows") != 1, sendFailure == nil {
            sendFailure = PostgreSQLError(sqlstate: nil, message: Self.message(of: handle), sql: sql, connectionBroken: !isHealthy)
        }
        var loaded = 0
        var failure: (any Error)? = nil
        // Every result until NULL, so the connection is ready for its next statement.
        while let result = PQgetResult(handle) {
            do {
                try check(result, sql: sql)
                loaded += Int(String(cString: PQcmdTuples(result))) ?? 0
            } catch {
                if failure == nil { failure = error }
            }
            PQclear(result)
        }
        if let failure { throw failure }
        if let sendFailure { throw sendFailure }
        return loaded
    }

    /// `"name"`, with any `"` doubled: an identifier the server reads as written.
    static func quotedIdentifier(_ name: String) -> String {
        "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// Runs `body` inside `BEGIN` ... `COMMIT`, rolling back if it throws.
    public func transaction<T>(isolation: IsolationLevel = .readCommitted, readOnly: Bool = false,
                               _ body: (Connection) throws -> T) throws -> T {
        begin(isolation: isolation, readOnly: readOnly)
        return try inOpenTransaction(body)
    }

    /// `BEGIN ISOLATION LEVEL ... [READ ONLY]`, held back and sent with the transaction's first
    /// statement (one round trip for both); `synchronousCommit` false adds `SET LOCAL
    /// synchronous_commit = off` the same way.
    func begin(isolation: IsolationLevel, readOnly: Bool, synchronousCommit: Bool = true) {
        precondition(held.isEmpty, "a transaction begins on a connection with nothing held")
        endedEarly = false
        held.append(.command("BEGIN ISOLATION LEVEL \(isolation.rawValue)" + (readOnly ? " READ ONLY" : "")))
        if !synchronousCommit { held.append(.command(Self.relaxedCommit)) }
        beginHeld = true
        wholeMayRunImplicitly = isolation == .readCommitted && !readOnly && defaultIsReadCommitted
    }

    /// What `begin` holds for a transaction that commits without waiting for the disk.
    private static let relaxedCommit = "SET LOCAL synchronous_commit = off"
    /// The same for a transaction that runs as a pipeline's implicit one, where `SET LOCAL` is
    /// refused with a warning (it only counts inside `BEGIN`): `set_config(…, true)` lasts to the
    /// end of the transaction it runs in, implicit or not, so its commit does not wait for the disk.
    private static let implicitRelaxedCommit: SQL = "SELECT set_config('synchronous_commit', 'off', true)"

    /// Runs `body` in the transaction just begun, then `COMMIT`; `ROLLBACK` if anything throws.
    func inOpenTransaction<T>(_ body: (Connection) throws -> T) throws -> T {
        do {
            let result = try body(self)
            // A statement failed and `body` caught its error: the server has aborted the
            // transaction and would answer COMMIT with a silent ROLLBACK. Say so instead.
            if PQtransactionStatus(handle) == PQTRANS_INERROR {
                throw PostgreSQLError(sqlstate: "25P02", message: "a statement failed inside the transaction, "
                                      + "so it was rolled back (catch it in a SAVEPOINT to go on)")
            }
            try commit()
            endedEarly = false
            return result
        } catch {
            rollbackIfOpen()
            throw error
        }
    }

    /// `COMMIT`, sent with the statements still held (writes run with `runLater`) in one
    /// pipeline. A transaction that never sent a statement has nothing to commit, nor one that
    /// `queryEnding` committed already.
    private func commit() throws {
        if !beginHeld && held.isEmpty && PQtransactionStatus(handle) == PQTRANS_IDLE { return }
        if beginHeld && held.allSatisfy(\.isCommand) {
            held.removeAll()
            beginHeld = false
            return
        }
        PQclear(try sendHeld(then: .command("COMMIT"))?.result)
    }

    /// Ends a transaction left open, so the connection goes back to its pool clean; what was held
    /// for it is dropped unsent.
    func rollbackIfOpen() {
        held.removeAll()
        beginHeld = false
        endedEarly = false
        if isHealthy && isInTransaction { try? execute(script: "ROLLBACK") }
    }

    /// Sends the statement with its values bound as `$1…`, through the session's prepared
    /// statement for its text (prepared on first use); answers the successful result, which the
    /// caller clears, with the prepared statement that gave it.
    private func execute(_ sql: SQL) throws -> Answer {
        precondition(!endedEarly, "nothing runs in a transaction after its queryEnding")
        if !held.isEmpty {
            guard let answer = try sendHeld(then: .statement(sql)) else { preconditionFailure("a pipeline answers its last statement") }
            return answer
        }
        let (text, values) = sql.render { "$\($0)" }
        let parameters = Parameters(values)
        defer { parameters.deallocate() }
        let prepared = try preparedStatement(text, types: parameters.types)
        let result = parameters.values.withUnsafeBufferPointer { pointers in
            PQexecPrepared(handle, prepared.name, Int32(values.count), pointers.baseAddress,
                           parameters.lengths, parameters.formats, 0)
        }
        do {
            try check(result, sql: text)
        } catch {
            PQclear(result)
            throw error
        }
        guard let result else { preconditionFailure("check throws for a missing result") }
        return (result, prepared)
    }

    /// A result and the prepared statement that answered it (nil for a command sent as text).
    private typealias Answer = (result: OpaquePointer, prepared: Prepared?)

    /// This session's prepared statement for `text` with parameters of `types`, preparing it
    /// (`PQprepare`) the first time.
    private func preparedStatement(_ text: String, types: [Oid]) throws -> Prepared {
        let key = PreparedKey(text: text, types: types)
        if let prepared = preparedNames[key] { return prepared }
        if preparedNames.count >= Self.maxPreparedStatements {
            try execute(script: "DEALLOCATE ALL")
            preparedNames.removeAll()
        }
        preparedCount += 1
        let name = "fs\(preparedCount)"
        let result = PQprepare(handle, name, text, Int32(types.count), types)
        defer { PQclear(result) }
        try check(result, sql: text)
        let prepared = Prepared(name: name)
        preparedNames[key] = prepared
        return prepared
    }

    // MARK: held statements, sent in one pipeline with the next that needs an answer

    /// A statement held back: nobody waits for its answer, only for its failure.
    private enum Held {
        /// Text without parameters (`BEGIN …`, `SET LOCAL …`, `COMMIT`), sent unprepared.
        case command(String)
        case statement(SQL)

        var isCommand: Bool {
            if case .command = self { return true }
            return false
        }
    }

    /// Holds `sql` until the next statement whose answer is needed, or `COMMIT`, and sends it
    /// with that one in a single pipeline (libpq pipeline mode): a write whose only news can be a
    /// failure costs no round trip of its own. Its failure is thrown by that later call. Outside a
    /// transaction (autocommit: no COMMIT would send it) it runs at once.
    public func runLater(_ sql: SQL) throws {
        precondition(!endedEarly, "nothing runs in a transaction after its queryEnding")
        guard beginHeld || isInTransaction else {
            try run(sql)
            return
        }
        held.append(.statement(sql))
    }

    /// Sends the held statements and then `last` (when given) in one pipeline, one round trip;
    /// answers the last statement's result, which the caller clears, or throws the first failure.
    /// When the pipeline begins the transaction and finds the connection broken, nothing of the
    /// transaction has run: it reconnects once and sends it again.
    private func sendHeld(then last: Held?) throws -> Answer? {
        try sendHeld(then: last.map { [$0] } ?? []).last
    }

    /// `sendHeld(then:)` for several statements whose answers are all needed: answers their
    /// results in order (the caller clears them).
    ///
    /// When the pipeline holds the whole of a READ COMMITTED write transaction (it begins it and
    /// ends with its `COMMIT`), the `BEGIN` and `COMMIT` are left out: statements sent in one
    /// pipeline before its sync run as one implicit transaction, all or nothing, committed at the
    /// sync (libpq's pipeline mode), READ COMMITTED on a server whose default it is. The server
    /// then has two statements fewer to parse and run for the same outcome (a cart change: its
    /// statement alone, with `set_config` for its durability). The `COMMIT` then has no answer.
    private func sendHeld(then lasts: [Held]) throws -> [Answer] {
        var statements = held + lasts
        var answering = lasts.count
        if beginHeld, wholeMayRunImplicitly, case .command("COMMIT")? = lasts.last {
            statements = statements.dropFirst().dropLast().map { statement in
                if case .command(Self.relaxedCommit) = statement { return .statement(Self.implicitRelaxedCommit) }
                return statement
            }
            answering -= 1
        }
        let reconnectable = beginHeld
        held.removeAll()
        beginHeld = false
        do {
            return try pipeline(statements, answering: answering)
        } catch let error as PostgreSQLError where error.kind == .connectionLost && reconnectable {
            guard reset() else { throw error }
            return try pipeline(statements, answering: answering)
        }
    }

    /// One pipeline: every statement sent (those new to the session prepared first), one sync, the
    /// answers read in order, the last `answering` kept. After a failure the server skips the rest
    /// up to the sync (`PGRES_PIPELINE_ABORTED`); the first failure is thrown.
    private func pipeline(_ statements: [Held], answering: Int) throws -> [Answer] {
        var sends: [(text: String, prepared: Prepared?, parameters: Parameters?)] = []
        defer { sends.forEach { $0.parameters?.deallocate() } }
        for statement in statements {
            switch statement {
            case .command(let text):
                sends.append((text, nil, nil))
            case .statement(let sql):
                let (text, values) = sql.render { "$\($0)" }
                let parameters = Parameters(values)
                sends.append((text, nil, parameters))
                sends[sends.count - 1].prepared = try preparedStatement(text, types: parameters.types)
            }
        }
        guard PQenterPipelineMode(handle) == 1 else {
            throw PostgreSQLError(sqlstate: nil, message: Self.message(of: handle), connectionBroken: !isHealthy)
        }
        for send in sends {
            let sent: Int32
            if let prepared = send.prepared, let parameters = send.parameters {
                sent = parameters.values.withUnsafeBufferPointer { pointers in
                    PQsendQueryPrepared(handle, prepared.name, Int32(parameters.values.count), pointers.baseAddress,
                                        parameters.lengths, parameters.formats, 0)
                }
            } else {
                sent = PQsendQueryParams(handle, send.text, 0, nil, nil, nil, nil, 0)
            }
            guard sent == 1 else { throw brokenPipeline(sql: send.text) }
        }
        guard PQpipelineSync(handle) == 1 else { throw brokenPipeline(sql: nil) }
        var failure: Error?
        var kept: [Answer] = []
        var aborted = false
        for (index, send) in sends.enumerated() {
            guard let result = PQgetResult(handle) else {
                kept.forEach { PQclear($0.result) }
                throw brokenPipeline(sql: send.text)
            }
            while let extra = PQgetResult(handle) { PQclear(extra) }
            if PQresultStatus(result) == PGRES_PIPELINE_ABORTED {
                aborted = true
                PQclear(result)
                continue
            }
            do {
                try check(result, sql: send.text)
            } catch {
                failure = failure ?? error
                PQclear(result)
                continue
            }
            if index >= sends.count - answering { kept.append((result, send.prepared)) } else { PQclear(result) }
        }
        guard let sync = PQgetResult(handle) else {
            kept.forEach { PQclear($0.result) }
            throw brokenPipeline(sql: nil)
        }
        let synced = PQresultStatus(sync) == PGRES_PIPELINE_SYNC
        PQclear(sync)
        guard synced, PQexitPipelineMode(handle) == 1 else {
            kept.forEach { PQclear($0.result) }
            throw brokenPipeline(sql: nil)
        }
        if failure != nil || aborted {
            kept.forEach { PQclear($0.result) }
            throw failure ?? PostgreSQLError(sqlstate: nil, message: "a pipeline was aborted without a failure",
                                             connectionBroken: !isHealthy)
        }
        return kept
    }

    /// The error of a pipeline that could not be sent or read to its end. The session is left in
    /// an unknown state, so it is reopened (a transaction it held is gone with it).
    private func brokenPipeline(sql: String?) -> PostgreSQLError {
        let error = PostgreSQLError(sqlstate: nil, message: Self.message(of: handle), sql: sql, connectionBroken: true)
        _ = reset()
        return error
    }

    /// How many prepared statements this session keeps.
    public var preparedStatementCount: Int { preparedNames.count }

    /// Throws the error a result carries (or the connection's, when there is no result).
    private func check(_ result: OpaquePointer?, sql: String) throws {
        guard let result else {
            throw PostgreSQLError(sqlstate: nil, message: Self.message(of: handle), sql: sql,
                                  connectionBroken: !isHealthy)
        }
        let status = PQresultStatus(result)
        if status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK || status == PGRES_EMPTY_QUERY { return }
        let field = { (code: Int32) in PQresultErrorField(result, code).map { String(cString: $0) } }
        let message = field(shop_pg_diag_message_primary)
            ?? String(cString: PQresultErrorMessage(result)).trimmingTrailingNewlines()
        throw PostgreSQLError(sqlstate: field(shop_pg_diag_sqlstate),
                              message: message.isEmpty ? Self.message(of: handle) : message,
                              constraint: field(shop_pg_diag_constraint_name), sql: sql,
                              connectionBroken: !isHealthy)
    }

    /// libpq's last message about the connection, one line.
    private static func message(of connection: OpaquePointer) -> String {
        String(cString: PQerrorMessage(connection)).trimmingTrailingNewlines()
    }
}

/// A statement prepared on the session: its name, and its results' columns once seen.
private final class Prepared {
    let name: String
    let resultColumns = ResultDescription()

    init(name: String) {
        self.name = name
    }
}

/// A statement's identity on the server: its text and the types its parameters were sent as.
private struct PreparedKey: Hashable {
    let text: String
    let types: [Oid]
}

extension String {
    func trimmingTrailingNewlines() -> String {
        var text = self
        while text.last?.isNewline == true { text.removeLast() }
        return text
    }
}

/// Calls `body` with a NULL-terminated array of C strings that live for the call.
private func withCStrings<T>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> T) -> T {
    let copies = strings.map { strdup($0) }
    defer { copies.forEach { free($0) } }
    let pointers = copies.map { UnsafePointer($0) } + [nil]
    return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
}
