import CallKitMock
import Foundation
import Testing

/// A simulated device the tests sync, and what it holds as the CLI shows it.
struct SyncDevice {
  let path: String

  /// `calldir device sync --device PATH --from FROM --public-key KEY ARGUMENTS…`,
  /// killed after `timeout` seconds when given.
  func sync(
    from: String, key: String, _ arguments: [String] = [], environment: [String: String] = [:], timeout: Double? = nil
  ) throws -> CalldirProcess.Result {
    try CalldirProcess.run(
      ["device", "sync", "--device", path, "--from", from, "--public-key", key] + arguments, environment: environment,
      timeout: timeout)
  }

  /// A sync that must succeed, and its `--json` object.
  func synced(
    from: String, key: String, _ arguments: [String] = [], sourceLocation: SourceLocation = #_sourceLocation
  ) throws -> [String: Any] {
    let result = try sync(from: from, key: key, ["--json"] + arguments)
    try #require(result.status == 0, "\(result.standardError)", sourceLocation: sourceLocation)
    return try jsonObject(result.standardOutput)
  }

  /// `calldir device dump`.
  func dump() throws -> String {
    let result = try CalldirProcess.run(["device", "dump", "--device", path])
    try #require(result.status == 0, "\(result.standardError)")
    return result.standardOutput
  }

  /// The entries of one extension, as `device dump` prints them (read in-process).
  func dump(extension index: Int) throws -> String {
    let device = try SimulatedDevice(directoryURL: URL(fileURLWithPath: path, isDirectory: true))
    var text = ""
    try device.forEachMergedEntry(
      inExtensionsWithIdentifiers: ["calldir.extension.\(index)"], blocking: { text += "block\t\($0)\n" },
      identification: { text += "identify\t\($0.number)\t\($0.label)\n" })
    return text
  }

  /// The installed extensions.
  func extensions() throws -> [String] {
    try SimulatedDevice(directoryURL: URL(fileURLWithPath: path, isDirectory: true)).installedExtensionIdentifiers()
  }

  /// `device status --json`: its `sync` object (nil for `null`) and extensions.
  func status() throws -> (sync: [String: Any]?, extensions: [[String: Any]]) {
    let result = try CalldirProcess.run(["device", "status", "--device", path, "--json"])
    try #require(result.status == 0, "\(result.standardError)")
    let object = try jsonObject(result.standardOutput)
    return (object["sync"] as? [String: Any], object["extensions"] as? [[String: Any]] ?? [])
  }

  /// The synced version `device status` shows.
  func syncedVersion() throws -> Int? {
    try status().sync?["version"] as? Int
  }

  /// What the device holds: its dump and its sync state, to compare before and after.
  func snapshot() throws -> String {
    let state = try CalldirProcess.run(["device", "status", "--device", path, "--json"])
    let sync = try jsonObject(state.standardOutput)["sync"] ?? NSNull()
    let text = try JSONSerialization.data(withJSONObject: sync, options: [.sortedKeys, .fragmentsAllowed])
    return try dump() + "\nsync: " + String(decoding: text, as: UTF8.self)
  }

  /// The files in the device's staging area.
  func staged() -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: path + "/sync/staging")) ?? []).sorted()
  }

  /// Expects the device to hold `version` of `store` exactly: the whole
  /// dump and each extension's entries are `inspect --entries` of the
  /// snapshot and of its shards; and its sync state records the version
  /// (or, `recorded` false, nothing: the state was lost).
  func expectHolds(
    _ store: SyncStore, version: Int, recorded: Bool = true, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    #expect(try dump() == inspectEntries(try store.snapshotPath(version)), "version \(version)", sourceLocation: sourceLocation)
    let paths = try store.extensionPaths(version)
    #expect(try extensions().count == paths.count, "version \(version)", sourceLocation: sourceLocation)
    for (index, shard) in paths {
      #expect(
        try dump(extension: index) == inspectEntries(shard), "version \(version), extension \(index)",
        sourceLocation: sourceLocation)
    }
    #expect(try syncedVersion() == (recorded ? version : nil), sourceLocation: sourceLocation)
  }
}

/// `calldir inspect --entries PATH`.
func inspectEntries(_ path: String) throws -> String {
  let result = try CalldirProcess.run(["inspect", "--entries", path])
  try #require(result.status == 0, "\(result.standardError)")
  return result.standardOutput
}
