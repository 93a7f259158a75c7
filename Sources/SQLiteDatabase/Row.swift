/// One result row copied out of a statement.
public struct Row: Hashable, Sendable {
  /// The column names, in result order.
  public let columnNames: [String]
  /// The values, in result order.
  public let values: [SQLiteValue]

  /// Creates a row.
  public init(columnNames: [String], values: [SQLiteValue]) {
    self.columnNames = columnNames
    self.values = values
  }

  /// The number of columns.
  public var count: Int { values.count }

  /// The value at a column index, or `.null` if the index is out of range.
  public subscript(index: Int) -> SQLiteValue {
    values.indices.contains(index) ? values[index] : .null
  }

  /// The value of the first column with this name (case-insensitive, like
  /// SQL), or `nil` if there is none.
  public subscript(name: String) -> SQLiteValue? {
    let lowered = name.lowercased()
    guard let index = columnNames.firstIndex(where: { $0.lowercased() == lowered })
    else {
      return nil
    }
    return values[index]
  }
}
