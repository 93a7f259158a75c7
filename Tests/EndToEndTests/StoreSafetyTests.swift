import Foundation
import SQLiteDatabase
import Testing

/// A store never loses what it published: a lost, emptied or older catalog
/// is refused until `calldir repair`, a damaged or replaced blob is never a
/// base, and a version number names one content forever.
@Suite struct StoreSafetyTests {
  /// Builds `count` versions (see ``store(versions:)``), for other suites too.
  /// Builds `count` versions of a GuardedStore, each adding numbers.
  static func store(versions count: Int) throws -> GuardedStore {
    let store = try GuardedStore(block: 100, names: 20)
    for version in 1...count {
      try store.writeBlock(100 + version * 3)
      let result = try store.build()
      #expect(result.status == 0, "\(result.standardError)")
    }
    return store
  }

  static func files(_ store: GuardedStore) throws -> [String] {
    try ["snapshots", "deltas", "rejects"].flatMap { directory in
      try FileManager.default.contentsOfDirectory(atPath: store.store + "/" + directory).map { directory + "/" + $0 }
    }.sorted()
  }

  @Test func aLostCatalogIsRefusedAndRepairContinuesAtTheNextVersion() throws {
    let store = try Self.store(versions: 4)
    let published = try Self.files(store)
    try FileManager.default.removeItem(atPath: store.store + "/catalog.sqlite")
    for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: store.store + "/catalog.sqlite" + suffix) }
    try store.writeBlock(120)
    let refused = try store.build()
    #expect(refused.status == 66)
    #expect(refused.standardError.contains("holds published files up to version 4 but no catalog"))
    #expect(refused.standardError.contains("calldir repair --store"))
    #expect(try Self.files(store) == published)
    #expect(!FileManager.default.fileExists(atPath: store.store + "/catalog.sqlite"), "the refusal creates no catalog")

    let repaired = try CalldirProcess.run(["repair", "--store", store.store, "--json"])
    #expect(repaired.status == 0, "\(repaired.standardError)")
    let report = try parseJSON(repaired.standardOutput)
    #expect(report["versions"] as? [Int] == [1, 2, 3, 4])
    #expect(report["rebuiltFromBlobs"] as? [Int] == [1, 2, 3, 4])
    #expect(report["nextVersion"] as? Int == 5)
    #expect((report["deltas"] as? Int ?? 0) > 0)
    let next = try store.build(["--json"])
    #expect(next.status == 0, "\(next.standardError)")
    #expect(try parseJSON(next.standardOutput)["version"] as? Int == 5)
    #expect(try Self.files(store).filter { !$0.contains("000005") } == published)
  }

  @Test func anOlderCatalogIsRefusedAndRepairKeepsWhatItKnew() throws {
    let store = try Self.store(versions: 2)
    let backup = store.directory.path("catalog-backup.sqlite")
    try checkpoint(store.store + "/catalog.sqlite")
    try FileManager.default.copyItem(atPath: store.store + "/catalog.sqlite", toPath: backup)
    for version in 3...5 {
      try store.writeBlock(100 + version * 3)
      #expect(try store.build().status == 0)
    }
    let published = try Self.files(store)
    try checkpoint(store.store + "/catalog.sqlite")
    try FileManager.default.removeItem(atPath: store.store + "/catalog.sqlite")
    try FileManager.default.copyItem(atPath: backup, toPath: store.store + "/catalog.sqlite")
    try store.writeBlock(200)
    let refused = try store.build()
    #expect(refused.status == 65)
    #expect(refused.standardError.contains("knows versions up to 2 but the store holds published files of version 5"))
    #expect(try Self.files(store) == published)
    let repaired = try parseJSON(try CalldirProcess.run(["repair", "--store", store.store, "--json"]).standardOutput)
    #expect(repaired["keptFromCatalog"] as? [Int] == [1, 2])
    #expect(repaired["rebuiltFromBlobs"] as? [Int] == [3, 4, 5])
    #expect(FileManager.default.fileExists(atPath: try #require(repaired["previousCatalog"] as? String)))
    let next = try store.build(["--json"])
    #expect(try parseJSON(next.standardOutput)["version"] as? Int == 6)
    // The sources of the versions the old catalog knew are still recorded
    // (and have changed since); the rebuilt versions have none.
    let kept = try CalldirProcess.run(["explain", "--store", store.store, "--version", "2", "--json", "+41212130001"])
    #expect((try parseJSON(kept.lines[0])["unreadSources"] as? [[String: Any]])?.map { $0["path"] as? String }
      == ["feeds/swiss.txt"])
    let rebuilt = try CalldirProcess.run(["explain", "--store", store.store, "--version", "4", "--json", "+41212130001"])
    #expect(try parseJSON(rebuilt.lines[0])["blocked"] as? Bool == true)
    #expect((try parseJSON(rebuilt.lines[0])["unreadSources"] as? [Any])?.isEmpty == true)
  }

  @Test func anEmptiedCatalogIsRefused() throws {
    let store = try Self.store(versions: 2)
    for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: store.store + "/catalog.sqlite" + suffix) }
    try Data().write(to: URL(fileURLWithPath: store.store + "/catalog.sqlite"))
    let refused = try store.build()
    #expect(refused.status == 66)
    #expect(refused.standardError.contains("but no catalog"))
    #expect(FileManager.default.fileExists(atPath: store.store + "/snapshots/snapshot-000002.cdir"))
  }

  @Test func aDamagedLatestSnapshotIsReportedAndForceSkipsItsDeltas() throws {
    let store = try Self.store(versions: 3)
    let latest = store.store + "/snapshots/snapshot-000003.cdir"
    var bytes = try Data(contentsOf: URL(fileURLWithPath: latest))
    bytes[bytes.count - 10] ^= 0xFF
    try bytes.write(to: URL(fileURLWithPath: latest))
    try store.writeBlock(150)
    let refused = try store.build()
    #expect(refused.status == 65)
    #expect(refused.standardError.contains("snapshot-000003.cdir does not match the catalog"))
    let forced = try store.build(["--force", "--json"])
    #expect(forced.status == 0, "\(forced.standardError)")
    let result = try parseJSON(forced.standardOutput)
    #expect(result["version"] as? Int == 4)
    let deltas = try #require(result["deltas"] as? [[String: Any]])
    #expect(!deltas.contains { $0["from"] as? Int == 3 })
    #expect(deltas.contains { $0["from"] as? Int == 2 })
    #expect(forced.standardError.contains("warning: the removal guard and the deltas from version 3 are skipped"))
  }

  @Test func aMissingLatestSnapshotIsADataErrorAndForcePublishesPastIt() throws {
    let store = try Self.store(versions: 2)
    try FileManager.default.removeItem(atPath: store.store + "/snapshots/snapshot-000002.cdir")
    let unchanged = try store.build()
    #expect(unchanged.status == 65, "\(unchanged.standardError)")
    #expect(unchanged.standardError.contains("snapshot-000002.cdir does not match the catalog: it is missing"))
    try store.writeBlock(150)
    let refused = try store.build()
    #expect(refused.status == 65 && refused.standardError.contains("run 'calldir repair'"), "\(refused.standardError)")
    let forced = try store.build(["--force", "--json"])
    #expect(forced.status == 0, "\(forced.standardError)")
    #expect(try parseJSON(forced.standardOutput)["version"] as? Int == 3)
  }

  @Test func aSnapshotReplacedOnDiskIsNeverABase() throws {
    let store = try Self.store(versions: 3)
    // Version 2's file now holds version 1's bytes.
    try FileManager.default.removeItem(atPath: store.store + "/snapshots/snapshot-000002.cdir")
    try FileManager.default.copyItem(
      atPath: store.store + "/snapshots/snapshot-000001.cdir", toPath: store.store + "/snapshots/snapshot-000002.cdir")
    try store.writeBlock(150)
    let result = try store.build(["--json"])
    #expect(result.status == 0, "\(result.standardError)")
    let deltas = try #require(try parseJSON(result.standardOutput)["deltas"] as? [[String: Any]])
    #expect(deltas.map { $0["from"] as? Int } == [3, 1])
    #expect(result.standardError.contains("warning: no deltas from version 2"))
  }

  @Test(arguments: ["build", "repair"])
  func aVersionWhoseFilesWereNotRenamedIsPutInPlaceByTheNextBuildOrRepair(_ recovery: String) throws {
    let store = try Self.store(versions: 1)
    try store.writeBlock(140)
    let counts = store.directory.path("counts")
    _ = try CalldirProcess.run(
      ["build", "--config", store.config, "--store", store.store, "--dry-run"], environment: ["CALLDIR_FAULT_COUNTS": counts])
    // Count a real build's renames on a copy, then fail the last but one:
    // the snapshot's rename to its published name, after the catalog
    // commit (the manifest's comes last).
    let copy = try GuardedStore(block: 100, names: 20)
    try copy.writeBlock(103)
    #expect(try copy.build().status == 0)
    try copy.writeBlock(140)
    _ = try CalldirProcess.run(
      ["build", "--config", copy.config, "--store", copy.store], environment: ["CALLDIR_FAULT_COUNTS": counts])
    let renames = try faultCounts(counts)["rename"] ?? 0
    #expect(renames > 3)
    let failed = try CalldirProcess.run(
      ["build", "--config", store.config, "--store", store.store],
      environment: ["CALLDIR_FAULTS": "rename:\(renames - 1):EIO"])
    #expect(failed.status == 74)
    #expect(failed.standardError.contains("the version is recorded, and the next build (or 'calldir repair') puts its files in place"))
    #expect(try store.publishedVersions == 2)
    #expect(!FileManager.default.fileExists(atPath: store.store + "/snapshots/snapshot-000002.cdir"))
    // Version 1 is all that serves: prune keeps it.
    let pruned = try CalldirProcess.run(["prune", "--store", store.store, "--keep", "1"])
    #expect(pruned.status == 65 && pruned.standardError.contains("nothing was pruned"), "\(pruned.standardError)")
    #expect(FileManager.default.fileExists(atPath: store.store + "/snapshots/snapshot-000001.cdir"))
    if recovery == "repair" {
      let repaired = try CalldirProcess.run(["repair", "--store", store.store, "--json"])
      #expect(repaired.status == 0, "\(repaired.standardError)")
      let report = try parseJSON(repaired.standardOutput)
      #expect(report["versions"] as? [Int] == [1, 2] && (report["retired"] as? [Any])?.isEmpty == true, "\(report)")
      #expect((report["placed"] as? [String])?.contains("snapshots/snapshot-000002.cdir") == true, "\(report)")
    }
    let next = try store.build(["--json"])
    #expect(next.status == 0, "\(next.standardError)")
    #expect(try parseJSON(next.standardOutput)["unchanged"] as? Bool == true)
    #expect(try CalldirProcess.run(["inspect", store.store + "/snapshots/snapshot-000002.cdir"]).status == 0)
  }

  @Test func aBusyCatalogAtCommitPublishesNothingUnderAPublishedName() throws {
    let store = try Self.store(versions: 1)
    try store.writeBlock(140)
    let database = try Database(path: store.store + "/catalog.sqlite", mode: .readWrite)
    try database.execute(sql: "BEGIN IMMEDIATE")
    let result = try store.build()
    try database.execute(sql: "ROLLBACK")
    #expect(result.status == 75)
    #expect(!FileManager.default.fileExists(atPath: store.store + "/snapshots/snapshot-000002.cdir"))
    #expect(try Self.files(store).allSatisfy { !$0.contains("000002") })
    let next = try store.build(["--json"])
    #expect(try parseJSON(next.standardOutput)["version"] as? Int == 2)
  }

  /// Fails every write, fsync, rename and read of a build once, in turn:
  /// each run fails cleanly (or succeeds after EINTR and short writes), the
  /// previous version still loads, the catalog is sound, and the next run
  /// publishes the right data.
  @Test func everyFaultOfABuildLosesNothing() throws {
    let reference = try GuardedStore(block: 30, names: 10)
    #expect(try reference.build().status == 0)
    try reference.writeBlock(40)
    let counts = reference.directory.path("counts")
    let counted = try CalldirProcess.run(
      ["build", "--config", reference.config, "--store", reference.store, "--json"],
      environment: ["CALLDIR_FAULT_COUNTS": counts])
    #expect(counted.status == 0)
    let expectedDigest = try latestDigest(reference)
    let calls = try faultCounts(counts)
    var runs = 0
    for call in ["write", "fsync", "rename", "read"] {
      for occurrence in 1...max(1, calls[call] ?? 0) {
        for fault in occurrence % 2 == 0 ? ["EIO", "short"] : ["ENOSPC", "EINTR"] where fault != "short" || call == "write" || call == "read" {
          let store = try GuardedStore(block: 30, names: 10)
          #expect(try store.build().status == 0)
          try store.writeBlock(40)
          let result = try CalldirProcess.run(
            ["build", "--config", store.config, "--store", store.store],
            environment: ["CALLDIR_FAULTS": "\(call):\(occurrence):\(fault)"])
          runs += 1
          let context = "\(call) \(occurrence) \(fault): \(result.standardError)"
          if fault == "EINTR" || fault == "short" {
            #expect(result.status == 0, "\(context)")
          } else {
            #expect(result.status == 74 || result.status == 0, "\(context)")
            #expect(result.status == 0 || result.standardError.hasPrefix("error: "), "\(context)")
          }
          let snapshot = store.store + "/snapshots/snapshot-000001.cdir"
          #expect(try CalldirProcess.run(["validate", snapshot]).status == 0, "\(context)")
          #expect(try integrityCheck(store.store + "/catalog.sqlite") == "ok", "\(context)")
          let next = try store.build()
          #expect(next.status == 0, "\(context) then \(next.standardError)")
          #expect(try latestDigest(store) == expectedDigest, "\(context)")
        }
      }
    }
    #expect(runs > 20)
  }
}

/// Folds a catalog's WAL into its file, so the file can be copied.
func checkpoint(_ path: String) throws {
  try Database(path: path, mode: .readWrite).execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)")
}

/// `PRAGMA integrity_check` of a catalog.
func integrityCheck(_ path: String) throws -> String {
  let rows = try Database(path: path, mode: .readOnly).query("PRAGMA integrity_check")
  return rows.first?[0].string ?? ""
}

/// The counts a process wrote with `CALLDIR_FAULT_COUNTS`.
func faultCounts(_ path: String) throws -> [String: Int] {
  var counts: [String: Int] = [:]
  for line in try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n") {
    let parts = line.split(separator: " ")
    if parts.count == 2, let count = Int(parts[1]) { counts[String(parts[0])] = count }
  }
  return counts
}

/// The content digest of a store's latest version.
func latestDigest(_ store: GuardedStore) throws -> String {
  let versions = try #require(try parseJSON(
    try CalldirProcess.run(["history", "--store", store.store, "--json"]).standardOutput)["versions"] as? [[String: Any]])
  return try #require(versions.last?["digest"] as? String)
}

/// Faults injected into `repair` and `diff --store`: each run fails cleanly
/// or succeeds, published files are never touched, and the next run works.
@Suite struct RepairAndDiffFaultTests {
  static func lostCatalogStore() throws -> GuardedStore {
    let store = try StoreSafetyTests.store(versions: 3)
    for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: store.store + "/catalog.sqlite" + suffix) }
    return store
  }

  @Test func everyFaultOfARepairLosesNothing() throws {
    let reference = try Self.lostCatalogStore()
    let counts = reference.directory.path("counts")
    #expect(try CalldirProcess.run(
      ["repair", "--store", reference.store], environment: ["CALLDIR_FAULT_COUNTS": counts]).status == 0)
    let calls = try faultCounts(counts)
    var runs = 0
    for call in ["write", "fsync", "rename", "read"] {
      for occurrence in stride(from: 1, through: max(1, calls[call] ?? 0), by: max(1, (calls[call] ?? 0) / 12)) {
        let store = try Self.lostCatalogStore()
        let published = try StoreSafetyTests.files(store)
        let fault = occurrence % 3 == 0 ? "EINTR" : "EIO"
        let result = try CalldirProcess.run(
          ["repair", "--store", store.store], environment: ["CALLDIR_FAULTS": "\(call):\(occurrence):\(fault)"])
        runs += 1
        let context = "\(call) \(occurrence) \(fault): \(result.standardError)"
        #expect(result.status == 0 || (result.status == 74 && result.standardError.hasPrefix("error: ")), "\(context)")
        #expect(try StoreSafetyTests.files(store) == published, "\(context)")
        if FileManager.default.fileExists(atPath: store.store + "/catalog.sqlite") {
          #expect(try integrityCheck(store.store + "/catalog.sqlite") == "ok", "\(context)")
        }
        #expect(try CalldirProcess.run(["repair", "--store", store.store]).status == 0, "\(context)")
        try store.writeBlock(300)
        let next = try store.build(["--json"])
        #expect(try parseJSON(next.standardOutput)["version"] as? Int == 4, "\(context) then \(next.standardError)")
      }
    }
    #expect(runs > 10)
  }

  @Test func everyFaultOfADiffLeavesNoHalfWrittenDelta() throws {
    let store = try StoreSafetyTests.store(versions: 2)
    let output = store.directory.path("delta.cdir")
    let counts = store.directory.path("counts")
    let arguments = ["diff", "--store", store.store, "1", "2", "-o", output]
    #expect(try CalldirProcess.run(arguments, environment: ["CALLDIR_FAULT_COUNTS": counts]).status == 0)
    let expected = try Data(contentsOf: URL(fileURLWithPath: output))
    let calls = try faultCounts(counts)
    for call in ["write", "fsync", "rename", "read"] {
      for occurrence in 1...max(1, calls[call] ?? 0) {
        try Data("previous".utf8).write(to: URL(fileURLWithPath: output))
        let result = try CalldirProcess.run(arguments, environment: ["CALLDIR_FAULTS": "\(call):\(occurrence):EIO"])
        let context = "\(call) \(occurrence): \(result.standardError)"
        let now = try Data(contentsOf: URL(fileURLWithPath: output))
        if result.status == 0 {
          #expect(now == expected, "\(context)")
        } else {
          #expect(result.status == 74 && result.standardError.hasPrefix("error: "), "\(context)")
          // Never half-written: the old file, or (when only syncing the
          // directory after the rename failed) the whole new one.
          #expect(now == Data("previous".utf8) || now == expected, "\(context)")
        }
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: store.directory.path(""))
          .filter { $0.hasPrefix(".delta.cdir") }
        #expect(leftovers.isEmpty, "\(context): \(leftovers)")
      }
    }
  }
}
