import CSQLite
import Foundation

/// The storage class of a column in the current row.
public enum SQLiteColumnType: Sendable, Hashable {
  /// `SQLITE_INTEGER`.
  case integer
  /// `SQLITE_FLOAT`.
  case real
  /// `SQLITE_TEXT`.
  case text
  /// `SQLITE_BLOB`.
  case blob
  /// `SQLITE_NULL`.
  case null
}

extension Statement {
  /// The number of result columns.
  ///
  /// The corresponding SQLite call is `sqlite3_column_count`.
  public var columnCount: Int {
    Int(sqlite3_column_count(handle))
  }

  /// The result column names, in order.
  ///
  /// The corresponding SQLite call is `sqlite3_column_name`.
  public var columnNames: [String] {
    (0..<columnCount).map { index in
      sqlite3_column_name(handle, Int32(index)).map { String(cString: $0) } ?? ""
    }
  }

  /// The storage class of a column in the current row.
  ///
  /// The corresponding SQLite call is `sqlite3_column_type`.
  public func columnType(at index: Int) -> SQLiteColumnType {
    switch sqlite3_column_type(handle, Int32(clamping: index)) {
    case SQLITE_INTEGER: return .integer
    case SQLITE_FLOAT: return .real
    case SQLITE_TEXT: return .text
    case SQLITE_BLOB: return .blob
    default: return .null
    }
  }

  /// Whether a column of the current row is `NULL`.
  public func isNull(at index: Int) -> Bool {
    columnType(at: index) == .null
  }

  /// A column of the current row as an integer (SQLite converts; `NULL` is 0).
  ///
  /// The corresponding SQLite call is `sqlite3_column_int64`.
  public func int64(at index: Int) -> Int64 {
    sqlite3_column_int64(handle, Int32(clamping: index))
  }

  /// A column of the current row as a double (SQLite converts; `NULL` is 0).
  ///
  /// The corresponding SQLite call is `sqlite3_column_double`.
  public func double(at index: Int) -> Double {
    sqlite3_column_double(handle, Int32(clamping: index))
  }

  /// A column of the current row as text, or `nil` if it is `NULL`.
  ///
  /// Invalid UTF-8 stored in the column is repaired with U+FFFD.
  ///
  /// The corresponding SQLite calls are `sqlite3_column_text` and
  /// `sqlite3_column_bytes`.
  public func string(at index: Int) -> String? {
    let column = Int32(clamping: index)
    guard sqlite3_column_type(handle, column) != SQLITE_NULL else { return nil }
    guard let text = sqlite3_column_text(handle, column) else { return "" }
    let count = Int(sqlite3_column_bytes(handle, column))
    return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
  }

  /// A column of the current row as bytes, or `nil` if it is `NULL`.
  ///
  /// The corresponding SQLite calls are `sqlite3_column_blob` and
  /// `sqlite3_column_bytes`.
  public func bytes(at index: Int) -> [UInt8]? {
    let column = Int32(clamping: index)
    guard sqlite3_column_type(handle, column) != SQLITE_NULL else { return nil }
    // Call blob before bytes, as SQLite documents; a zero-length blob is nil.
    guard let blob = sqlite3_column_blob(handle, column) else { return [] }
    let count = Int(sqlite3_column_bytes(handle, column))
    return [UInt8](UnsafeRawBufferPointer(start: blob, count: count))
  }

  /// A column of the current row as `Data`, or `nil` if it is `NULL`.
  public func data(at index: Int) -> Data? {
    bytes(at: index).map { Data($0) }
  }

  /// A column of the current row in its own storage class.
  public func value(at index: Int) -> SQLiteValue {
    switch columnType(at: index) {
    case .integer: return .integer(int64(at: index))
    case .real: return .real(double(at: index))
    case .text: return .text(string(at: index) ?? "")
    case .blob: return .blob(bytes(at: index) ?? [])
    case .null: return .null
    }
  }
}
