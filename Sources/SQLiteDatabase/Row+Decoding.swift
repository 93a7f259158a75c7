/// Typed columns by name: each getter checks the storage class, so a row
/// of a drifted schema is a ``RowDecodingError``, never a default value.
extension Row {
  /// The value of `column`; a column the row lacks is an error.
  public func value(_ column: String) throws(RowDecodingError) -> SQLiteValue {
    guard let value = self[column] else { throw RowDecodingError(column: column, problem: .missing) }
    return value
  }

  /// An INTEGER column, or nil for NULL.
  public func optionalInt64(_ column: String) throws(RowDecodingError) -> Int64? {
    switch try value(column) {
    case .null: return nil
    case .integer(let value): return value
    default: throw RowDecodingError(column: column, problem: .notInteger)
    }
  }

  /// An INTEGER column that is never NULL.
  public func int64(_ column: String) throws(RowDecodingError) -> Int64 {
    guard let value = try optionalInt64(column) else { throw RowDecodingError(column: column, problem: .null) }
    return value
  }

  /// An INTEGER column as an `Int`, or nil for NULL.
  public func optionalInt(_ column: String) throws(RowDecodingError) -> Int? {
    try optionalInt64(column).map { Int($0) }
  }

  /// An INTEGER column as an `Int` that is never NULL.
  public func int(_ column: String) throws(RowDecodingError) -> Int {
    Int(try int64(column))
  }

  /// A TEXT column, or nil for NULL.
  public func optionalText(_ column: String) throws(RowDecodingError) -> String? {
    switch try value(column) {
    case .null: return nil
    case .text(let value): return value
    default: throw RowDecodingError(column: column, problem: .notText)
    }
  }

  /// A TEXT column that is never NULL.
  public func text(_ column: String) throws(RowDecodingError) -> String {
    guard let value = try optionalText(column) else { throw RowDecodingError(column: column, problem: .null) }
    return value
  }

  /// A REAL (or INTEGER) column as a `Double`, or nil for NULL.
  public func optionalDouble(_ column: String) throws(RowDecodingError) -> Double? {
    switch try value(column) {
    case .null: return nil
    case .real(let value): return value
    case .integer(let value): return Double(value)
    default: throw RowDecodingError(column: column, problem: .notNumber)
    }
  }
}
