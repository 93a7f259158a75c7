import CSQLite

/// A raw SQLite connection handle (`sqlite3 *`).
public typealias SQLiteConnection = OpaquePointer

/// A SQLite connection.
///
/// The connection is closed when the object is released (`sqlite3_close_v2`,
/// which waits for outstanding statements). It is not `Sendable`: use it from
/// one thread or task at a time.
///
///     let db = try Database(path: "catalog.sqlite")
///     try db.setUpWALMode()
///     try db.withTransaction {
///       try db.execute("INSERT INTO t(x) VALUES (?)", arguments: [42])
///     }
public final class Database {
  /// How to open the database file.
  public enum OpenMode: Sendable, Hashable {
    /// Read only; the file must exist (`SQLITE_OPEN_READONLY`).
    case readOnly
    /// Read and write; the file must exist (`SQLITE_OPEN_READWRITE`).
    case readWrite
    /// Read and write, creating the file if needed
    /// (`SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE`).
    case create
    /// Read only, for a file that cannot change while it is open, such as
    /// one on a read-only mount or in a directory this process may not
    /// write: the path is opened as a `file:` URI with `immutable=1`
    /// (`SQLITE_OPEN_READONLY | SQLITE_OPEN_URI`), so SQLite takes no locks
    /// and needs no `-shm` or `-wal` file. The file must exist.
    ///
    /// Only safe when nothing writes the database meanwhile, and only for a
    /// WAL database without a `-wal` file (a cleanly closed one): SQLite
    /// then reads the database file alone.
    case immutable

    var _flags: Int32 {
      switch self {
      case .readOnly: return SQLITE_OPEN_READONLY
      case .readWrite: return SQLITE_OPEN_READWRITE
      case .create: return SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
      case .immutable: return SQLITE_OPEN_READONLY | SQLITE_OPEN_URI
      }
    }

    /// The file name handed to `sqlite3_open_v2` for `path`.
    func _fileName(for path: String) -> String {
      guard self == .immutable else { return path }
      // RFC 3986 as SQLite reads it: `%`, `?` and `#` are escaped; an
      // absolute path gets an empty authority so that `//` stays a path.
      var escaped = ""
      for character in path.unicodeScalars {
        switch character {
        case "%": escaped += "%25"
        case "?": escaped += "%3F"
        case "#": escaped += "%23"
        default: escaped.unicodeScalars.append(character)
        }
      }
      return (path.hasPrefix("/") ? "file://" : "file:") + escaped + "?immutable=1"
    }
  }

  /// The default time to wait for another connection's lock: 5 seconds.
  public static let defaultBusyTimeout: BusyTimeout = .seconds(5)

  /// How long to wait for another connection's lock, in whole
  /// milliseconds (what `sqlite3_busy_timeout` takes; `Duration` needs
  /// macOS 13 and iOS 16).
  ///
  ///     try Database(path: path, busyTimeout: .milliseconds(150))
  public struct BusyTimeout: Hashable, Sendable {
    /// The wait; 0 or less fails at once.
    public var milliseconds: Int64

    /// No wait: a held lock fails at once with `SQLITE_BUSY`.
    public static let zero = BusyTimeout(milliseconds: 0)

    /// A wait of `count` milliseconds.
    public static func milliseconds(_ count: Int64) -> BusyTimeout { BusyTimeout(milliseconds: count) }

    /// A wait of `count` seconds (saturating).
    public static func seconds(_ count: Int64) -> BusyTimeout {
      let (product, overflow) = count.multipliedReportingOverflow(by: 1000)
      return BusyTimeout(milliseconds: overflow ? (count < 0 ? .min : .max) : product)
    }
  }

  /// The raw handle, for calls this wrapper does not cover.
  public let handle: SQLiteConnection

  /// The path the connection was opened with (`":memory:"` for memory).
  public let path: String

  /// Opens a connection and turns on extended result codes.
  ///
  /// - Parameters:
  ///   - path: A file path, or `":memory:"` for a private in-memory database.
  ///   - mode: Read-only, read-write, create (the default), or immutable.
  ///   - busyTimeout: How long to wait for another connection's lock before
  ///     failing with `SQLITE_BUSY`; `.zero` fails at once.
  /// - Throws: ``SQLiteError`` if the file cannot be opened; the handle is
  ///   closed before throwing.
  ///
  /// The corresponding SQLite calls are `sqlite3_open_v2`,
  /// `sqlite3_extended_result_codes` and `sqlite3_busy_timeout`.
  public init(
    path: String, mode: OpenMode = .create,
    busyTimeout: BusyTimeout = Database.defaultBusyTimeout
  ) throws(SQLiteError) {
    var connection: SQLiteConnection?
    // NOMUTEX: the type is not Sendable, so SQLite's own mutexes add nothing.
    let code = sqlite3_open_v2(
      mode._fileName(for: path), &connection, mode._flags | SQLITE_OPEN_NOMUTEX, nil)
    guard let connection else {
      throw SQLiteError(
        code: SQLiteResultCode(rawValue: code == SQLITE_OK ? SQLITE_NOMEM : code),
        message: "cannot open database at \(path)")
    }
    guard code == SQLITE_OK else {
      let error = SQLiteError(
        code: SQLiteResultCode(rawValue: sqlite3_extended_errcode(connection)),
        message: "\(String(cString: sqlite3_errmsg(connection))) (\(path))")
      sqlite3_close_v2(connection)
      throw error
    }
    self.handle = connection
    self.path = path
    sqlite3_extended_result_codes(connection, 1)
    setBusyTimeout(busyTimeout)
  }

  deinit {
    sqlite3_close_v2(handle)
  }

  /// Sets how long to wait for another connection's lock.
  ///
  /// - Parameter timeout: The wait, clamped to `Int32.max` milliseconds;
  ///   `.zero` or less fails at once with `SQLITE_BUSY`.
  ///
  /// The corresponding SQLite call is `sqlite3_busy_timeout`.
  public func setBusyTimeout(_ timeout: BusyTimeout) {
    sqlite3_busy_timeout(handle, Int32(clamping: max(0, timeout.milliseconds)))
  }

  /// The latest error message on this connection.
  ///
  /// The corresponding SQLite call is `sqlite3_errmsg`.
  public var lastErrorMessage: String {
    String(cString: sqlite3_errmsg(handle))
  }

  /// The rowid of the latest successful `INSERT` on this connection.
  ///
  /// The corresponding SQLite call is `sqlite3_last_insert_rowid`.
  public var lastInsertRowID: Int64 {
    sqlite3_last_insert_rowid(handle)
  }

  /// The rows changed by the latest `INSERT`, `UPDATE` or `DELETE`.
  ///
  /// The corresponding SQLite call is `sqlite3_changes`.
  public var changes: Int {
    Int(sqlite3_changes(handle))
  }

  /// Whether a transaction is open (the connection is not in autocommit).
  ///
  /// The corresponding SQLite call is `sqlite3_get_autocommit`.
  public var isInsideTransaction: Bool {
    sqlite3_get_autocommit(handle) == 0
  }

  /// Compiles one SQL statement.
  ///
  /// - Parameter sql: One statement; text after it (other than white space
  ///   and comments) is an error, so use ``execute(sql:)`` for scripts.
  /// - Returns: The prepared statement.
  /// - Throws: ``SQLiteError`` carrying `sql` if it does not compile.
  ///
  /// The corresponding SQLite call is `sqlite3_prepare_v2`.
  public func prepare(_ sql: String) throws(SQLiteError) -> Statement {
    var statements: [Statement] = []
    // Compile at most two: a second one means the text was a script.
    try _prepare(sql) { (statement) throws(SQLiteError) in
      statements.append(statement)
      return statements.count < 2
    }
    guard let statement = statements.first else {
      throw SQLiteError(
        code: .misuse, message: "no sql statement to prepare", sql: sql)
    }
    guard statements.count == 1 else {
      throw SQLiteError(
        code: .misuse,
        message: "prepare accepts one statement; use execute(sql:) for scripts",
        sql: sql)
    }
    return statement
  }

  /// Runs a script of zero or more statements, discarding any rows.
  ///
  /// - Parameter sql: Statements separated by semicolons.
  /// - Throws: ``SQLiteError`` carrying the failing statement's SQL; the
  ///   statements before it have run.
  ///
  /// The corresponding SQLite calls are `sqlite3_prepare_v2` and
  /// `sqlite3_step`.
  public func execute(sql: String) throws(SQLiteError) {
    try _prepare(sql) { (statement) throws(SQLiteError) in
      while try statement.step() {}
      return true
    }
  }

  /// Runs one statement with arguments, discarding any rows.
  ///
  /// - Parameters:
  ///   - sql: One statement with `?` placeholders.
  ///   - arguments: One value per placeholder.
  /// - Throws: ``SQLiteError`` carrying `sql`.
  public func execute(
    _ sql: String, arguments: [SQLiteValue]
  ) throws(SQLiteError) {
    let statement = try prepare(sql)
    try statement.bind(arguments)
    while try statement.step() {}
  }

  /// Runs one query and copies every row out.
  ///
  /// - Parameters:
  ///   - sql: One statement with `?` placeholders.
  ///   - arguments: One value per placeholder.
  /// - Returns: The rows, in order.
  /// - Throws: ``SQLiteError`` carrying `sql`.
  public func query(
    _ sql: String, arguments: [SQLiteValue] = []
  ) throws(SQLiteError) -> [Row] {
    let statement = try prepare(sql)
    try statement.bind(arguments)
    return try statement.allRows()
  }

  /// Compiles each statement of `sql` in turn and hands it to `body`, which
  /// returns whether to go on to the next one.
  func _prepare(
    _ sql: String,
    _ body: (Statement) throws(SQLiteError) -> Bool
  ) throws(SQLiteError) {
    var utf8 = Array(sql.utf8)
    utf8.append(0)
    let count = utf8.count
    try utf8.withUnsafeBufferPointer { (buffer) throws(SQLiteError) in
      try buffer.withMemoryRebound(to: CChar.self) { (chars) throws(SQLiteError) in
        guard let start = chars.baseAddress else { return }
        var cursor = start
        let end = start + (count - 1)
        while cursor < end {
          var raw: OpaquePointer?
          var tail: UnsafePointer<CChar>?
          let remaining = Int32(clamping: end - cursor)
          let code = sqlite3_prepare_v2(handle, cursor, remaining, &raw, &tail)
          // On failure the tail is not a statement boundary, so the error
          // names the rest of the script from the failing statement on.
          let consumed = code == SQLITE_OK ? (tail ?? end) : end
          let text = String(
            decoding: UnsafeRawBufferPointer(start: cursor, count: consumed - cursor),
            as: UTF8.self
          ).trimmingSQLWhitespace()
          guard code == SQLITE_OK else {
            throw _error(code: code, sql: text.isEmpty ? sql : text)
          }
          cursor = consumed
          guard let raw else { continue }  // Only white space or a comment.
          let statement = Statement(database: self, handle: raw, sql: text)
          guard try body(statement) else { return }
        }
      }
    }
  }

  /// Builds an error from a failing result code and this connection's
  /// message.
  func _error(code: Int32, sql: String?) -> SQLiteError {
    let extended = sqlite3_extended_errcode(handle)
    // The connection's code can be stale when `code` came from elsewhere.
    let resultCode = (extended & 0xFF) == (code & 0xFF) ? extended : code
    return SQLiteError(
      code: SQLiteResultCode(rawValue: resultCode), message: lastErrorMessage,
      sql: sql)
  }

  /// Throws if `code` is not `SQLITE_OK`.
  func _check(_ code: Int32, sql: String? = nil) throws(SQLiteError) {
    guard code == SQLITE_OK else { throw _error(code: code, sql: sql) }
  }
}

@available(*, unavailable)
extension Database: Sendable {}

extension String {
  /// Drops leading and trailing ASCII white space (SQL text only).
  fileprivate func trimmingSQLWhitespace() -> String {
    let isSpace: (Unicode.Scalar) -> Bool = {
      $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" || $0 == "\u{0C}"
    }
    let scalars = unicodeScalars
    guard let first = scalars.firstIndex(where: { !isSpace($0) }),
      let last = scalars.lastIndex(where: { !isSpace($0) })
    else {
      return ""
    }
    return String(Substring(scalars[first...last]))
  }
}
