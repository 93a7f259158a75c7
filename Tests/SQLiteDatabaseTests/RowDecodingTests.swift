import SQLiteDatabase
import Testing

/// Typed columns check the storage class SQLite gives, so a drifted
/// schema is an error naming the column, never a default value.
@Suite struct RowDecodingTests {
  private func row() throws -> Row {
    let db = try Database(path: ":memory:")
    let rows = try db.query("SELECT 42 AS n, NULL AS missing_value, 'text' AS t, 2.5 AS r, x'00' AS b")
    return try #require(rows.first)
  }

  @Test func eachGetterReadsItsStorageClass() throws {
    let row = try row()
    #expect(try row.int64("n") == 42)
    #expect(try row.int("N") == 42)
    #expect(try row.optionalInt64("missing_value") == nil)
    #expect(try row.optionalInt("n") == 42)
    #expect(try row.text("t") == "text")
    #expect(try row.optionalText("missing_value") == nil)
    #expect(try row.optionalDouble("r") == 2.5)
    #expect(try row.optionalDouble("n") == 42)
    #expect(try row.value("b") == .blob([0]))
  }

  @Test(arguments: [
    ("absent", RowDecodingError.Problem.missing, "int64"),
    ("missing_value", .null, "int64"),
    ("missing_value", .null, "text"),
    ("t", .notInteger, "int64"),
    ("n", .notText, "text"),
    ("b", .notNumber, "double"),
    ("r", .notInteger, "optionalInt"),
  ])
  func aColumnOfAnotherClassIsAnError(column: String, problem: RowDecodingError.Problem, getter: String) throws {
    let row = try row()
    #expect(throws: RowDecodingError(column: column, problem: problem)) {
      switch getter {
      case "int64": _ = try row.int64(column)
      case "text": _ = try row.text(column)
      case "double": _ = try row.optionalDouble(column)
      default: _ = try row.optionalInt(column)
      }
    }
  }

  @Test func theErrorNamesTheColumnAndTheProblem() {
    #expect(RowDecodingError(column: "version", problem: .notInteger).description == "version holds no integer")
  }
}
