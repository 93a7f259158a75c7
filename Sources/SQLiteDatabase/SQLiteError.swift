/// An error reported by SQLite, with the statement that caused it.
///
/// It prints like
/// ``sqlite error 19: UNIQUE constraint failed: t.id - while executing `INSERT …` ``.
public struct SQLiteError: Error, CustomStringConvertible, Hashable, Sendable {
  /// The result code, extended when SQLite reported one.
  public let code: SQLiteResultCode
  /// SQLite's message (`sqlite3_errmsg`) or calldir's own lowercase text.
  public let message: String
  /// The SQL being run, if any.
  public let sql: String?

  /// Creates an error.
  ///
  /// - Parameters:
  ///   - code: The primary or extended result code.
  ///   - message: What went wrong.
  ///   - sql: The SQL being run, if any.
  public init(code: SQLiteResultCode, message: String, sql: String? = nil) {
    self.code = code
    self.message = message
    self.sql = sql
  }

  /// The primary result code (`code & 0xFF`).
  public var primaryCode: SQLiteResultCode { code.primary }

  /// Whether another connection or transaction holds the lock
  /// (`SQLITE_BUSY` or `SQLITE_LOCKED`): retrying later may succeed, so a
  /// CLI maps it to exit code 75 (`EX_TEMPFAIL`).
  public var isBusy: Bool {
    primaryCode == .busy || primaryCode == .locked
  }

  /// `sqlite error <primary code>: <message>[ - while executing `<sql>`]`.
  public var description: String {
    var text = "sqlite error \(primaryCode.rawValue): \(message)"
    if let sql {
      text += " - while executing `\(sql)`"
    }
    return text
  }
}
