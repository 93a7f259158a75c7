import Foundation
import LiveCallerID
import Testing

extension LiveCallerIDStore {
  /// A copy of `other`'s directory: its store, sources and exports.
  convenience init(copying other: LiveCallerIDStore) throws {
    try self.init()
    try FileManager.default.removeItem(at: directory.url)
    try FileManager.default.copyItem(at: other.directory.url, to: directory.url)
  }
}

/// `export live-caller-id` killed at calls spread over all it makes
/// (`any:N:crash`), on a disk that stays full from each write on
/// (`write:N+:ENOSPC`) or a sync that fails from then on, and with single
/// failing calls: after each, the catalog's export record is the previous
/// one unless the export finished, every file under a final name is whole
/// (the previous export's or the new one's), and the next export succeeds
/// with what an unfaulted one writes.
@Suite struct LiveCallerIDFaultTests {
  @Test func anExportThatFailsLeavesTheRecordAndTheFilesWhole() throws {
    let reference = try LiveCallerIDExportTests.built()
    #expect(try reference.export().status == 0)
    let before = try reference.files()
    let recordedBefore = try reference.recordedExports()
    #expect(recordedBefore.count == 1)
    var block = LiveCallerIDStore.block
    block.removeFirst(3)
    block += ["+14085559991", "+14085559992"]
    var people = LiveCallerIDStore.people
    people["+4930123456"] = "Erika Musterfrau"
    try reference.writeSources(
      block: block, shops: LiveCallerIDStore.shops, people: people, allowed: ["+14085552007", "+33612345001"])
    try reference.build(day: 2)

    // An unfaulted export of a copy: what every faulted one must come to.
    let counted = try LiveCallerIDStore(copying: reference)
    let counts = try TemporaryDirectory()
    let result = try counted.export("out", [], environment: ["CALLDIR_FAULT_COUNTS": counts.path("counts")])
    #expect(result.status == 0, "\(result.standardError)")
    let calls = try faultCounts(counts.path("counts"))
    let after = try counted.files()
    let recordedAfter = try counted.recordedExports()
    #expect(recordedAfter.count == 2)
    #expect(after != before)

    let faults =
      sweep(calls["any"] ?? 0, stride: max(1, (calls["any"] ?? 0) / 40), dense: 12).map { "any:\($0):crash" }
      + Swift.stride(from: 1, through: max(1, calls["write"] ?? 0), by: max(1, (calls["write"] ?? 0) / 25)).map {
        "write:\($0)+:ENOSPC"
      }
      + Swift.stride(from: 1, through: max(1, calls["fsync"] ?? 0), by: max(1, (calls["fsync"] ?? 0) / 8)).map {
        "fsync:\($0)+:EIO"
      }
      + ["write:1:EIO", "read:3:EIO", "rename:1:EIO", "rename:\(max(1, (calls["rename"] ?? 1) - 1)):EIO", "open:5:EACCES"]
    for fault in faults {
      let store = try LiveCallerIDStore(copying: reference)
      let faulted = try store.export("out", [], environment: ["CALLDIR_FAULTS": fault])
      let context = "\(fault): \(faulted.status) \(faulted.standardError)"
      if !fault.hasSuffix("crash") {
        #expect([0, 66, 73, 74].contains(faulted.status), "\(context)")
      }
      let recorded = try store.recordedExports()
      let files = try store.files()
      if recorded.count == 2 {
        // The export finished before the fault: everything is in place.
        #expect(files == after, "\(context)")
      } else {
        #expect(recorded == recordedBefore, "\(context)")
        #expect(faulted.status != 0, "\(context)")
        // Every file under a final name is whole: the previous export's or
        // this one's, never a piece.
        for (name, data) in files where !(name.split(separator: "/").last ?? "").hasPrefix(".") {
          #expect(data == before[name] || data == after[name], "\(context): \(name)")
        }
        let next = try store.export()
        #expect(next.status == 0, "\(context) then \(next.standardError)")
        #expect(try store.files() == after, "\(context)")
        #expect(try store.recordedExports().count == 2, "\(context)")
      }
      // Nothing is left behind: no temporary file, no scratch directory.
      let leftovers = try FileManager.default.subpathsOfDirectory(atPath: store.directory.path("out"))
        .filter { $0.split(separator: "/").contains { $0.hasPrefix(".") } }
      if recorded.count < 2 || faulted.status == 0 { #expect(leftovers.isEmpty, "\(context): \(leftovers)") }
    }
  }

  /// A build with liveCallerID killed anywhere, or on a disk that stays
  /// full: the version it records always has its identity details (in
  /// place, or pending for the next build to place), and the next build and
  /// export succeed.
  @Test func aBuildKilledAnywhereKeepsItsIdentityDetails() throws {
    let reference = try LiveCallerIDExportTests.built()
    try reference.writeConfig(
      liveCallerID: #"{"useCase": "com.example.lookup", "cacheExpiryMinutes": 30, "block": {"shardCount": 8}, "identity": {"shardCount": 4}}"#,
      category: "person")
    let counted = try LiveCallerIDStore(copying: reference)
    let counts = try TemporaryDirectory()
    let result = try CalldirProcess.run(
      ["build", "--config", counted.config, "--store", counted.store, "--as-of", "2026-03-02"],
      environment: ["CALLDIR_FAULT_COUNTS": counts.path("counts")])
    #expect(result.status == 0, "\(result.standardError)")
    let calls = try faultCounts(counts.path("counts"))
    let faults =
      sweep(calls["any"] ?? 0, stride: max(1, (calls["any"] ?? 0) / 30), dense: 10).map { "any:\($0):crash" }
      + Swift.stride(from: 1, through: max(1, calls["write"] ?? 0), by: max(1, (calls["write"] ?? 0) / 10)).map {
        "write:\($0)+:ENOSPC"
      }
    for fault in faults {
      let store = try LiveCallerIDStore(copying: reference)
      let faulted = try CalldirProcess.run(
        ["build", "--config", store.config, "--store", store.store, "--as-of", "2026-03-02"],
        environment: ["CALLDIR_FAULTS": fault])
      let context = "\(fault): \(faulted.status) \(faulted.standardError)"
      let history = try parseJSON(try CalldirProcess.run(["history", "--store", store.store, "--json"]).standardOutput)
      for version in (history["versions"] as? [[String: Any]] ?? []).compactMap({ $0["version"] as? Int }) {
        let name = "identities-00000\(version).cdid"
        #expect(
          FileManager.default.fileExists(atPath: store.store + "/snapshots/" + name)
            || FileManager.default.fileExists(atPath: store.store + "/snapshots/.pending-" + name), "\(context)")
      }
      let next = try CalldirProcess.run(["build", "--config", store.config, "--store", store.store, "--as-of", "2026-03-02"])
      #expect(next.status == 0, "\(context) then \(next.standardError)")
      let export = try store.export()
      #expect(export.status == 0, "\(context) then \(export.standardError)")
      #expect(try parseJSON(export.standardOutput)["version"] as? Int == 2, "\(context)")
      #expect(try CallIdentity(decoding: try #require(try store.rows("identity")["+14085551212"]).value).category == 1)
    }
  }
}
