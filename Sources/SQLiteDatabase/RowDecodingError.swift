/// Why a row cannot give a column as the caller asked: the column is
/// missing, NULL where a value is needed, or of another storage class (a
/// schema that drifted, or a damaged database), never read as a silent 0 or
/// empty string.
public struct RowDecodingError: Error, Hashable, Sendable, CustomStringConvertible {
  /// What is wrong with the column.
  public enum Problem: String, Hashable, Sendable {
    case missing = "is missing"
    case null = "is null"
    case notInteger = "holds no integer"
    case notText = "holds no text"
    case notNumber = "holds no number"
  }

  /// The column name as asked for.
  public var column: String
  /// What is wrong with it.
  public var problem: Problem

  /// Creates an error.
  public init(column: String, problem: Problem) {
    self.column = column
    self.problem = problem
  }

  /// `column is null`, `column holds no integer`, ….
  public var description: String { "\(column) \(problem.rawValue)" }
}
