import CSQLite

/// A SQLite result code, primary or extended.
///
/// Extended codes keep the primary code in their low 8 bits
/// (`SQLITE_CONSTRAINT_UNIQUE` is 2067, primary 19). Use ``primary`` to test
/// the family, or pattern-match a primary code against an error:
///
///     catch SQLiteResultCode.constraint { … }
public struct SQLiteResultCode: RawRepresentable, Hashable, Sendable,
  CustomStringConvertible
{
  /// The C value.
  public let rawValue: Int32

  /// Creates a result code from its C value.
  public init(rawValue: Int32) {
    self.rawValue = rawValue
  }

  /// The primary code: the low 8 bits of an extended code.
  public var primary: SQLiteResultCode {
    SQLiteResultCode(rawValue: rawValue & 0xFF)
  }

  /// The English text SQLite gives for this code.
  ///
  /// The corresponding SQLite call is `sqlite3_errstr`.
  public var description: String {
    String(cString: sqlite3_errstr(rawValue))
  }

  /// Matches an error whose primary or extended code equals `code`.
  public static func ~= (code: SQLiteResultCode, error: any Error) -> Bool {
    guard let error = error as? SQLiteError else { return false }
    return code ~= error
  }

  /// Matches an error whose primary or extended code equals `code`.
  ///
  /// This overload serves `do` blocks whose errors are typed
  /// `throws(SQLiteError)`, without boxing the error.
  public static func ~= (code: SQLiteResultCode, error: SQLiteError) -> Bool {
    error.code == code || error.primaryCode == code
  }

  /// `SQLITE_OK`: success.
  public static let ok = SQLiteResultCode(rawValue: SQLITE_OK)
  /// `SQLITE_ERROR`: generic error, including SQL syntax errors.
  public static let error = SQLiteResultCode(rawValue: SQLITE_ERROR)
  /// `SQLITE_BUSY`: the database file is locked by another connection.
  public static let busy = SQLiteResultCode(rawValue: SQLITE_BUSY)
  /// `SQLITE_LOCKED`: a table is locked inside the same shared cache.
  public static let locked = SQLiteResultCode(rawValue: SQLITE_LOCKED)
  /// `SQLITE_NOMEM`: a memory allocation failed.
  public static let noMemory = SQLiteResultCode(rawValue: SQLITE_NOMEM)
  /// `SQLITE_READONLY`: an attempt to write a read-only database.
  public static let readOnly = SQLiteResultCode(rawValue: SQLITE_READONLY)
  /// `SQLITE_IOERR`: a disk I/O error.
  public static let ioError = SQLiteResultCode(rawValue: SQLITE_IOERR)
  /// `SQLITE_CORRUPT`: the database file is malformed.
  public static let corrupt = SQLiteResultCode(rawValue: SQLITE_CORRUPT)
  /// `SQLITE_FULL`: the disk is full.
  public static let full = SQLiteResultCode(rawValue: SQLITE_FULL)
  /// `SQLITE_CANTOPEN`: the database file could not be opened.
  public static let cantOpen = SQLiteResultCode(rawValue: SQLITE_CANTOPEN)
  /// `SQLITE_CONSTRAINT`: a constraint (UNIQUE, NOT NULL, CHECK, …) failed.
  public static let constraint = SQLiteResultCode(rawValue: SQLITE_CONSTRAINT)
  /// `SQLITE_MISMATCH`: a data type mismatch.
  public static let mismatch = SQLiteResultCode(rawValue: SQLITE_MISMATCH)
  /// `SQLITE_MISUSE`: the library was used incorrectly.
  public static let misuse = SQLiteResultCode(rawValue: SQLITE_MISUSE)
  /// `SQLITE_RANGE`: a bind index or parameter name is out of range.
  public static let range = SQLiteResultCode(rawValue: SQLITE_RANGE)
  /// `SQLITE_NOTADB`: the file is not a database.
  public static let notADatabase = SQLiteResultCode(rawValue: SQLITE_NOTADB)
  /// `SQLITE_ROW`: a step produced a row.
  public static let row = SQLiteResultCode(rawValue: SQLITE_ROW)
  /// `SQLITE_DONE`: a step finished.
  public static let done = SQLiteResultCode(rawValue: SQLITE_DONE)
}
