import CSQLite
import Foundation

extension Statement {
  /// The number of parameters (`?`, `?NNN`, `:name`, `@name`, `$name`).
  ///
  /// The corresponding SQLite call is `sqlite3_bind_parameter_count`.
  public var parameterCount: Int {
    Int(sqlite3_bind_parameter_count(handle))
  }

  /// Binds a value to a parameter by its 1-based index.
  ///
  /// Text and blobs are copied (`SQLITE_TRANSIENT`); an empty blob stays an
  /// empty blob, not `NULL`.
  ///
  /// - Parameters:
  ///   - value: The value.
  ///   - index: The parameter's index, starting at 1.
  /// - Throws: ``SQLiteError`` (`SQLITE_RANGE` for a bad index).
  ///
  /// The corresponding SQLite calls are `sqlite3_bind_null`,
  /// `sqlite3_bind_int64`, `sqlite3_bind_double`, `sqlite3_bind_text`,
  /// `sqlite3_bind_blob` and `sqlite3_bind_zeroblob`.
  public func bind(_ value: SQLiteValue, at index: Int) throws(SQLiteError) {
    let position = Int32(clamping: index)
    let code: Int32
    switch value {
    case .null:
      code = sqlite3_bind_null(handle, position)
    case .integer(let integer):
      code = sqlite3_bind_int64(handle, position, integer)
    case .real(let real):
      code = sqlite3_bind_double(handle, position, real)
    case .text(let text):
      // Explicit length: text may hold NUL characters. withCString always
      // yields a non-nil pointer, so "" binds as empty text, not NULL.
      let length = text.utf8.count
      guard length <= Int(Int32.max) else {
        throw SQLiteError(code: .range, message: "text too long to bind", sql: sql)
      }
      code = text.withCString {
        sqlite3_bind_text(handle, position, $0, Int32(length), _SQLITE_TRANSIENT)
      }
    case .blob(let bytes):
      guard bytes.count <= Int(Int32.max) else {
        throw SQLiteError(code: .range, message: "blob too long to bind", sql: sql)
      }
      code = bytes.withUnsafeBytes { buffer in
        guard let base = buffer.baseAddress, !buffer.isEmpty else {
          // A nil pointer would bind NULL; keep an empty blob.
          return sqlite3_bind_zeroblob(handle, position, 0)
        }
        return sqlite3_bind_blob(
          handle, position, base, Int32(buffer.count), _SQLITE_TRANSIENT)
      }
    }
    try database._check(code, sql: sql)
  }

  /// Binds a value to a named parameter.
  ///
  /// - Parameters:
  ///   - value: The value.
  ///   - name: The parameter's name with its prefix (`":id"`, `"@id"`,
  ///     `"$id"`); a bare name (`"id"`) is looked up as `":id"`.
  /// - Throws: ``SQLiteError`` with `SQLITE_RANGE` if there is no such
  ///   parameter.
  ///
  /// The corresponding SQLite call is `sqlite3_bind_parameter_index`.
  public func bind(_ value: SQLiteValue, named name: String) throws(SQLiteError) {
    var index = sqlite3_bind_parameter_index(handle, name)
    if index == 0, let first = name.first, !":@$?".contains(first) {
      index = sqlite3_bind_parameter_index(handle, ":" + name)
    }
    guard index > 0 else {
      throw SQLiteError(code: .range, message: "no parameter named \(name)", sql: sql)
    }
    try bind(value, at: Int(index))
  }

  /// Binds values to parameters 1, 2, … in order.
  ///
  /// - Parameter values: Exactly one value per parameter.
  /// - Throws: ``SQLiteError`` with `SQLITE_RANGE` if the count is wrong.
  public func bind(_ values: [SQLiteValue]) throws(SQLiteError) {
    guard values.count == parameterCount else {
      throw SQLiteError(
        code: .range,
        message: "expected \(parameterCount) arguments, got \(values.count)",
        sql: sql)
    }
    for (offset, value) in values.enumerated() {
      try bind(value, at: offset + 1)
    }
  }

  /// Binds an integer by 1-based index.
  public func bind(_ value: Int64, at index: Int) throws(SQLiteError) {
    try bind(.integer(value), at: index)
  }

  /// Binds a double by 1-based index.
  public func bind(_ value: Double, at index: Int) throws(SQLiteError) {
    try bind(.real(value), at: index)
  }

  /// Binds text by 1-based index.
  public func bind(_ value: String, at index: Int) throws(SQLiteError) {
    try bind(.text(value), at: index)
  }

  /// Binds a blob by 1-based index.
  public func bind(_ value: [UInt8], at index: Int) throws(SQLiteError) {
    try bind(.blob(value), at: index)
  }

  /// Binds a blob by 1-based index.
  public func bind(_ value: Data, at index: Int) throws(SQLiteError) {
    try bind(.blob([UInt8](value)), at: index)
  }

  /// Binds `NULL` by 1-based index.
  public func bindNull(at index: Int) throws(SQLiteError) {
    try bind(.null, at: index)
  }
}
