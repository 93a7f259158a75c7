import Foundation
import Testing

/// A device's own files that do not hold what calldir wrote: the message
/// names the file, the place in it and what was expected there.
@Suite struct StateFileMessagesTests {
  let directory: TemporaryDirectory

  init() throws {
    directory = try TemporaryDirectory()
  }

  /// A store at version 1 and a phone synced to it.
  func syncedPhone() throws -> (store: SyncStore, key: String, phone: SyncDevice) {
    let store = SyncStore(in: directory)
    let key = try store.publicKeyFile()
    let phone = SyncDevice(path: directory.path("phone"))
    try store.publish(1)
    _ = try phone.synced(from: store.root, key: key)
    return (store, key, phone)
  }

  @Test func aMalformedSyncStateNamesThePlaceAndWhatWasExpected() throws {
    let (store, key, phone) = try syncedPhone()
    let statePath = phone.path + "/sync/state.json"
    let state = try String(contentsOfFile: statePath, encoding: .utf8)
    let damaged = state.replacingOccurrences(of: #""digest":""#, with: #""digest":"X"#)
    #expect(damaged != state, "\(state)")
    try Data(damaged.utf8).write(to: URL(fileURLWithPath: statePath))
    let sync = try phone.sync(from: store.root, key: key)
    #expect(sync.status == 65)
    #expect(
      sync.standardError
        == "error: the sync state \(statePath) is malformed: extensions[0].digest: expected 64 lowercase hex digits; "
        + "run 'calldir device reset' to start over\n")

    try Data(#"{"dataset":"com.example.blocklist","version":0}"#.utf8).write(to: URL(fileURLWithPath: statePath))
    let json = try phone.sync(from: store.root, key: key, ["--json"])
    #expect(json.status == 65)
    #expect(json.standardError.contains("is malformed: published: expected a string; run 'calldir device reset'"))
    #expect((try jsonObject(json.standardOutput)["error"] as? [String: Any])?["kind"] as? String == "state")
  }

  @Test func aCorruptExtensionRecordNamesThePlaceAndWhatWasExpected() throws {
    let phone = try syncedPhone().phone
    let records = try FileManager.default.subpathsOfDirectory(atPath: phone.path).filter { $0.hasSuffix("extension.json") }
    let record = phone.path + "/" + (try #require(records.sorted().first))
    let text = try String(contentsOfFile: record, encoding: .utf8)
    let damaged = text.replacingOccurrences(of: #""traceLimit":"#, with: #""traceLimit":"many","was":"#)
    #expect(damaged != text, "\(text)")
    try Data(damaged.utf8).write(to: URL(fileURLWithPath: record))
    let status = try CalldirProcess.run(["device", "status", "--device", phone.path])
    #expect(status.status != 0)
    #expect(status.standardError.contains("\(record) is corrupt: settings.traceLimit: expected an integer"), "\(status.standardError)")
  }
}
