/// A connection that can load many rows into a table as one stream of data rather than one
/// statement per batch: PostgreSQL's `COPY … FROM STDIN`. The catalogue import stages a file's
/// rows with it, then applies them with a few set-based statements. SQLite has no such need (its
/// statements are calls into the same process, not round trips), so only PostgreSQL conforms;
/// callers ask `db as? any SQLBulkCopying` and keep their statement-by-statement path otherwise.
public protocol SQLBulkCopying: SQLConnection {
    /// Appends `rows` to `table`, each row's values in the order of `columns` (`.null` for NULL).
    /// `table` and `columns` are identifiers written by the caller's code, never user input;
    /// every value is sent as data (escaped for the wire format), never as SQL. Answers the
    /// number of rows loaded. A value the column refuses fails the whole copy with the engine's
    /// error, and the transaction with it.
    @discardableResult
    func copy(into table: String, columns: [String], rows: [[SQLValue]]) throws -> Int
}
