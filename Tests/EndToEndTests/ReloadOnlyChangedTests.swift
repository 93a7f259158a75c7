import CallDirectorySync
import CallKitMock
import Foundation
import Sodium
import Testing

/// The phone pays only for what changed (issue 34): a sharded store whose
/// new version changes some shards; `device sync` sends no reload request
/// to the extensions whose content digest is the manifest's, plans the
/// others by the entries they reload (a one-entry delta beats a full blob
/// with fewer bytes), reports those entries and their seconds, and the
/// next version's delta applies to an extension the sync moved forward
/// without a reload. `build --json` forecasts the same for a device one
/// version behind.
@Suite struct ReloadOnlyChangedTests {
  let directory: TemporaryDirectory
  /// The scattered blocking numbers (shards 1 to 3 of 800 entries each).
  static let scattered = (0..<2400).map { "+1212\(String(format: "%07d", 1000 + $0 * 3989))" }

  init() throws {
    directory = try TemporaryDirectory()
    let key = try CalldirProcess.run(["keygen", "--output", directory.path("key")])
    try #require(key.status == 0, "\(key.standardError)")
  }

  /// Writes the sources: `blocking` scattered numbers, a run of 1,000
  /// (shard 4 and part of 5) less `allowed`, and 150 names (shard 5), the
  /// first labelled `firstLabel`.
  func write(blocking: [String], allowed: [String] = [], firstLabel: String = "Name 0") throws {
    try directory.write("block.txt", blocking.joined(separator: "\n") + "\n")
    try directory.write("run.txt", "+19005550###\n")
    try directory.write("allow.txt", allowed.map { $0 + "\n" }.joined())
    try directory.write(
      "names.csv",
      "phone,name\n"
        + (0..<150).map { "+44 20 7946 \(String(format: "%04d", $0)),\($0 == 0 ? firstLabel : "Name \($0 % 7)")" }
        .joined(separator: "\n"))
    try directory.write("calldir.json", """
      {"dataset": "com.example.shards", "maxEntriesPerExtension": 1000, "maxRemovalRatio": 0.9,
       "signingKey": "\(directory.path("key.key"))", "sources": [
        {"path": "block.txt", "format": "lines", "list": "block"},
        {"path": "run.txt", "format": "patterns", "list": "block"},
        {"path": "allow.txt", "format": "lines", "list": "allow"},
        {"path": "names.csv", "format": "csv", "list": "identify", "number": "phone", "label": "name"}]}
      """)
  }

  /// `calldir build --json` of the sources, as of day `day`.
  func build(day: Int) throws -> [String: Any] {
    let result = try CalldirProcess.run([
      "build", "--config", directory.path("calldir.json"), "--store", store, "--json", "--as-of", "2026-12-0\(day)",
    ])
    try #require(result.status == 0, "\(result.standardError)")
    return try jsonObject(result.standardOutput)
  }

  var store: String { directory.path("store") }
  var key: String { directory.path("key.pub") }

  func servedManifest() throws -> Manifest {
    try Manifest(parsing: Array(try Data(contentsOf: URL(fileURLWithPath: store + "/manifest.json"))))
  }

  /// Each extension's reload count and provider version, `device status`'s.
  func reloads(_ device: SyncDevice) throws -> [Int: (count: Int, version: Int)] {
    var reloads: [Int: (count: Int, version: Int)] = [:]
    for item in try device.status().extensions {
      let identifier = try #require(item["identifier"] as? String)
      let index = try #require(Int(identifier.split(separator: ".").last ?? ""))
      reloads[index] = (try #require(item["reloadCount"] as? Int), try #require(item["version"] as? Int))
    }
    return reloads
  }

  /// Expects `device` to hold the build's version whole: the dump is the
  /// snapshot's entries and each extension's its shard's.
  func expectHolds(_ device: SyncDevice, _ build: [String: Any], sourceLocation: SourceLocation = #_sourceLocation) throws {
    #expect(try device.dump() == inspectEntries(try #require(build["snapshot"] as? String)), sourceLocation: sourceLocation)
    for shard in try #require(build["shards"] as? [[String: Any]]) {
      let index = try #require(shard["shard"] as? Int)
      #expect(
        try device.dump(extension: index) == inspectEntries(try #require(shard["path"] as? String)),
        "extension \(index)", sourceLocation: sourceLocation)
    }
  }

  /// The seconds a phone takes for `entries`, as `--json` rounds them.
  static func seconds(_ entries: Int) -> Double { (Double(entries) * 9e-6 * 1000).rounded() / 1000 }

  @Test func aSyncReloadsOnlyTheExtensionsThatChanged() throws {
    try write(blocking: Self.scattered)
    let v1 = try build(day: 1)
    let shards = try #require(v1["shards"] as? [[String: Any]])
    try #require(shards.count == 5, "\(shards)")
    #expect((v1["extensions"] as? [[String: Any]])?.allSatisfy { $0["oneVersionBehind"] is NSNull } == true)
    #expect(v1["oneVersionBehind"] is NSNull)
    let v1Manifest = try servedManifest()
    let phone = SyncDevice(path: directory.path("phone"))
    let first = try phone.synced(from: store, key: key)
    #expect(try #require(first["extensions"] as? [[String: Any]]).map { $0["strategy"] as? String } == Array(repeating: "full", count: 5))
    #expect(first["reloadEntries"] as? Int == (v1["counts"] as? [String: Int]).map { $0["blocking"]! + $0["identification"]! })
    // A second phone stays at version 1, for an older app's manifest.
    let legacy = SyncDevice(path: directory.path("legacy"))
    _ = try legacy.synced(from: store, key: key)

    // Version 2: one number more in shard 1, one less in the middle of the
    // run (shard 4), a label changed (shard 5); shards 2 and 3 as they were.
    try write(blocking: ["+12120000005"] + Self.scattered, allowed: ["+19005550100"], firstLabel: "Renamed")
    let v2 = try build(day: 2)
    let manifest = try servedManifest()
    let unchanged = Set(zip(v1Manifest.extensions, manifest.extensions).filter { $0.digest == $1.digest }.map(\.1.index))
    #expect(unchanged == [2, 3])
    for item in manifest.extensions {
      #expect(item.deltas.isEmpty == unchanged.contains(item.index), "extension \(item.index): \(item.deltas)")
    }
    let deltaFiles = try FileManager.default.contentsOfDirectory(atPath: store + "/deltas").filter { $0.contains("shard") }
    #expect(deltaFiles.sorted() == [1, 4, 5].map { "delta-000001-000002-shard-0\($0).cdir" })
    let runDelta = try #require(manifest.extensions[3].deltas.first)
    #expect(runDelta.file.bytes > manifest.extensions[3].full.bytes, "the run's delta is larger than its full blob")
    #expect(manifest.extensions.map { $0.deltas.first?.entries ?? 0 } == [1, 0, 0, 1, 2])

    // build --json: what a device at version 1 reloads.
    let forecasts = try #require(v2["extensions"] as? [[String: Any]]).map { try #require($0["oneVersionBehind"] as? [String: Any]) }
    #expect(forecasts.map { $0["strategy"] as? String } == ["delta", "unchanged", "unchanged", "delta", "delta"])
    #expect(forecasts.map { $0["reloadEntries"] as? Int } == [1, 0, 0, 1, 2])
    #expect(forecasts.allSatisfy { $0["from"] as? Int == 1 && $0["reloadSeconds"] as? Double == Self.seconds($0["reloadEntries"] as? Int ?? -1) })
    let behind = try #require(v2["oneVersionBehind"] as? [String: Any])
    #expect(behind["from"] as? Int == 1 && behind["reloadEntries"] as? Int == 4 && behind["reloadSeconds"] as? Double == Self.seconds(4))
    #expect(behind["reloadedExtensions"] as? Int == 3 && behind["unchangedExtensions"] as? Int == 2)

    // device sync: no request reaches extensions 2 and 3.
    let second = try phone.synced(from: store, key: key)
    let synced = try #require(second["extensions"] as? [[String: Any]])
    #expect(synced.map { $0["strategy"] as? String } == ["delta", "unchanged", "unchanged", "delta", "delta"])
    for (item, info) in zip(manifest.extensions, synced) {
      let expected = item.deltas.first?.entries ?? 0
      #expect(info["reloadEntries"] as? Int == expected && info["reloadSeconds"] as? Double == Self.seconds(expected), "\(info)")
      if unchanged.contains(item.index) {
        #expect(info["downloaded"] as? Int == 0 && info["path"] is NSNull && info["durationSeconds"] is NSNull)
      }
    }
    #expect(second["reloadEntries"] as? Int == 4 && second["reloadSeconds"] as? Double == Self.seconds(4))
    let downloaded = manifest.extensions.compactMap { $0.deltas.first?.file.bytes }.reduce(0, +)
    #expect(second["downloaded"] as? Int == Int(downloaded))
    var counts = try reloads(phone)
    #expect(counts.mapValues(\.count) == [1: 2, 2: 1, 3: 1, 4: 2, 5: 2])
    #expect(counts.values.allSatisfy { $0.version == 2 })
    #expect(try phone.syncedVersion() == 2)
    try expectHolds(phone, v2)
    #expect(try phone.sync(from: store, key: key).standardOutput.contains("already up to date (version 2)"))

    // Version 3 changes shard 2, which version 2 left as it was: its delta
    // from version 2 applies to the extension the sync moved forward.
    try write(
      blocking: ["+12120000005"] + Self.scattered.enumerated().filter { $0.offset != 1200 }.map(\.element),
      allowed: ["+19005550100"], firstLabel: "Renamed")
    let v3 = try build(day: 3)
    let v3Manifest = try servedManifest()
    #expect(v3Manifest.extensions[1].deltas.map(\.from) == [2, 1])
    let third = try phone.sync(from: store, key: key)
    #expect(third.status == 0, "\(third.standardError)")
    #expect(third.standardOutput.contains("synced to version 3 (from version 2), \(v3Manifest.extensions[1].deltas[0].file.bytes) bytes downloaded, 1 entry reloaded"), "\(third.standardOutput)")
    #expect(third.standardOutput.contains("extension 2: delta 2 → 3"), "\(third.standardOutput)")
    #expect(third.standardOutput.contains("extension 3: unchanged since version 2 (the content digest the manifest names), no reload"))
    counts = try reloads(phone)
    #expect(counts.mapValues(\.count) == [1: 2, 2: 2, 3: 1, 4: 2, 5: 2])
    #expect(counts.values.allSatisfy { $0.version == 3 })
    try expectHolds(phone, v3)

    // An extension whose last request's outcome was never recorded (the
    // app was killed while the system loaded it) is not judged by its
    // digest: version 4 leaves shard 3 as it was, and it loads whole.
    let state = phone.path + "/extensions/calldir.extension.3/container/CallDirectory/state.json"
    var object = try jsonObject(try String(contentsOfFile: state, encoding: .utf8))
    object["pendingVersion"] = 4
    object["pendingDigest"] = String(repeating: "0", count: 64)
    try JSONSerialization.data(withJSONObject: object).write(to: URL(fileURLWithPath: state))
    try write(
      blocking: ["+12120000005", "+12120000006"] + Self.scattered.enumerated().filter { $0.offset != 1200 }.map(\.element),
      allowed: ["+19005550100"], firstLabel: "Renamed")
    let v4 = try build(day: 4)
    let fourth = try #require(try phone.synced(from: store, key: key)["extensions"] as? [[String: Any]])
    #expect(fourth.map { $0["strategy"] as? String } == ["delta", "unchanged", "full", "unchanged", "unchanged"], "\(fourth)")
    try expectHolds(phone, v4)

    // A manifest without the new keys (from an older calldir), to a phone
    // at version 1: planned as before, so the unchanged shards load whole.
    var old = v3Manifest
    for position in old.extensions.indices {
      old.extensions[position].digest = nil
      for delta in old.extensions[position].deltas.indices {
        old.extensions[position].deltas[delta].adds = nil
        old.extensions[position].deltas[delta].removes = nil
      }
    }
    let bytes = old.serialized()
    #expect(!String(decoding: bytes, as: UTF8.self).contains("\"digest\""))
    let secret = try String(contentsOfFile: directory.path("key.key"), encoding: .utf8)
    let secretBytes = try #require(Base64.decode(Array(secret.trimmingCharacters(in: .whitespacesAndNewlines).utf8)))
    let pair = try #require(Ed25519.keyPair(secret: secretBytes))
    try Data(bytes).write(to: URL(fileURLWithPath: store + "/manifest.json"))
    try Data((Base64.encode(try #require(Ed25519.sign(bytes, with: pair))) + "\n").utf8)
      .write(to: URL(fileURLWithPath: store + "/manifest.json.sig"))
    let legacySync = try legacy.synced(from: store, key: key)
    let legacySteps = try #require(legacySync["extensions"] as? [[String: Any]])
    // Shards 2 and 4 … have deltas from version 1; shard 3 never changed: no delta, a full load.
    #expect(legacySteps.map { $0["strategy"] as? String } == ["delta", "delta", "full", "delta", "delta"], "\(legacySteps)")
    #expect(legacySteps[2]["reloadEntries"] as? Int == v3Manifest.extensions[2].entries)
    try expectHolds(legacy, v3)
  }

  /// A sync that moves unchanged extensions forward without a reload, with
  /// a disk that stays full from each write or fsync on, or killed at calls
  /// spread over all it makes: every extension holds the entries of the
  /// version its provider state records (an unchanged one, either), the
  /// next plain sync reaches version 2, and no unchanged extension is ever
  /// reloaded, by the failed sync or the next.
  @Test func aFailedSyncNeverReloadsAnUnchangedExtension() throws {
    // Shards of 400 entries; the first 900 numbers stay: shards 1 and 2
    // never change, the others do.
    let syncStore = SyncStore(in: directory, size: 1200, maxEntriesPerExtension: 500, stableNumbers: 900)
    let key = try syncStore.publicKeyFile()
    let template = SyncDevice(path: directory.path("template"))
    try syncStore.publish(1)
    _ = try template.synced(from: syncStore.root, key: key)
    try syncStore.publish(2)
    let v2 = try inspectEntries(try syncStore.snapshotPath(2))
    var entries: [Int: [Int: String]] = [:]
    for version in [1, 2] {
      for (index, path) in try syncStore.extensionPaths(version) { entries[version, default: [:]][index] = try inspectEntries(path) }
    }
    let unchanged = Set(try #require(entries[1]).keys.filter { entries[1]?[$0] == entries[2]?[$0] })
    try #require(unchanged == [1, 2] && (entries[2]?.count ?? 0) >= 3, "unchanged: \(unchanged), of \(entries[2]?.count ?? 0)")

    let root = syncStore.root
    let base = directory.url.path + "/"
    @Sendable func run(_ label: String, rules: String?) throws -> (SyncDevice, CalldirProcess.Result, [String: Int]) {
      let device = SyncDevice(path: base + label)
      try FileManager.default.copyItem(atPath: template.path, toPath: device.path)
      var environment = ["CALLDIR_FAULT_COUNTS": base + label + ".counts"]
      if let rules { environment["CALLDIR_FAULTS"] = rules }
      let result = try device.sync(from: root, key: key, environment: environment, timeout: 120)
      return (device, result, (try? DeviceFaultInjectionTests.counts(base + label + ".counts")) ?? [:])
    }
    let (counted, result, counts) = try run("count", rules: nil)
    try #require(result.status == 0, "\(result.standardError)")
    let steps = try #require(try jsonObject(try counted.sync(from: root, key: key, ["--json"]).standardOutput)["extensions"] as? [[String: Any]])
    #expect(steps.allSatisfy { $0["strategy"] as? String == "upToDate" })
    var rules: [String] = []
    for occurrence in 1...max(1, counts["write"] ?? 0) { rules.append("write:\(occurrence)+:ENOSPC") }
    for occurrence in 1...max(1, counts["fsync"] ?? 0) { rules.append("fsync:\(occurrence)+:EIO") }
    let calls = counts["any"] ?? 0
    for occurrence in Swift.stride(from: 1, through: calls, by: max(1, calls / 40)) { rules.append("any:\(occurrence):crash") }
    #expect(rules.count >= 30, "too few calls counted: \(counts)")

    let problems = ProblemList()
    let allRules = rules
    let expected = entries
    DeviceFaultInjectionTests.forEach(allRules.count, width: 4) { index in
      let rule = allRules[index]
      do {
        let label = rule.replacingOccurrences(of: ":", with: "-").replacingOccurrences(of: "+", with: "p")
        let (device, result, _) = try run(label, rules: rule)
        let context = "\(rule): exit \(result.status): \(result.standardError)"
        if ![0, 1, 9, 74].contains(result.status) { problems.add("\(context): unexpected exit") }
        if let problem = try DeviceSyncFaultInjectionTests.disagreement(device, expected) { problems.add("\(context): \(problem)") }
        let next = try device.sync(from: root, key: key)
        let state = try SyncStateStore(path: device.path + "/sync/state.json").load()
        if try next.status != 0 || DeviceFaultInjectionTests.state(of: device.path).dump != v2 || state?.version != 2 {
          problems.add("\(context); the next sync: exit \(next.status): \(next.standardError)")
        }
        let simulated = try SimulatedDevice(existingDirectoryURL: URL(fileURLWithPath: device.path, isDirectory: true))
        for index in unchanged {
          let status = try simulated.status(forExtensionWithIdentifier: "calldir.extension.\(index)")
          if status.reloadCount != 1 { problems.add("\(context): extension \(index) was reloaded \(status.reloadCount) times") }
        }
      } catch {
        problems.add("\(rule): \(error)")
      }
    }
    for problem in problems.all { Issue.record(Comment(rawValue: problem)) }
  }
}

/// Problems found by several threads.
private final class ProblemList: @unchecked Sendable {
  private let lock = NSLock()
  private var list: [String] = []
  func add(_ problem: String) { lock.withLock { list.append(problem) } }
  var all: [String] { lock.withLock { list } }
}
