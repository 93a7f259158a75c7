import CallDirectorySync
import Testing

/// The sync state and the rollback floors name what is wrong with a state
/// file by its path in the document: `<path>: expected <what>`.
@Suite struct StateFileDecodingTests {
  static let digest = String(repeating: "ab", count: 32)

  static let stateCases: [(text: String, reason: String)] = [
    ("[]", "(root): expected an object"),
    (#"{"published":"p","version":1,"incrementalSyncs":0,"extensions":[]}"#, "dataset: expected a string"),
    (#"{"dataset":7,"published":"p","version":1,"incrementalSyncs":0,"extensions":[]}"#, "dataset: expected a string"),
    (#"{"dataset":"d","published":null,"version":1,"incrementalSyncs":0,"extensions":[]}"#, "published: expected a string"),
    (#"{"dataset":"d","published":"p","version":1,"incrementalSyncs":0,"extensions":{}}"#, "extensions: expected an array"),
    (#"{"dataset":"d","published":"p","version":1,"incrementalSyncs":0,"extensions":[1]}"#, "extensions[0]: expected an object"),
    (
      #"{"dataset":"d","published":"p","version":1,"incrementalSyncs":0,"extensions":[{"index":1,"version":1},{"version":1}]}"#,
      "extensions[1].index: expected an integer"
    ),
    (
      #"{"dataset":"d","published":"p","version":1,"incrementalSyncs":0,"extensions":[{"index":0,"version":1}]}"#,
      "extensions[0].index: expected at least 1, got 0"
    ),
    (
      #"{"dataset":"d","published":"p","version":1,"incrementalSyncs":0,"extensions":[{"index":2,"version":1},{"index":2,"version":1}]}"#,
      "extensions[1].index: expected an extension not listed before, got 2"
    ),
    (
      #"{"dataset":"d","published":"p","version":1,"incrementalSyncs":0,"extensions":[{"index":1,"version":1.5}]}"#,
      "extensions[0].version: expected an integer"
    ),
    (
      #"{"dataset":"d","published":"p","version":1,"incrementalSyncs":0,"extensions":[{"index":1,"version":1,"digest":7}]}"#,
      "extensions[0].digest: expected a string"
    ),
    (
      #"{"dataset":"d","published":"p","version":1,"incrementalSyncs":0,"extensions":[{"index":1,"version":1,"digest":"AB"}]}"#,
      "extensions[0].digest: expected 64 lowercase hex digits"
    ),
    (#"{"dataset":"d","published":"p","version":0,"incrementalSyncs":0,"extensions":[]}"#, "version: expected at least 1, got 0"),
    (#"{"dataset":"d","published":"p","version":1,"extensions":[]}"#, "incrementalSyncs: expected an integer"),
    (#"{"dataset":"d","published":"p","version":1,"incrementalSyncs":-1,"extensions":[]}"#, "incrementalSyncs: expected at least 0, got -1"),
  ]

  @Test func aMalformedSyncStateSaysWhereAndWhat() throws {
    let directory = try TemporaryDirectory()
    let store = SyncStateStore(path: directory.path("state.json"))
    for (text, reason) in Self.stateCases {
      _ = try directory.write("state.json", text)
      #expect(throws: SyncError.stateMalformed(path: store.path, reason: reason), "\(text)") { try store.load() }
    }
    #expect(
      SyncError.stateMalformed(path: "/s/state.json", reason: "version: expected at least 1, got 0").description
        == "the sync state /s/state.json is malformed: version: expected at least 1, got 0")
  }

  @Test func aSyncStateWithNullOrAbsentDigestsLoads() throws {
    let directory = try TemporaryDirectory()
    let store = SyncStateStore(path: directory.path("state.json"))
    _ = try directory.write(
      "state.json",
      #"{"dataset":"d","published":"p","version":3,"incrementalSyncs":1,"note":1,"extensions":[{"index":2,"version":3,"digest":null},{"index":1,"version":2,"digest":"\#(Self.digest)"}]}"#)
    let state = try #require(try store.load())
    #expect(state.dataset == "d" && state.version == 3 && state.published == "p" && state.incrementalSyncs == 1)
    #expect(state.extensions == [1: 2, 2: 3])
    #expect(state.digests == [1: Self.digest])
  }

  static let floorCases: [(text: String, reason: String)] = [
    ("3", "(root): expected an object"),
    (#"{}"#, "floors: expected an array"),
    (#"{"floors":{"x":1}}"#, "floors: expected an array"),
    (#"{"floors":["x"]}"#, "floors[0]: expected an object"),
    (#"{"floors":[{"dataset":"a","version":1},{"version":1}]}"#, "floors[1].dataset: expected a string"),
    (#"{"floors":[{"dataset":"a","version":"1"}]}"#, "floors[0].version: expected an integer"),
    (#"{"floors":[{"dataset":"a","version":0}]}"#, "floors[0].version: expected at least 1, got 0"),
    (
      #"{"floors":[{"dataset":"a","version":1},{"dataset":"a","version":2}]}"#,
      "floors[1].dataset: expected a dataset not listed before, got 'a'"
    ),
  ]

  @Test func aMalformedRollbackFloorSaysWhereAndWhat() throws {
    let directory = try TemporaryDirectory()
    let floors = RollbackFloorStore(path: directory.path("rollback-floor.json"))
    for (text, reason) in Self.floorCases {
      _ = try directory.write("rollback-floor.json", text)
      #expect(throws: SyncError.rollbackFloorMalformed(path: floors.path, reason: reason), "\(text)") { try floors.load() }
    }
    _ = try directory.write("rollback-floor.json", #"{"floors":[{"dataset":"a","version":4,"x":0},{"dataset":"b","version":1}]}"#)
    #expect(try floors.load() == ["a": 4, "b": 1])
  }
}
