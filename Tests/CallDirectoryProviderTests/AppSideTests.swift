import CallDirectoryFormat
import CallDirectoryProvider
import CallKitMock
import Foundation
import Testing

/// What an app does around a reload: place blobs, and record the outcome
/// the system reported.
@Suite struct AppSideTests {
  @Test func placingABlobMakesItTheOnlyData() throws {
    let directory = try TemporaryDirectory()
    let layout = ProviderLayout(containerPath: directory.path("container"))
    let v1 = try sampleSnapshot(version: 1, count: 20).encoded()
    let source = directory.path("v1.cdir")
    try Data(v1).write(to: URL(fileURLWithPath: source))
    try FileManager.default.createDirectory(atPath: layout.dataDirectory, withIntermediateDirectories: true)
    for name in ["old.cdir", ".old.cdir.tmp-1-1"] {
      try Data("old".utf8).write(to: URL(fileURLWithPath: layout.dataDirectory + "/" + name))
    }
    let placed = try layout.replaceData(withBlobAt: source)
    #expect(placed == layout.dataDirectory + "/v1.cdir")
    #expect(try FileManager.default.contentsOfDirectory(atPath: layout.dataDirectory) == ["v1.cdir"])
    #expect(try Data(contentsOf: URL(fileURLWithPath: placed)) == Data(v1))
    try layout.replaceData(withBlobAt: source, named: "current.cdir")
    #expect(try FileManager.default.contentsOfDirectory(atPath: layout.dataDirectory) == ["current.cdir"])

    let missing = #expect(throws: CallDirectoryProviderError.self) {
      try layout.replaceData(withBlobAt: directory.path("missing.cdir"))
    }
    #expect(missing?.errorCode == 11)
    #expect(try FileManager.default.contentsOfDirectory(atPath: layout.dataDirectory) == ["current.cdir"])
  }

  /// Placing a blob removes the other files, a symbolic link as a link
  /// (never what it points to), and never a directory or what is in it.
  @Test func placingABlobNeverRemovesThroughALinkOrADirectory() throws {
    let directory = try TemporaryDirectory()
    let layout = ProviderLayout(containerPath: directory.path("container"))
    let source = directory.path("v1.cdir")
    try Data(try sampleSnapshot(version: 1, count: 20).encoded()).write(to: URL(fileURLWithPath: source))
    let elsewhere = directory.path("elsewhere")
    try FileManager.default.createDirectory(atPath: elsewhere + "/inside", withIntermediateDirectories: true)
    try Data("keep".utf8).write(to: URL(fileURLWithPath: elsewhere + "/inside/file"))
    try FileManager.default.createDirectory(atPath: layout.dataDirectory + "/folder", withIntermediateDirectories: true)
    try Data("keep".utf8).write(to: URL(fileURLWithPath: layout.dataDirectory + "/folder/file"))
    try FileManager.default.createSymbolicLink(atPath: layout.dataDirectory + "/link", withDestinationPath: elsewhere)
    try layout.replaceData(withBlobAt: source)
    #expect(try FileManager.default.contentsOfDirectory(atPath: layout.dataDirectory).sorted() == ["folder", "v1.cdir"])
    #expect(FileManager.default.fileExists(atPath: layout.dataDirectory + "/folder/file"))
    #expect(FileManager.default.fileExists(atPath: elsewhere + "/inside/file"))
  }

  @Test func theAppRecordsWhatTheSystemReported() throws {
    let directory = try TemporaryDirectory()
    let store = ProviderStateStore(path: directory.path("state.json"))
    let v1 = try sampleSnapshot(version: 1, count: 10).identity()
    let v2 = try sampleSnapshot(version: 2, count: 12).identity()
    let previous = ProviderState(loaded: v1)
    let plan = LoadPlan(strategy: .replace, blob: nil, target: v2, held: v1)
    // The extension wrote "pending" and never learned the outcome.
    try store.save(ProviderState(loaded: v1, pending: v2))
    #expect(try store.recordReloadOutcome(of: plan, previous: previous, committed: true) == ProviderState(loaded: v2))
    #expect(try store.load() == ProviderState(loaded: v2))
    try store.save(ProviderState(loaded: v1, pending: v2))
    #expect(try store.recordReloadOutcome(of: plan, previous: previous, committed: false) == previous)
    #expect(try store.load() == previous)
  }

  @Test func aMalformedStateIsUnknownButAnUnreadableOneRefusesTheRequest() throws {
    let harness = try Harness()
    let v1 = sampleSnapshot(version: 1, count: 30)
    try harness.load([("v1.cdir", try v1.encoded())])
    let store = ProviderStateStore(path: harness.layout.statePath)
    try Data("{\"version\": 1".utf8).write(to: URL(fileURLWithPath: store.path))
    #expect(try store.loadForPlanning() == ProviderState())
    let malformed = #expect(throws: CallDirectoryProviderError.self) { try store.load() }
    #expect(malformed?.errorCode == 10)

    // A directory where the state file should be: reading it fails.
    try FileManager.default.removeItem(atPath: store.path)
    try FileManager.default.createDirectory(atPath: store.path, withIntermediateDirectories: false)
    let unreadable = #expect(throws: CallDirectoryProviderError.self) { try store.loadForPlanning() }
    #expect(unreadable?.errorCode == 6)
    let before = try harness.storeBytes()
    let report = try harness.load([("v2.cdir", try sampleSnapshot(version: 2, count: 40).encoded())])
    #expect((report.error as? CallDirectoryProviderError)?.errorCode == 6)
    #expect(report.trace == [.readIncremental(true), .cancel(domain: CallDirectoryProviderError.errorDomain, code: 6)])
    #expect(try harness.storeBytes() == before)
  }
}
