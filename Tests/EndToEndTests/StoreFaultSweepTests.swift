import CallDirectorySync
import Foundation
import SQLiteDatabase
import Sodium
import Testing

/// What a store publishes, as a reader and `history` see it: compared
/// between a faulted run finished by the next one and an unfaulted run.
struct PublishedState: Equatable, CustomStringConvertible {
  var manifest: Data?
  var signature: Data?
  /// Published files (snapshots, deltas, reports) by name, and their bytes.
  var files: [String: Data]
  /// Per version: digest, bytes, whether pruned, the bases of its deltas.
  var history: [String]

  init(_ store: String) throws {
    manifest = FileManager.default.contents(atPath: store + "/manifest.json")
    signature = FileManager.default.contents(atPath: store + "/manifest.json.sig")
    files = [:]
    for directory in ["snapshots", "deltas", "rejects"] {
      for name in (try? FileManager.default.contentsOfDirectory(atPath: store + "/" + directory)) ?? []
      where !name.hasPrefix(".") {
        files[directory + "/" + name] = FileManager.default.contents(atPath: store + "/" + directory + "/" + name)
      }
    }
    let listed = try CalldirProcess.run(["history", "--store", store, "--json"])
    try #require(listed.status == 0, "\(listed.standardError)")
    history = try #require(try parseJSON(listed.standardOutput)["versions"] as? [[String: Any]]).map { version in
      let deltas = (version["deltas"] as? [[String: Any]] ?? []).compactMap { $0["from"] as? Int }
      return "\(version["version"] ?? "") \(version["digest"] ?? "") \(version["bytes"] ?? "") "
        + "pruned:\(version["pruned"] is String) deltas:\(deltas)"
    }
  }

  var description: String {
    "manifest \(manifest?.count ?? -1) bytes, \(files.count) files, history \(history)"
  }
}

/// The points of a sweep over `count` calls: every call in the last
/// `dense` (where a command replaces what it publishes), one in `stride`
/// before, so that a sweep covers the whole run and stays quick.
func sweep(_ count: Int, stride step: Int, dense: Int) -> [Int] {
  let first = max(1, count - dense + 1)
  return Array(Swift.stride(from: 1, to: first, by: step)) + Array(first...max(first, count))
}

/// A crash at the Nth system call (`any:N:crash`) and a disk that stays
/// full (`write:N+:ENOSPC`, `fsync:N+:EIO`), swept over `build`, `prune`,
/// `repair` and `keygen`: after each, the store is consistent (the
/// manifest verifies with its signature, every version the catalog records
/// has its files or the next run puts them in place, nothing published is
/// lost), and the next run succeeds with the result of an unfaulted run.
@Suite struct StoreFaultSweepTests {
  /// A signed store with `versions` versions, built with `--as-of` (so
  /// that every copy publishes the same bytes).
  static func signedStore(versions: Int, extra: String = "") throws -> PublishingTests.SignedStore {
    let store = try PublishingTests.SignedStore(extra: extra)
    for version in 1...versions {
      try store.write(block: 100 + version * 3)
      let result = try store.build(asOf(version))
      try #require(result.status == 0, "\(result.standardError)")
    }
    return store
  }

  static func asOf(_ version: Int) -> [String] {
    ["--as-of", "2026-11-\(version < 10 ? "0" : "")\(version)"]
  }

  /// The calls of each kind a command made.
  static func calls(_ arguments: [String]) throws -> [String: Int] {
    let counts = try TemporaryDirectory()
    let result = try CalldirProcess.run(arguments, environment: ["CALLDIR_FAULT_COUNTS": counts.path("counts")])
    #expect(result.status == 0, "\(result.standardError)")
    return try faultCounts(counts.path("counts"))
  }

  /// The manifest in place verifies with its signature file, and names
  /// files whose sizes and SHA-256 are its own.
  static func expectServable(_ store: PublishingTests.SignedStore, _ context: String) {
    do {
      _ = try store.verifiedManifest()
    } catch {
      Issue.record("\(context): the manifest does not verify: \(error)")
    }
  }

  /// Every version the catalog records and has not pruned has its
  /// snapshot, under its published name or the pending one the next run
  /// puts in place.
  static func expectRecordedFilesThere(_ store: String, _ context: String) throws {
    let listed = try CalldirProcess.run(["history", "--store", store, "--json"])
    #expect(listed.status == 0, "\(context): \(listed.standardError)")
    guard listed.status == 0 else { return }
    for version in try #require(try parseJSON(listed.standardOutput)["versions"] as? [[String: Any]])
    where !(version["pruned"] is String) {
      let name = try #require(version["snapshot"] as? String)
      let path = name.hasPrefix("/") ? name : store + "/" + name
      let pending = (path as NSString).deletingLastPathComponent + "/.pending-" + (path as NSString).lastPathComponent
      #expect(
        FileManager.default.fileExists(atPath: path) || FileManager.default.fileExists(atPath: pending),
        "\(context): version \(version["version"] ?? "") has no snapshot")
    }
    #expect(try integrityCheck(store + "/catalog.sqlite") == "ok", "\(context)")
  }

  // MARK: - build

  @Test func aBuildKilledAtAnyCallOrOnAFullDiskLeavesAStoreTheNextBuildFinishes() throws {
    let reference = try Self.signedStore(versions: 2)
    try reference.write(block: 140)
    let arguments = Self.asOf(3)
    let counted = try PublishingTests.SignedStore(copying: reference)
    let calls = try Self.calls(["build", "--config", counted.config, "--store", counted.store] + arguments)
    let expected = try PublishedState(counted.store)
    #expect(expected.history.count == 3)
    let faults = sweep(calls["any"] ?? 0, stride: 9, dense: 25).map { "any:\($0):crash" }
      + (1...max(1, calls["write"] ?? 0)).map { "write:\($0)+:ENOSPC" }
      + Swift.stride(from: 1, through: max(1, calls["fsync"] ?? 0), by: 3).map { "fsync:\($0)+:EIO" }
    for fault in faults {
      let store = try PublishingTests.SignedStore(copying: reference)
      let result = try CalldirProcess.run(
        ["build", "--config", store.config, "--store", store.store] + arguments, environment: ["CALLDIR_FAULTS": fault])
      let context = "\(fault): \(result.status) \(result.standardError)"
      if !fault.hasSuffix("crash") {
        #expect(result.status == 0 || result.status == 74, "\(context)")
      }
      Self.expectServable(store, context)
      try Self.expectRecordedFilesThere(store.store, context)
      let next = try store.build(arguments)
      #expect(next.status == 0, "\(context) then \(next.standardError)")
      #expect(try PublishedState(store.store) == expected, "\(context)")
      Self.expectServable(store, context)
    }
  }

  /// A delta, a shard or a base that cannot be written or read fails the
  /// build (74): the version is never published without a delta it should
  /// have, and the next build publishes it with every one.
  @Test func aVersionIsNeverPublishedWithoutADeltaItShouldHave() throws {
    let reference = try Self.signedStore(versions: 3, extra: #""maxEntriesPerExtension": 60,"#)
    try reference.write(block: 150)
    let arguments = Self.asOf(4)
    let counted = try PublishingTests.SignedStore(copying: reference)
    let calls = try Self.calls(["build", "--config", counted.config, "--store", counted.store] + arguments)
    let expected = try PublishedState(counted.store)
    #expect(expected.history.last?.hasSuffix("deltas:[3, 2, 1]") == true, "\(expected.history)")
    #expect(expected.files.keys.contains { $0.contains("-shard-") })
    for call in ["write", "read"] {
      let count = calls[call] ?? 0
      for occurrence in Swift.stride(from: 1, through: max(1, count), by: max(1, count / 20)) {
        let store = try PublishingTests.SignedStore(copying: reference)
        let result = try CalldirProcess.run(
          ["build", "--config", store.config, "--store", store.store] + arguments,
          environment: ["CALLDIR_FAULTS": "\(call):\(occurrence):EIO"])
        let context = "\(call) \(occurrence): \(result.status) \(result.standardError)"
        #expect(result.status == 0 || result.status == 74, "\(context)")
        #expect(!result.standardError.contains("no delta"), "\(context)")
        if result.status == 0 {
          #expect(try PublishedState(store.store) == expected, "\(context)")
        } else {
          #expect(try store.build(arguments).status == 0, "\(context)")
          #expect(try PublishedState(store.store) == expected, "\(context)")
        }
      }
    }
  }

  // MARK: - prune

  @Test(arguments: ["prune", "repair"])
  func aPruneKilledAnywhereIsFinishedByTheNextPruneOrByRepairThenPrune(_ finish: String) throws {
    let reference = try Self.signedStore(versions: 5)
    let counted = try PublishingTests.SignedStore(copying: reference)
    let calls = try Self.calls(["prune", "--store", counted.store, "--keep", "2"])
    let expected = try PublishedState(counted.store)
    #expect(expected.history.filter { $0.contains("pruned:true") }.count == 3)
    // Every call when the next prune finishes; a sample when repair does.
    let crashes = finish == "prune" ? sweep(calls["any"] ?? 0, stride: 1, dense: 0) : sweep(calls["any"] ?? 0, stride: 5, dense: 10)
    let faults = crashes.map { "any:\($0):crash" }
      + (1...max(1, calls["unlink"] ?? 0)).map { "unlink:\($0)+:EIO" }
      + (1...max(1, calls["fsync"] ?? 0)).map { "fsync:\($0)+:EIO" }
    for fault in faults {
      let store = try PublishingTests.SignedStore(copying: reference)
      let result = try CalldirProcess.run(
        ["prune", "--store", store.store, "--keep", "2"], environment: ["CALLDIR_FAULTS": fault])
      let context = "\(fault): \(result.status) \(result.standardError)"
      if !fault.hasSuffix("crash") {
        #expect(result.status == 0 || result.status == 74, "\(context)")
      }
      Self.expectServable(store, context)
      try Self.expectRecordedFilesThere(store.store, context)
      if finish == "repair" {
        let repaired = try CalldirProcess.run(["repair", "--store", store.store, "--json"])
        #expect(repaired.status == 0, "\(context) then \(repaired.standardError)")
        #expect(try parseJSON(repaired.standardOutput)["rebuiltFromBlobs"] as? [Int] == [], "\(context)")
      }
      let again = try CalldirProcess.run(["prune", "--store", store.store, "--keep", "2"])
      #expect(again.status == 0, "\(context) then \(again.standardError)")
      #expect(try PublishedState(store.store) == expected, "\(context)")
    }
  }

  // MARK: - repair

  /// A store whose old catalog holds what only it knows: sources, pruned
  /// versions, deltas from them.
  static func prunedStore() throws -> PublishingTests.SignedStore {
    let store = try Self.signedStore(versions: 5)
    let pruned = try CalldirProcess.run(["prune", "--store", store.store, "--keep", "2"])
    try #require(pruned.status == 0, "\(pruned.standardError)")
    return store
  }

  @Test func repairKeepsPrunedVersionsAndTheDeltasFromThem() throws {
    let store = try Self.prunedStore()
    let before = try PublishedState(store.store)
    let repaired = try CalldirProcess.run(["repair", "--store", store.store, "--json"])
    #expect(repaired.status == 0, "\(repaired.standardError)")
    let report = try parseJSON(repaired.standardOutput)
    #expect(report["versions"] as? [Int] == [1, 2, 3, 4, 5])
    #expect(report["keptFromCatalog"] as? [Int] == [1, 2, 3, 4, 5])
    #expect(report["pruned"] as? [Int] == [1, 2, 3])
    #expect(report["rebuiltFromBlobs"] as? [Int] == [] && (report["retired"] as? [Any])?.isEmpty == true)
    #expect(report["oldCatalog"] as? String == "read")
    #expect(report["warnings"] as? [String] == [], "\(report)")
    #expect(try PublishedState(store.store) == before)
    #expect(repaired.standardError.isEmpty)
    // Again, and the text says so.
    let text = try CalldirProcess.run(["repair", "--store", store.store])
    #expect(text.standardOutput.contains("5 kept from the old catalog (3 of them pruned)"), "\(text.standardOutput)")
    #expect(try PublishedState(store.store) == before)
    // The deltas from pruned versions stay recorded: the next versions'
    // prunes remove them with their target.
    for version in 6...7 {
      try store.write(block: 100 + version * 3)
      #expect(try store.build(Self.asOf(version)).status == 0)
    }
    #expect(try CalldirProcess.run(["repair", "--store", store.store]).status == 0)
    #expect(try CalldirProcess.run(["prune", "--store", store.store, "--keep", "1"]).status == 0)
    let left = try PublishedState(store.store).files.keys.filter { $0.hasPrefix("deltas/") }.sorted()
    #expect(left == (4...6).map { "deltas/delta-00000\($0)-000007.cdir" }, "\(left)")
  }

  @Test func aRepairKilledAnywhereOrOnAFullDiskLosesNoCatalog() throws {
    let reference = try Self.prunedStore()
    let expected = try PublishedState(reference.store)
    let counted = try PublishingTests.SignedStore(copying: reference)
    let calls = try Self.calls(["repair", "--store", counted.store])
    let faults = sweep(calls["any"] ?? 0, stride: 8, dense: 20).map { "any:\($0):crash" }
      + (1...max(1, calls["write"] ?? 0)).map { "write:\($0)+:ENOSPC" }
      + (1...max(1, calls["fsync"] ?? 0)).map { "fsync:\($0)+:EIO" }
      + (1...max(1, calls["rename"] ?? 0)).map { "rename:\($0):EIO" }
    for fault in faults {
      let store = try PublishingTests.SignedStore(copying: reference)
      let result = try CalldirProcess.run(["repair", "--store", store.store], environment: ["CALLDIR_FAULTS": fault])
      let context = "\(fault): \(result.status) \(result.standardError)"
      if !fault.hasSuffix("crash") {
        #expect(result.status == 0 || result.status == 74, "\(context)")
      }
      // A whole catalog, the old one or the new one, each knowing it all.
      #expect(FileManager.default.fileExists(atPath: store.store + "/catalog.sqlite"), "\(context)")
      try Self.expectRecordedFilesThere(store.store, context)
      #expect(try PublishedState(store.store) == expected, "\(context)")
      for name in try FileManager.default.contentsOfDirectory(atPath: store.store) where name.contains("before-repair-") {
        #expect(try integrityCheck(store.store + "/" + name) == "ok", "\(context): \(name)")
      }
      let next = try CalldirProcess.run(["repair", "--store", store.store, "--json"])
      #expect(next.status == 0, "\(context) then \(next.standardError)")
      let report = try parseJSON(next.standardOutput)
      #expect(report["keptFromCatalog"] as? [Int] == [1, 2, 3, 4, 5], "\(context): \(report)")
      #expect(report["pruned"] as? [Int] == [1, 2, 3], "\(context): \(report)")
      #expect(try PublishedState(store.store) == expected, "\(context)")
      let leftovers = try FileManager.default.contentsOfDirectory(atPath: store.store).filter { $0.hasPrefix(".") }
      #expect(leftovers.isEmpty, "\(context): \(leftovers)")
    }
  }

  @Test func aCatalogThatCannotBeReadStopsRepairWithNothingChanged() throws {
    let store = try Self.prunedStore()
    try checkpoint(store.store + "/catalog.sqlite")
    let catalog = try Data(contentsOf: URL(fileURLWithPath: store.store + "/catalog.sqlite"))
    // The stat calls of a repair, failed in turn: the one of the catalog
    // fails it with 74, never a rebuild from the blobs.
    let counted = try PublishingTests.SignedStore(copying: store)
    let calls = try Self.calls(["repair", "--store", counted.store])
    var failures = 0
    for occurrence in 1...min(6, calls["stat"] ?? 0) {
      let copy = try PublishingTests.SignedStore(copying: store)
      let result = try CalldirProcess.run(
        ["repair", "--store", copy.store, "--json"], environment: ["CALLDIR_FAULTS": "stat:\(occurrence):EIO"])
      let context = "stat \(occurrence): \(result.standardError)"
      if result.status == 0 {
        #expect(try parseJSON(result.standardOutput)["keptFromCatalog"] as? [Int] == [1, 2, 3, 4, 5], "\(context)")
      } else {
        failures += 1
        #expect(result.status == 74 && result.standardError.contains("input/output error"), "\(context)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: copy.store + "/catalog.sqlite")) == catalog, "\(context)")
        #expect(!FileManager.default.fileExists(atPath: copy.store + "/catalog.sqlite.before-repair-1"), "\(context)")
      }
    }
    #expect(failures > 0)
  }

  @Test func aCatalogHeldByAnotherProcessStopsRepairToTryAgain() throws {
    let store = try Self.signedStore(versions: 2)
    let result: CalldirProcess.Result
    do {
      // Another process's connection in exclusive locking mode: SQLite
      // lets nobody else read the catalog until it closes.
      let holder = try Database(path: store.store + "/catalog.sqlite", mode: .readWrite)
      try holder.execute(sql: "PRAGMA locking_mode = EXCLUSIVE; BEGIN EXCLUSIVE; SELECT count(*) FROM snapshots;")
      result = try CalldirProcess.run(["repair", "--store", store.store])
      try holder.execute(sql: "COMMIT")
    }
    #expect(result.status == 75, "\(result.standardError)")
    #expect(result.standardError.contains("database is locked"))
    #expect(!FileManager.default.fileExists(atPath: store.store + "/catalog.sqlite.before-repair-1"))
    let repaired = try CalldirProcess.run(["repair", "--store", store.store, "--json"])
    #expect(try parseJSON(repaired.standardOutput)["keptFromCatalog"] as? [Int] == [1, 2], "\(repaired.standardError)")
  }

  @Test func aDamagedCatalogIsRebuiltFromTheFilesAndKeptAsItWas() throws {
    let store = try Self.signedStore(versions: 3)
    try checkpoint(store.store + "/catalog.sqlite")
    for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: store.store + "/catalog.sqlite" + suffix) }
    var bytes = try Data(contentsOf: URL(fileURLWithPath: store.store + "/catalog.sqlite"))
    for index in 0..<16 { bytes[index] = 0x41 }
    try bytes.write(to: URL(fileURLWithPath: store.store + "/catalog.sqlite"))
    let history = try CalldirProcess.run(["history", "--store", store.store])
    #expect(history.status == 65 && history.standardError.contains("the file is damaged; run 'calldir repair'"))
    let repaired = try CalldirProcess.run(["repair", "--store", store.store, "--json"])
    #expect(repaired.status == 0, "\(repaired.standardError)")
    let report = try parseJSON(repaired.standardOutput)
    #expect(report["oldCatalog"] as? String == "damaged")
    #expect(report["rebuiltFromBlobs"] as? [Int] == [1, 2, 3])
    #expect(repaired.standardError.contains("warning: the old catalog is damaged"))
    let kept = try #require(report["previousCatalog"] as? String)
    #expect(try Data(contentsOf: URL(fileURLWithPath: kept)) == bytes)
    try store.write(block: 200)
    let next = try store.build(Self.asOf(4))
    #expect(next.status == 0, "\(next.standardError)")
    #expect(try parseJSON(next.standardOutput)["version"] as? Int == 4)
  }

  // MARK: - the manifest and its signature

  @Test func aSyncDuringPublishesNeverCallsTheSignatureBad() throws {
    let store = try Self.signedStore(versions: 1)
    let key = store.directory.path("keys/signing.pub")
    let phone = SyncDevice(path: store.directory.path("phone"))
    let done = LockedFlag()
    let (config, root, directory) = (store.config, store.store, store.directory.url)
    let builder = Thread {
      for version in 2...9 {
        let block = (0..<(100 + version * 3)).map { "+4121\(String(format: "%07d", $0 * 9973))\n" }.joined()
        try? Data(block.utf8).write(to: directory.appendingPathComponent("block.txt"))
        _ = try? CalldirProcess.run(["build", "--config", config, "--store", root] + Self.asOf(version))
      }
      done.set()
    }
    builder.start()
    var syncs = 0
    while !done.get() || syncs == 0 {
      let result = try phone.sync(from: store.store, key: key)
      syncs += 1
      #expect(result.status == 0, "sync \(syncs): \(result.standardError)")
    }
    #expect(try phone.synced(from: store.store, key: key)["version"] as? Int == 9)
  }

  @Test func aSignatureFileLeftWithTwoLinesIsFinishedByTheNextBuild() throws {
    let store = try Self.signedStore(versions: 1)
    try store.write(block: 150)
    // Killed after writing the signatures of both manifests: the old
    // manifest is in place, next to both signatures.
    let counted = try PublishingTests.SignedStore(copying: store)
    let counts = try Self.calls(["build", "--config", counted.config, "--store", counted.store] + Self.asOf(2))
    var seen: Set<Int> = []
    for occurrence in sweep(counts["any"] ?? 0, stride: 1, dense: 0).suffix(30) {
      let copy = try PublishingTests.SignedStore(copying: store)
      _ = try CalldirProcess.run(
        ["build", "--config", copy.config, "--store", copy.store] + Self.asOf(2),
        environment: ["CALLDIR_FAULTS": "any:\(occurrence):crash"])
      let lines = (try? String(contentsOfFile: copy.store + "/manifest.json.sig", encoding: .utf8))?
        .split(separator: "\n").count ?? 0
      seen.insert(lines)
      Self.expectServable(copy, "crash at \(occurrence)")
      if lines == 2 {
        let phone = SyncDevice(path: copy.directory.path("phone"))
        #expect(try phone.sync(from: copy.store, key: copy.directory.path("keys/signing.pub")).status == 0)
        #expect(try copy.build(Self.asOf(2)).status == 0)
        let finished = try String(contentsOfFile: copy.store + "/manifest.json.sig", encoding: .utf8)
        #expect(finished.split(separator: "\n").count == 1)
      }
    }
    #expect(seen.contains(2), "no crash left two signatures: \(seen)")
  }

  // MARK: - keygen

  @Test func ofKeygensRunAtOnceOnOnePrefixExactlyOneMakesThePair() throws {
    let directory = try TemporaryDirectory()
    for round in 0..<8 {
      let prefix = directory.path("key-\(round)")
      let results = try DeviceConcurrencyTests.runTogether(Array(repeating: ["keygen", "-o", prefix, "--json"], count: 6))
      let statuses = results.map(\.status)
      #expect(statuses.filter { $0 == 0 }.count == 1, "round \(round): \(statuses)")
      #expect(statuses.allSatisfy { $0 == 0 || $0 == 73 }, "round \(round): \(statuses)")
      let winner = try #require(results.first { $0.status == 0 })
      let pair = try keyPair(prefix)
      #expect(try parseJSON(winner.standardOutput)["publicKeyBase64"] as? String == Base64.encode(pair.secret.publicKey))
      #expect(pair.secret.publicKey == pair.public)
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path("")).allSatisfy { !$0.hasPrefix(".") })
  }

  @Test func aKeygenKilledAnywhereOrOnAFullDiskLeavesNothingOrOnePair() throws {
    let directory = try TemporaryDirectory()
    let calls = try Self.calls(["keygen", "-o", directory.path("counted")])
    // The last write prints the result, once the pair is made.
    let faults = (1...max(1, calls["any"] ?? 0)).map { "any:\($0):crash" }
      + (1...max(1, (calls["write"] ?? 0) - 1)).map { "write:\($0)+:ENOSPC" }
      + (1...max(1, calls["fsync"] ?? 0)).map { "fsync:\($0)+:EIO" }
      + (1...max(1, calls["link"] ?? 0)).map { "link:\($0)+:EIO" }
    for (index, fault) in faults.enumerated() {
      let prefix = directory.path("k\(index)")
      let result = try CalldirProcess.run(["keygen", "-o", prefix], environment: ["CALLDIR_FAULTS": fault])
      let context = "\(fault): \(result.status) \(result.standardError)"
      let hasSecret = FileManager.default.fileExists(atPath: prefix + ".key")
      let hasPublic = FileManager.default.fileExists(atPath: prefix + ".pub")
      #expect(!hasPublic || hasSecret, "\(context): a public key alone")
      if hasSecret && hasPublic {
        let pair = try keyPair(prefix)
        #expect(pair.secret.publicKey == pair.public, "\(context): a pair that does not match")
      }
      if !fault.hasSuffix("crash") {
        #expect(result.status == 0 || result.status == 74, "\(context)")
        #expect((result.status == 0) == (hasSecret && hasPublic), "\(context)")
        #expect(result.status == 0 || !hasSecret, "\(context): a failed keygen left a key")
      }
      // The next keygen on the prefix makes a pair where there is none,
      // refuses where a key is, and leaves no temporary file behind.
      let next = try CalldirProcess.run(["keygen", "-o", prefix])
      #expect(next.status == (hasSecret ? 73 : 0), "\(context) then \(next.standardError)")
      if !hasSecret {
        let pair = try keyPair(prefix)
        #expect(pair.secret.publicKey == pair.public, "\(context)")
      }
      let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.path("")).filter {
        $0.hasPrefix(".k\(index).")
      }
      #expect(leftovers.isEmpty, "\(context): \(leftovers)")
    }
  }

  @Test func aBuildRefusesASigningKeyWhosePublicKeyFileIsAnotherKeys() throws {
    let store = try PublishingTests.SignedStore()
    let other = try CalldirProcess.run(["keygen", "-o", store.directory.path("other"), "--json"])
    #expect(other.status == 0)
    try FileManager.default.removeItem(atPath: store.directory.path("keys/signing.pub"))
    try FileManager.default.copyItem(
      atPath: store.directory.path("other.pub"), toPath: store.directory.path("keys/signing.pub"))
    let refused = try store.build()
    #expect(refused.status == 65, "\(refused.standardError)")
    #expect(refused.standardError.contains("does not match") && refused.standardError.contains("signing.pub"))
    #expect((try parseJSON(refused.standardOutput)["error"] as? [String: Any])?["kind"] as? String == "signingKey")
    #expect(!FileManager.default.fileExists(atPath: store.store))
    // A key alone (its .pub kept elsewhere) signs.
    try FileManager.default.removeItem(atPath: store.directory.path("keys/signing.pub"))
    #expect(try store.build().status == 0)
  }

  // MARK: - dates

  @Test func aBuildWhoseManifestWouldExpirePastYear9999IsRefused() throws {
    let store = try PublishingTests.SignedStore(extra: #""manifestLifetimeDays": 7,"#)
    let refused = try store.build(["--as-of", "9999-12-31"])
    #expect(refused.status == 64, "\(refused.standardError)")
    #expect(refused.standardError.contains("--as-of 9999-12-31 with manifestLifetimeDays 7"))
    #expect((try parseJSON(refused.standardOutput)["error"] as? [String: Any])?["kind"] as? String == "usage")
    #expect(!FileManager.default.fileExists(atPath: store.store))
    #expect(try CalldirProcess.run(
      ["build", "--config", store.config, "--store", store.store, "--dry-run", "--as-of", "9999-12-25"]).status == 64)
    // The last day that fits: the manifest expires on 9999-12-31, and a
    // device reads it.
    let last = try store.build(["--as-of", "9999-12-24"])
    #expect(last.status == 0, "\(last.standardError)")
    #expect(try parseJSON(last.standardOutput)["manifestExpires"] as? String == "9999-12-31T00:00:00Z")
    #expect(try store.verifiedManifest().expires == "9999-12-31T00:00:00Z")
    let phone = SyncDevice(path: store.directory.path("phone"))
    #expect(try phone.synced(from: store.store, key: store.directory.path("keys/signing.pub"))["version"] as? Int == 1)
  }

  @Test func aBuildAsOfTheLastDayWithoutALifetimePublishesAManifestDevicesRead() throws {
    let store = try PublishingTests.SignedStore()
    let result = try store.build(["--as-of", "9999-12-31"])
    #expect(result.status == 0, "\(result.standardError)")
    #expect(try store.verifiedManifest().published == "9999-12-31T00:00:00Z")
    let phone = SyncDevice(path: store.directory.path("phone"))
    #expect(try phone.synced(from: store.store, key: store.directory.path("keys/signing.pub"))["version"] as? Int == 1)
  }
}

/// A key pair as keygen wrote it: the secret key file's pair and the
/// public key file's bytes.
func keyPair(_ prefix: String) throws -> (secret: Ed25519.KeyPair, public: [UInt8]) {
  let secret = try String(contentsOfFile: prefix + ".key", encoding: .utf8)
  let publicText = try String(contentsOfFile: prefix + ".pub", encoding: .utf8)
  let secretBytes = try #require(Base64.decode(Array(secret.dropLast().utf8)))
  let pair = try #require(Ed25519.keyPair(secret: secretBytes))
  let publicBytes = try #require(Base64.decode(Array(publicText.dropLast().utf8)))
  return (pair, publicBytes)
}

/// A flag shared between threads.
final class LockedFlag: @unchecked Sendable {
  private let lock = NSLock()
  private var value = false
  func set() { lock.withLock { value = true } }
  func get() -> Bool { lock.withLock { value } }
}

