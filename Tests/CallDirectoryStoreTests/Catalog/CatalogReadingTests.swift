import Foundation
import SQLiteDatabase
import Testing

@testable import CallDirectoryCompiler
@testable import CallDirectoryStore

/// `Catalog.openForReading`: the one way commands open an existing store.
@Suite struct CatalogReadingTests {
  let root: String

  init() throws {
    root = temporaryPath("store")
  }

  func isNoCatalog(_ error: StoreError?, _ store: String) -> Bool {
    guard case .noCatalog(store)? = error else { return false }
    return true
  }

  @Test func aMissingStoreOrCatalogIsNoCatalog() throws {
    defer { try? FileManager.default.removeItem(atPath: root) }
    let store = StoreLayout(root: root)
    var error = #expect(throws: StoreError.self) { try Catalog.openForReading(store) }
    #expect(isNoCatalog(error, root))
    #expect(error?.description == "no catalog in \(root) (nothing published yet; run 'calldir build' first)")
    try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    error = #expect(throws: StoreError.self) { try Catalog.openForReading(store) }
    #expect(isNoCatalog(error, root))
    // An empty file holds no schema: still nothing published, and nothing is created.
    #expect(FileManager.default.createFile(atPath: store.catalog, contents: Data()))
    error = #expect(throws: StoreError.self) { try Catalog.openForReading(store) }
    #expect(isNoCatalog(error, root))
    #expect(try FileManager.default.contentsOfDirectory(atPath: root) == ["catalog.sqlite"])
  }

  @Test func aPublishedCatalogReadsBackAndANewerSchemaIsRefused() throws {
    defer { try? FileManager.default.removeItem(atPath: root) }
    try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    let store = StoreLayout(root: root + "/")
    _ = try Catalog(path: store.catalog)
    #expect(try Catalog.openForReading(store).allSnapshots().isEmpty)
    try Database(path: store.catalog, mode: .readWrite).setUserVersion(Catalog.schemaVersion + 1)
    let error = #expect(throws: StoreError.self) { try Catalog.openForReading(store) }
    guard case .catalog(let message)? = error else {
      Issue.record("unexpected error \(String(describing: error))")
      return
    }
    #expect(message.contains("schema version \(Catalog.schemaVersion + 1) is newer"))
  }
}
