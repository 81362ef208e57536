extension SQLConnection {
    /// The clause that ends a `SELECT` of rows a worker is about to claim (an outbox's due rows):
    /// on PostgreSQL `FOR UPDATE SKIP LOCKED`, so workers on several nodes each lock different rows
    /// and none waits for another's; nothing on SQLite, whose write transactions run one at a time.
    public var skippingLockedRows: SQL {
        switch dialect {
        case .postgresql: "FOR UPDATE SKIP LOCKED"
        case .sqlite: .empty
        }
    }
}
