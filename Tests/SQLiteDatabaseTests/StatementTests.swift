import Foundation
import SQLiteDatabase
import Testing

@Suite struct StatementTests {
  private func makeDatabase() throws -> Database {
    let db = try Database(path: ":memory:")
    try db.execute(sql: "CREATE TABLE v(i, r, t, b, n)")
    return db
  }

  @Test func bindsAndReadsEveryTypeByIndex() throws {
    let db = try makeDatabase()
    let insert = try db.prepare("INSERT INTO v VALUES (?, ?, ?, ?, ?)")
    #expect(insert.parameterCount == 5)
    try insert.bind(Int64.min, at: 1)
    try insert.bind(-0.125, at: 2)
    try insert.bind("🚫 d\u{E9}marchage\u{0}tail", at: 3)
    try insert.bind([0x00, 0xFF, 0x10] as [UInt8], at: 4)
    try insert.bindNull(at: 5)
    #expect(try insert.step() == false)

    let select = try db.prepare("SELECT i, r, t, b, n FROM v")
    #expect(select.columnNames == ["i", "r", "t", "b", "n"])
    #expect(try select.step())
    #expect(select.columnType(at: 0) == .integer)
    #expect(select.int64(at: 0) == Int64.min)
    #expect(select.columnType(at: 1) == .real)
    #expect(select.double(at: 1) == -0.125)
    #expect(select.columnType(at: 2) == .text)
    #expect(select.string(at: 2) == "🚫 d\u{E9}marchage\u{0}tail")  // NUL kept
    #expect(select.columnType(at: 3) == .blob)
    #expect(select.bytes(at: 3) == [0x00, 0xFF, 0x10])
    #expect(select.data(at: 3) == Data([0x00, 0xFF, 0x10]))
    #expect(select.isNull(at: 4))
    #expect(select.string(at: 4) == nil)
    #expect(select.bytes(at: 4) == nil)
    #expect(try select.step() == false)
  }

  @Test func bindsByName() throws {
    let db = try makeDatabase()
    let insert = try db.prepare("INSERT INTO v(i, r, t, b, n) VALUES (:i, @r, $t, :b, :n)")
    try insert.bind(.integer(Int64.max), named: ":i")
    try insert.bind(.real(1e300), named: "@r")
    try insert.bind(.text("x"), named: "$t")
    try insert.bind(Data([1, 2]), at: 4)
    try insert.bind(.null, named: "n")  // Bare name means ":n".
    _ = try insert.step()

    let error = #expect(throws: SQLiteError.self) {
      try insert.bind(.integer(1), named: ":missing")
    }
    #expect(error?.primaryCode == .range)
    #expect(error?.message == "no parameter named :missing")

    let row = try #require(try db.query("SELECT * FROM v").first)
    #expect(row.values == [.integer(Int64.max), .real(1e300), .text("x"), .blob([1, 2]), .null])
    #expect(row["T"] == .text("x"))
    #expect(row["nope"] == nil)
  }

  @Test func emptyTextAndBlobAreNotNull() throws {
    let db = try makeDatabase()
    try db.execute("INSERT INTO v(t, b) VALUES (?, ?)", arguments: [.text(""), .blob([])])
    let select = try db.prepare("SELECT t, b, typeof(t), typeof(b) FROM v")
    #expect(try select.step())
    #expect(select.string(at: 0) == "")
    #expect(select.bytes(at: 1) == [])
    #expect(select.string(at: 2) == "text")
    #expect(select.string(at: 3) == "blob")
  }

  @Test func queryReturnsRowsInOrder() throws {
    let db = try makeDatabase()
    try db.execute(sql: "INSERT INTO v(i, t) VALUES (2, 'b'), (1, 'a'), (3, 'c')")
    let rows = try db.query("SELECT i, t FROM v WHERE i >= ? ORDER BY i", arguments: [2])
    #expect(rows.map(\.values) == [[.integer(2), .text("b")], [.integer(3), .text("c")]])
    #expect(rows.first?.columnNames == ["i", "t"])
  }

  @Test func resetRunsTheStatementAgain() throws {
    let db = try makeDatabase()
    let insert = try db.prepare("INSERT INTO v(i) VALUES (?)")
    for value in Int64(1)...100 {
      insert.reset()
      try insert.bind(value, at: 1)
      #expect(try insert.step() == false)
    }
    #expect(try db.query("SELECT sum(i) FROM v").first?[0] == .integer(5050))

    let select = try db.prepare("SELECT i FROM v ORDER BY i LIMIT 2")
    var seen: [Int64] = []
    try select.forEachRow { seen.append($0.int64(at: 0)) }
    select.reset()
    try select.forEachRow { seen.append($0.int64(at: 0)) }
    #expect(seen == [1, 2, 1, 2])
  }

  @Test func wrongArgumentCountIsAnError() throws {
    let db = try makeDatabase()
    let error = #expect(throws: SQLiteError.self) {
      try db.execute("INSERT INTO v(i) VALUES (?)", arguments: [1, 2])
    }
    #expect(error?.message == "expected 1 arguments, got 2")
    #expect(error?.sql == "INSERT INTO v(i) VALUES (?)")
  }

  @Test func badIndexIsARangeError() throws {
    let db = try makeDatabase()
    let insert = try db.prepare("INSERT INTO v(i) VALUES (?)")
    let error = #expect(throws: SQLiteError.self) { try insert.bind(1.5, at: 2) }
    #expect(error?.primaryCode == .range)
  }

  @Test func statementKeepsItsDatabaseAlive() throws {
    var statement: Statement?
    do {
      let db = try Database(path: ":memory:")
      statement = try db.prepare("SELECT 40 + 2")
    }
    let select = try #require(statement)
    #expect(try select.step())
    #expect(select.int64(at: 0) == 42)
  }
}
