import CSQLite

/// A raw SQLite statement handle (`sqlite3_stmt *`).
public typealias SQLiteStatementHandle = OpaquePointer

/// A compiled SQL statement, finalized when released.
///
/// Bind arguments, then call ``step()`` until it returns `false`, reading
/// columns while it returns `true`; ``reset()`` runs it again.
///
///     let insert = try db.prepare("INSERT INTO t(n, label) VALUES (?, ?)")
///     for (n, label) in entries {
///       try insert.reset()
///       try insert.bind([.integer(n), .text(label)])
///       _ = try insert.step()
///     }
///
/// It keeps its ``Database`` alive.
public final class Statement {
  /// The connection that compiled the statement.
  public let database: Database
  /// The raw handle, for calls this wrapper does not cover.
  public let handle: SQLiteStatementHandle
  /// The SQL text of this statement.
  public let sql: String

  init(database: Database, handle: SQLiteStatementHandle, sql: String) {
    self.database = database
    self.handle = handle
    self.sql = sql
  }

  deinit {
    sqlite3_finalize(handle)
  }

  /// Runs the statement until the next row or the end.
  ///
  /// - Returns: `true` if a row is available (`SQLITE_ROW`), `false` when
  ///   the statement has finished (`SQLITE_DONE`).
  /// - Throws: ``SQLiteError`` carrying ``sql``; ``SQLiteError/isBusy`` is
  ///   `true` when another connection holds the lock.
  ///
  /// The corresponding SQLite call is `sqlite3_step`.
  public func step() throws(SQLiteError) -> Bool {
    switch sqlite3_step(handle) {
    case SQLITE_ROW: return true
    case SQLITE_DONE: return false
    case let code: throw database._error(code: code, sql: sql)
    }
  }

  /// Rewinds the statement so it can run again; bindings are kept.
  ///
  /// It does not throw: `sqlite3_reset` only repeats the error of the last
  /// step, which ``step()`` has already thrown.
  ///
  /// The corresponding SQLite call is `sqlite3_reset`.
  public func reset() {
    sqlite3_reset(handle)
  }

  /// Sets every parameter back to `NULL`.
  ///
  /// The corresponding SQLite call is `sqlite3_clear_bindings`.
  public func clearBindings() {
    sqlite3_clear_bindings(handle)
  }

  /// Steps to the end, copying every row out.
  ///
  /// - Returns: The remaining rows, in order.
  /// - Throws: ``SQLiteError`` carrying ``sql``.
  public func allRows() throws(SQLiteError) -> [Row] {
    var rows: [Row] = []
    let names = columnNames
    while try step() {
      rows.append(Row(columnNames: names, values: (0..<columnCount).map(value(at:))))
    }
    return rows
  }

  /// Steps to the end, calling `body` on each row.
  ///
  /// - Parameter body: Reads the current row's columns from the statement.
  /// - Throws: ``SQLiteError`` from stepping, or what `body` throws.
  public func forEachRow<E: Error>(
    _ body: (Statement) throws(E) -> Void
  ) throws -> Void {
    while try step() {
      try body(self)
    }
  }
}

@available(*, unavailable)
extension Statement: Sendable {}
