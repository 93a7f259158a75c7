extension Database {
  /// How often SQLite waits for data to reach the disk.
  public enum SynchronousMode: String, Sendable, Hashable {
    /// `synchronous = NORMAL`: in WAL mode, a power loss can drop the last
    /// commits but never corrupts the file. The usual choice with WAL.
    case normal = "NORMAL"
    /// `synchronous = FULL`: every commit is durable before it returns.
    case full = "FULL"
  }

  /// Switches the database to write-ahead logging and sets `synchronous`.
  ///
  /// - Parameter synchronous: `.normal` (the default) or `.full`.
  /// - Throws: ``SQLiteError`` if the pragma fails, or if SQLite answers
  ///   with another journal mode (an in-memory database stays `"memory"`).
  ///
  /// The corresponding SQL is `PRAGMA journal_mode = WAL` and
  /// `PRAGMA synchronous = …`.
  public func setUpWALMode(
    synchronous: SynchronousMode = .normal
  ) throws(SQLiteError) {
    let sql = "PRAGMA journal_mode = WAL"
    let mode = try query(sql).first?[0].string?.lowercased()
    guard mode == "wal" else {
      throw SQLiteError(
        code: .error,
        message: "could not enable wal mode (journal mode is \(mode ?? "unknown"))",
        sql: sql)
    }
    try execute(sql: "PRAGMA synchronous = \(synchronous.rawValue)")
  }

  /// The current journal mode, lowercased (`"wal"`, `"delete"`, `"memory"`…).
  ///
  /// - Throws: ``SQLiteError``.
  public func journalMode() throws(SQLiteError) -> String {
    try query("PRAGMA journal_mode").first?[0].string?.lowercased() ?? ""
  }

  /// The schema version number kept in the database header, 0 for a new
  /// database.
  ///
  /// - Throws: ``SQLiteError``.
  ///
  /// The corresponding SQL is `PRAGMA user_version`.
  public func userVersion() throws(SQLiteError) -> Int32 {
    let value = try query("PRAGMA user_version").first?[0].int64 ?? 0
    return Int32(truncatingIfNeeded: value)
  }

  /// Stores a schema version number in the database header.
  ///
  /// - Parameter version: The new version.
  /// - Throws: ``SQLiteError``.
  ///
  /// The corresponding SQL is `PRAGMA user_version = …`.
  public func setUserVersion(_ version: Int32) throws(SQLiteError) {
    try execute(sql: "PRAGMA user_version = \(version)")
  }
}
