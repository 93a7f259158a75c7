import Foundation
import SQLiteDatabase
import Testing

private struct BodyFailure: Error, Equatable {
  let tag: String
}

@Suite struct DatabaseTests {
  @Test func createsAndReopensAFile() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = directory.path("catalog.sqlite")
    do {
      let db = try Database(path: path)
      try db.execute(sql: "CREATE TABLE t(x INTEGER); INSERT INTO t VALUES (1), (2);")
      #expect(db.changes == 2)
    }
    #expect(FileManager.default.fileExists(atPath: path))
    let reader = try Database(path: path, mode: .readOnly)
    #expect(try reader.query("SELECT count(*) FROM t").first?[0] == .integer(2))
    #expect {
      try reader.execute(sql: "INSERT INTO t VALUES (3)")
    } throws: { error in
      (error as? SQLiteError)?.primaryCode == .readOnly
    }
  }

  @Test func openingAMissingFileWithoutCreateFails() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = directory.path("missing.sqlite")
    for mode in [Database.OpenMode.readOnly, .readWrite, .immutable] {
      let error = #expect(throws: SQLiteError.self) {
        _ = try Database(path: path, mode: mode)
      }
      #expect(error?.primaryCode == .cantOpen)
      #expect(error?.message.contains(path) == true)
    }
    #expect(!FileManager.default.fileExists(atPath: path))
  }

  @Test func notADatabaseFails() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = directory.path("junk.sqlite")
    try Data(repeating: 0x41, count: 4096).write(to: URL(fileURLWithPath: path))
    let db = try Database(path: path)
    let error = #expect(throws: SQLiteError.self) {
      _ = try db.query("SELECT * FROM sqlite_master")
    }
    #expect(error?.primaryCode == .notADatabase)
  }

  @Test func walModeIsSetUpAndChecked() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let db = try Database(path: directory.path("wal.sqlite"))
    try db.setUpWALMode()
    #expect(try db.journalMode() == "wal")
    #expect(try db.query("PRAGMA synchronous").first?[0] == .integer(1))  // NORMAL
    try db.setUpWALMode(synchronous: .full)
    #expect(try db.query("PRAGMA synchronous").first?[0] == .integer(2))  // FULL

    // An in-memory database cannot use WAL; the check must notice.
    let memory = try Database(path: ":memory:")
    let error = #expect(throws: SQLiteError.self) { try memory.setUpWALMode() }
    #expect(error?.message == "could not enable wal mode (journal mode is memory)")
    #expect(error?.sql == "PRAGMA journal_mode = WAL")
  }

  @Test func immutableReadsAWALDatabaseWithoutSideFiles() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    // Characters a `file:` URI would otherwise read as syntax.
    let folder = directory.path("a ?b#c%20d")
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let path = folder + "/wal.sqlite"
    do {
      let db = try Database(path: path)
      try db.setUpWALMode()
      try db.execute(sql: "CREATE TABLE t(x INTEGER); INSERT INTO t VALUES (1), (2), (3);")
    }
    // A clean close checkpoints and removes the WAL and its index.
    #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
    let reader = try Database(path: path, mode: .immutable)
    #expect(reader.path == path)
    #expect(try reader.query("SELECT count(*) FROM t").first?[0] == .integer(3))
    #expect(!FileManager.default.fileExists(atPath: path + "-shm"))
    #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
    #expect {
      try reader.execute(sql: "INSERT INTO t VALUES (4)")
    } throws: { error in
      (error as? SQLiteError)?.primaryCode == .readOnly
    }
  }

  @Test func userVersionRoundTrips() throws {
    let db = try Database(path: ":memory:")
    #expect(try db.userVersion() == 0)
    try db.setUserVersion(7)
    #expect(try db.userVersion() == 7)
    try db.setUserVersion(-1)
    #expect(try db.userVersion() == -1)
  }

  @Test func lastInsertRowIDAndChanges() throws {
    let db = try Database(path: ":memory:")
    try db.execute(sql: "CREATE TABLE t(id INTEGER PRIMARY KEY, x)")
    try db.execute("INSERT INTO t(id, x) VALUES (?, ?)", arguments: [41, "a"])
    #expect(db.lastInsertRowID == 41)
    try db.execute("INSERT INTO t(x) VALUES (?)", arguments: ["b"])
    #expect(db.lastInsertRowID == 42)
    try db.execute("UPDATE t SET x = ?", arguments: ["c"])
    #expect(db.changes == 2)
  }
}

@Suite struct TransactionTests {
  private func makeDatabase() throws -> Database {
    let db = try Database(path: ":memory:")
    try db.execute(sql: "CREATE TABLE t(x INTEGER NOT NULL UNIQUE)")
    return db
  }

  private func count(_ db: Database) throws -> Int64? {
    try db.query("SELECT count(*) FROM t").first?[0].int64
  }

  @Test(arguments: TransactionKind.allCases)
  func commits(_ kind: TransactionKind) throws {
    let db = try makeDatabase()
    let value = try db.withTransaction(kind) {
      #expect(db.isInsideTransaction)
      try db.execute("INSERT INTO t VALUES (?)", arguments: [1])
      return "done"
    }
    #expect(value == "done")
    #expect(!db.isInsideTransaction)
    #expect(try count(db) == 1)
  }

  @Test(arguments: TransactionKind.allCases)
  func rollsBackAndRethrowsTheBodyError(_ kind: TransactionKind) throws {
    let db = try makeDatabase()
    #expect(throws: BodyFailure(tag: "boom")) {
      try db.withTransaction(kind) {
        try db.execute("INSERT INTO t VALUES (?)", arguments: [1])
        throw BodyFailure(tag: "boom")
      }
    }
    #expect(!db.isInsideTransaction)
    #expect(try count(db) == 0)
  }

  @Test func rollsBackOnASQLiteErrorInTheBody() throws {
    let db = try makeDatabase()
    let error = #expect(throws: SQLiteError.self) {
      try db.withTransaction {
        try db.execute("INSERT INTO t VALUES (?)", arguments: [1])
        try db.execute("INSERT INTO t VALUES (?)", arguments: [1])  // duplicate
      }
    }
    #expect(error?.primaryCode == .constraint)
    #expect(!db.isInsideTransaction)
    #expect(try count(db) == 0)
  }

  @Test func nestedTransactionIsAnError() throws {
    let db = try makeDatabase()
    let error = #expect(throws: SQLiteError.self) {
      try db.withTransaction { try db.withTransaction {} }
    }
    #expect(error?.message.contains("within a transaction") == true)
    #expect(!db.isInsideTransaction)
  }
}

@Suite struct ErrorTests {
  @Test func constraintErrorCarriesCodesMessageAndSQL() throws {
    let db = try Database(path: ":memory:")
    try db.execute(sql: "CREATE TABLE t(id INTEGER PRIMARY KEY, n INTEGER UNIQUE)")
    try db.execute("INSERT INTO t(n) VALUES (?)", arguments: [5])
    let sql = "INSERT INTO t(n) VALUES (?)"
    let error = #expect(throws: SQLiteError.self) {
      try db.execute(sql, arguments: [5])
    }
    #expect(error?.code.rawValue == 2067)  // SQLITE_CONSTRAINT_UNIQUE
    #expect(error?.primaryCode == .constraint)
    #expect(error?.sql == sql)
    #expect(
      error?.description
        == "sqlite error 19: UNIQUE constraint failed: t.n - while executing `\(sql)`")
    #expect(error?.isBusy == false)

    // Pattern matching on the primary code, in a typed-throws do block.
    do {
      try db.execute(sql, arguments: [5])
      Issue.record("expected a constraint error")
    } catch SQLiteResultCode.constraint {
      // Matched.
    } catch {
      Issue.record("unexpected \(error)")
    }
    // And in an untyped one.
    do {
      try db.withTransaction { try db.execute(sql, arguments: [5]) }
      Issue.record("expected a constraint error")
    } catch SQLiteResultCode.constraint {
      // Matched.
    }
  }

  @Test func scriptErrorNamesTheFailingStatement() throws {
    let db = try Database(path: ":memory:")
    let error = #expect(throws: SQLiteError.self) {
      try db.execute(sql: "CREATE TABLE a(x);\nINSERT INTO nope VALUES (1);")
    }
    #expect(error?.message == "no such table: nope")
    #expect(error?.sql == "INSERT INTO nope VALUES (1);")
    #expect(error?.description.contains("while executing `INSERT INTO nope") == true)
    // The statement before the failing one ran.
    #expect(try db.query("SELECT name FROM sqlite_master").first?["name"] == .text("a"))
  }

  @Test func syntaxErrorCarriesTheSQL() throws {
    let db = try Database(path: ":memory:")
    let error = #expect(throws: SQLiteError.self) { _ = try db.prepare("SELEC 1") }
    #expect(error?.primaryCode == .error)
    #expect(
      error?.description
        == "sqlite error 1: near \"SELEC\": syntax error - while executing `SELEC 1`")
  }

  @Test func prepareRejectsScriptsAndEmptyText() throws {
    let db = try Database(path: ":memory:")
    #expect(throws: SQLiteError.self) { _ = try db.prepare("SELECT 1; SELECT 2") }
    #expect(throws: SQLiteError.self) { _ = try db.prepare("  -- nothing\n") }
    // A trailing semicolon and comment are fine.
    #expect(try db.prepare("SELECT 1; -- done").sql == "SELECT 1;")
  }

  struct LockCase: CustomTestStringConvertible, Sendable {
    let journal: String
    let holderSQL: String
    let otherSQL: String
    var testDescription: String { "\(journal): \(holderSQL) blocks \(otherSQL)" }
  }

  @Test(arguments: [
    LockCase(journal: "wal", holderSQL: "BEGIN IMMEDIATE", otherSQL: "BEGIN IMMEDIATE"),
    LockCase(journal: "wal", holderSQL: "BEGIN EXCLUSIVE", otherSQL: "INSERT INTO t VALUES (2)"),
    LockCase(journal: "delete", holderSQL: "BEGIN EXCLUSIVE", otherSQL: "SELECT count(*) FROM t"),
  ])
  func lockedDatabaseIsBusy(_ testCase: LockCase) throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = directory.path("busy.sqlite")
    let holder = try Database(path: path)
    if testCase.journal == "wal" { try holder.setUpWALMode() }
    try holder.execute(sql: "CREATE TABLE t(x); INSERT INTO t VALUES (1);")
    try holder.execute(sql: testCase.holderSQL)
    if testCase.journal == "delete" {
      // EXCLUSIVE takes the lock at once in rollback-journal mode.
      try holder.execute(sql: "INSERT INTO t VALUES (3)")
    }

    let other = try Database(path: path, busyTimeout: .zero)
    let error = #expect(throws: SQLiteError.self) {
      try other.execute(sql: testCase.otherSQL)
    }
    #expect(error?.isBusy == true)
    #expect(error?.primaryCode == .busy)
    #expect(error?.sql == testCase.otherSQL)

    try holder.execute(sql: "COMMIT")
    try other.execute(sql: "SELECT count(*) FROM t")  // Free again.
  }

  @Test func busyTransactionLeavesNoTransactionOpen() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = directory.path("busy.sqlite")
    let holder = try Database(path: path)
    try holder.setUpWALMode()
    try holder.execute(sql: "CREATE TABLE t(x)")
    try holder.execute(sql: "BEGIN IMMEDIATE")
    let other = try Database(path: path, busyTimeout: .milliseconds(0))
    var bodyRan = false
    let error = #expect(throws: SQLiteError.self) {
      try other.withTransaction(.immediate) { bodyRan = true }
    }
    #expect(error?.isBusy == true)
    #expect(!bodyRan)
    #expect(!other.isInsideTransaction)
    try holder.execute(sql: "ROLLBACK")
  }

  @available(macOS 13, iOS 16, *)  // ContinuousClock
  @Test func busyTimeoutWaitsBeforeFailing() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = directory.path("busy.sqlite")
    let holder = try Database(path: path)
    try holder.setUpWALMode()
    try holder.execute(sql: "CREATE TABLE t(x); BEGIN IMMEDIATE;")
    let other = try Database(path: path, busyTimeout: .milliseconds(150))
    let start = ContinuousClock.now
    let error = #expect(throws: SQLiteError.self) {
      try other.execute(sql: "BEGIN IMMEDIATE")
    }
    #expect(error?.isBusy == true)
    #expect(ContinuousClock.now - start >= .milliseconds(100))
    try holder.execute(sql: "ROLLBACK")
  }
}
