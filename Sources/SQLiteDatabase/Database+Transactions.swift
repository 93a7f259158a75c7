import CSQLite

/// How a transaction takes its locks.
public enum TransactionKind: String, Sendable, Hashable, CaseIterable {
  /// Locks only when the first read or write happens (`BEGIN DEFERRED`).
  case deferred
  /// Takes the write lock at once (`BEGIN IMMEDIATE`), so a busy database
  /// fails at `BEGIN` rather than halfway through.
  case immediate
  /// Takes an exclusive lock at once (`BEGIN EXCLUSIVE`); in WAL mode it
  /// behaves like `immediate`.
  case exclusive

  var _beginSQL: String {
    switch self {
    case .deferred: return "BEGIN DEFERRED TRANSACTION"
    case .immediate: return "BEGIN IMMEDIATE TRANSACTION"
    case .exclusive: return "BEGIN EXCLUSIVE TRANSACTION"
    }
  }
}

extension Database {
  /// Runs `body` inside a transaction: commits if it returns, rolls back if
  /// it throws.
  ///
  /// The first error wins: if `body` throws, that error is rethrown even if
  /// the rollback fails too. A failed `COMMIT` is rolled back and rethrown.
  /// It is `throws` rather than `rethrows` because `BEGIN` and `COMMIT` can
  /// fail on their own (`SQLITE_BUSY`, `SQLITE_FULL`).
  ///
  /// - Parameters:
  ///   - kind: How to take locks; `.immediate` by default.
  ///   - body: The work; its result is returned.
  /// - Returns: What `body` returned.
  /// - Throws: ``SQLiteError`` from `BEGIN` or `COMMIT`, or what `body` threw.
  public func withTransaction<T>(
    _ kind: TransactionKind = .immediate, _ body: () throws -> T
  ) throws -> T {
    try execute(sql: kind._beginSQL)
    let result: T
    do {
      result = try body()
    } catch {
      _rollbackIgnoringErrors()
      throw error
    }
    do {
      try execute(sql: "COMMIT TRANSACTION")
    } catch {
      _rollbackIgnoringErrors()
      throw error
    }
    return result
  }

  /// Rolls back if a transaction is still open. SQLite may already have
  /// rolled back on its own (after `SQLITE_FULL`, for instance).
  func _rollbackIgnoringErrors() {
    guard isInsideTransaction else { return }
    try? execute(sql: "ROLLBACK TRANSACTION")
  }
}
