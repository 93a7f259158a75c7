import CallDirectoryFormat
import CallKitMock
import Foundation
import Testing

/// `calldir device load|dump|status` end to end, on the built binary.
@Suite struct DeviceCommandTests {
  let directory: TemporaryDirectory
  var device: String { directory.path("device") }

  init() throws {
    directory = try TemporaryDirectory()
  }

  func load(_ files: [String], _ options: [String] = []) throws -> CalldirProcess.Result {
    try CalldirProcess.run(["device", "load", "--device", device] + options + files)
  }

  func dump() throws -> String {
    let result = try CalldirProcess.run(["device", "dump", "--device", device])
    #expect(result.status == 0, "\(result.standardError)")
    return result.standardOutput
  }

  func status() throws -> [[String: Any]] {
    let result = try CalldirProcess.run(["device", "status", "--device", device, "--json"])
    #expect(result.status == 0, "\(result.standardError)")
    return try extensions(result.standardOutput)
  }

  func inspectEntries(_ path: String) throws -> String {
    let result = try CalldirProcess.run(["inspect", "--entries", path])
    #expect(result.status == 0)
    return result.standardOutput
  }

  @Test func fullThenDeltaThenDumpMatchesInspect() throws {
    let v1 = sampleSnapshot(version: 1, count: 3000)
    var v2 = v1
    v2.version = 2
    v2.blocking.removeFirst(10)
    v2.blocking.append(49_000_000_000)
    v2.identification[3].label = "Relabelled"
    let full1 = try directory.full("v1.cdir", v1)
    let full2 = try directory.full("v2.cdir", v2)
    let delta = try directory.delta("v1-v2.cdir", from: v1, to: v2)

    var result = try load([full1], ["--json"])
    #expect(result.status == 0, "\(result.standardError)")
    var info = try #require(try extensions(result.standardOutput).first)
    #expect(info["identifier"] as? String == "calldir.extension.1")
    #expect(info["strategy"] as? String == "complete" && info["incremental"] as? Bool == false)
    #expect(info["version"] as? Int == 1 && info["blocking"] as? Int == 3000 && info["identification"] as? Int == 1500)
    #expect((info["peakMemoryBytes"] as? Int ?? 0) > 0)
    #expect(try dump() == inspectEntries(full1))

    result = try load([delta], ["--json"])
    #expect(result.status == 0, "\(result.standardError)")
    info = try #require(try extensions(result.standardOutput).first)
    #expect(info["strategy"] as? String == "delta" && info["incremental"] as? Bool == true)
    #expect(info["version"] as? Int == 2)
    let calls = try #require(info["calls"] as? [String: Any])
    #expect(calls["blockingRemoves"] as? Int == 10 && calls["blockingAdds"] as? Int == 1)
    #expect(try dump() == inspectEntries(full2))

    let state = try #require(try status().first)
    #expect(state["version"] as? Int == 2 && state["enabled"] as? Bool == true)
    #expect(state["digest"] as? String == (try v2.contentDigest().hex))
    #expect(state["lastError"] is NSNull && state["reloadCount"] as? Int == 2)

    // The same delta again: already applied, nothing to do.
    result = try load([delta])
    #expect(result.status == 0)
    #expect(result.standardOutput.contains("already up to date"))
  }

  /// Under --json, a failure of the device's own storage is in the one
  /// document printed, whichever write fails.
  @Test func aStorageFailureUnderJSONIsInTheDocument() throws {
    let blob = try directory.full("v1.cdir", sampleSnapshot(version: 1, count: 300))
    for occurrence in 1...4 {
      let device = directory.path("device-\(occurrence)")
      let result = try CalldirProcess.run(
        ["device", "load", "--device", device, "--json", blob], environment: ["CALLDIR_FAULTS": "write:\(occurrence):ENOSPC"])
      guard result.status != 0 else { continue }
      #expect(result.status == 74, "write \(occurrence): \(result.standardError)")
      #expect(result.lines.count == 1, "write \(occurrence): \(result.standardOutput)")
      // The device's own failure, or the system's failed request (unknown).
      let document = try jsonObject(result.standardOutput)
      let request = (document["extensions"] as? [[String: Any]])?.first?["error"] as? [String: Any]
      let own = document["error"] as? [String: Any]
      #expect(
        own?["kind"] as? String == "io" || request?["code"] as? String == "unknown",
        "write \(occurrence): \(result.standardOutput) \(result.standardError)")
    }
  }

  /// A request the system refuses (here: more entries than allowed)
  /// leaves the extension's data as it was, not the refused blob.
  @Test func aRefusedRequestLeavesTheProvidersDataAsItWas() throws {
    let device = directory.path("device")
    let small = try directory.full("v1.cdir", sampleSnapshot(version: 1, count: 30))
    let large = try directory.full("v2.cdir", sampleSnapshot(version: 2, count: 300))
    #expect(try CalldirProcess.run(["device", "load", "--device", device, "--max-entries", "100", small]).status == 0)
    let data = device + "/extensions/calldir.extension.1/container/CallDirectory/Data"
    let before = try FileManager.default.contentsOfDirectory(atPath: data)
    let refused = try CalldirProcess.run(["device", "load", "--device", device, "--max-entries", "100", large])
    #expect(refused.status == 1 && refused.standardError.contains("maximumEntriesExceeded (5)"), "\(refused.standardError)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: data) == before)
    #expect(!FileManager.default.fileExists(atPath: data + ".before-load"))
    let dump = try CalldirProcess.run(["device", "dump", "--device", device])
    #expect(dump.standardOutput == (try CalldirProcess.run(["inspect", "--entries", small]).standardOutput))
  }

  @Test func deltaOnTheWrongBaseIsRefusedAndChangesNothing() throws {
    let v1 = sampleSnapshot(version: 1, count: 100)
    let v2 = sampleSnapshot(version: 2, count: 120)
    let v3 = sampleSnapshot(version: 3, count: 130)
    #expect(try load([try directory.full("v1.cdir", v1)]).status == 0)
    let before = try dump()
    let statusBefore = try status()
    let result = try load([try directory.delta("v2-v3.cdir", from: v2, to: v3)])
    #expect(result.status == 65)
    #expect(result.standardError.contains("error: calldir.extension.1:"))
    #expect(result.standardError.contains("no delta applies to the loaded version 1"))
    #expect(try dump() == before)
    let statusAfter = try #require(try status().first)
    #expect(statusAfter["version"] as? Int == 1)
    #expect(statusAfter["reloadCount"] as? Int == statusBefore.first?["reloadCount"] as? Int)
  }

  @Test func anOlderVersionIsRefusedUnlessDowngradesAreAllowed() throws {
    let v29 = sampleSnapshot(version: 29, count: 300)
    let v5 = sampleSnapshot(version: 5, count: 200, start: 44_700_000_000)
    let full29 = try directory.full("v29.cdir", v29)
    let full5 = try directory.full("v5.cdir", v5)
    let backwards = try directory.delta("v29-v5.cdir", from: v29, to: v5)
    #expect(try load([full29]).status == 0)
    let before = try dump()
    let reloads = try status().first?["reloadCount"] as? Int

    let refusal = "error: extension 1 holds version 29; refusing to load version 5 (older); "
      + "use --allow-downgrade to load it anyway\n"
    for file in [full5, backwards] {
      let result = try load([file])
      #expect(result.status == 65)
      #expect(result.standardError == refusal)
      #expect(result.standardOutput.isEmpty)
    }
    #expect(try dump() == before)
    let unchanged = try #require(try status().first)
    #expect(unchanged["version"] as? Int == 29 && unchanged["reloadCount"] as? Int == reloads)

    // The held version again is still just up to date.
    let same = try load([full29])
    #expect(same.status == 0)
    #expect(same.standardOutput.contains("already up to date"))

    // Allowed: the extension process applies the backwards delta, then the full snapshot loads.
    var allowed = try load([backwards], ["--allow-downgrade", "--json"])
    #expect(allowed.status == 0, "\(allowed.standardError)")
    #expect(try extensions(allowed.standardOutput).first?["strategy"] as? String == "delta")
    #expect(try dump() == inspectEntries(full5))
    #expect(try load([full29]).status == 0)
    allowed = try load([full5], ["--allow-downgrade", "--json"])
    #expect(allowed.status == 0, "\(allowed.standardError)")
    let info = try #require(try extensions(allowed.standardOutput).first)
    #expect(info["strategy"] as? String == "replace" && info["version"] as? Int == 5)
    #expect(try dump() == inspectEntries(full5))
    #expect(try CalldirProcess.run(["device", "load", "--help"]).standardOutput.contains("--allow-downgrade"))
  }

  @Test func aDeltaOnARebuiltVersionNamesBothDigests() throws {
    // Two different snapshots that both call themselves version 4.
    let held = sampleSnapshot(version: 4, count: 100)
    let rebuilt = sampleSnapshot(version: 4, count: 110)
    let v5 = sampleSnapshot(version: 5, count: 120)
    #expect(try load([try directory.full("v4.cdir", held)]).status == 0)
    let before = try dump()
    let result = try load([try directory.delta("v4-v5.cdir", from: rebuilt, to: v5)])
    #expect(result.status == 65)
    let heldDigest = String(try held.contentDigest().hex.prefix(12))
    let baseDigest = String(try rebuilt.contentDigest().hex.prefix(12))
    #expect(result.standardError.contains(
      "no usable blob: delta 4 → 5 is built on a different version 4 "
        + "(base digest \(baseDigest)…, the extension holds \(heldDigest)…); load a full snapshot"),
      "\(result.standardError)")
    #expect(!result.standardError.contains("no delta applies"))
    #expect(try dump() == before)
    #expect(try status().first?["version"] as? Int == 4)
  }

  @Test func deltaOnAFreshDeviceIsRefusedBeforeInstalling() throws {
    let v1 = sampleSnapshot(version: 1, count: 10)
    let v2 = sampleSnapshot(version: 2, count: 12)
    let result = try load([try directory.delta("v1-v2.cdir", from: v1, to: v2)])
    #expect(result.status == 65)
    #expect(result.standardError.contains("a complete request needs a full snapshot"))
    #expect(try status().isEmpty)
  }

  /// `device status`, `dump` and `reset` read a device; a directory that
  /// is not one (no device.json) or a missing one is exit 66 with nothing
  /// written or created there. Only `device load` and `device sync` make
  /// a device.
  @Test func statusDumpAndResetRefuseWhatIsNotADeviceAndWriteNothing() throws {
    let manager = FileManager.default
    let plain = directory.path("plain")
    try manager.createDirectory(atPath: plain + "/sync", withIntermediateDirectories: true)
    try Data("keep\n".utf8).write(to: URL(fileURLWithPath: plain + "/notes.txt"))
    let file = directory.path("file")
    try Data().write(to: URL(fileURLWithPath: file))
    let missing = directory.path("missing")
    for command in [["status"], ["status", "--json"], ["dump"], ["reset"], ["reset", "--json"]] {
      for path in [plain, file, missing] {
        let result = try CalldirProcess.run(["device"] + command + ["--device", path])
        #expect(result.status == 66, "\(command) \(path): \(result.standardError)")
        #expect(
          result.standardError == "error: no device at '\(path)': 'calldir device load' or 'calldir device sync' makes one\n",
          "\(command) \(path)")
        if command.contains("--json") {
          #expect(try jsonObject(result.standardOutput)["error"] != nil, "\(command) \(path)")
        }
      }
    }
    #expect(try manager.contentsOfDirectory(atPath: plain).sorted() == ["notes.txt", "sync"])
    #expect(try manager.contentsOfDirectory(atPath: plain + "/sync").isEmpty)
    #expect(!manager.fileExists(atPath: missing))

    // A device: read as it is, nothing added.
    let v1 = sampleSnapshot(version: 1, count: 20)
    #expect(try load([try directory.full("v1.cdir", v1)]).status == 0)
    let before = try manager.subpathsOfDirectory(atPath: device).sorted()
    #expect(try dump().split(separator: "\n").count == v1.blocking.count + v1.identification.count)
    #expect(try status().count == 1)
    #expect(try manager.subpathsOfDirectory(atPath: device).sorted() == before)
  }

  @Test func missingAndCorruptFiles() throws {
    var result = try load([directory.path("missing.cdir")])
    #expect(result.status == 66)
    #expect(result.standardError.hasPrefix("error: "))
    try Data("definitely not a blob".utf8).write(to: URL(fileURLWithPath: directory.path("junk.cdir")))
    result = try load([directory.path("junk.cdir")])
    #expect(result.status == 65)
    #expect(result.standardError.contains("bad magic"))
    #expect(!FileManager.default.fileExists(atPath: device + "/extensions/calldir.extension.1"))
  }

  @Test func corruptionMidStreamFailsTheRequestAndKeepsTheState() throws {
    let v1 = sampleSnapshot(version: 1, count: 100)
    #expect(try load([try directory.full("v1.cdir", v1)]).status == 0)
    let before = try dump()
    let path = try directory.full("v2.cdir", sampleSnapshot(version: 2, count: 5000, start: 55_000_000_000))
    var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
    bytes[bytes.count - 1] ^= 0x55
    try bytes.write(to: URL(fileURLWithPath: path))
    let result = try load([path], ["--json"])
    #expect(result.status == 65)
    #expect(result.standardError.contains("is corrupt: checksum mismatch in identification section"))
    let info = try #require(try extensions(result.standardOutput).first)
    #expect(info["version"] as? Int == 1)
    let calls = try #require(info["calls"] as? [String: Any])
    #expect(calls["blockingAdds"] as? Int == 5000)  // streamed, then dropped
    #expect(try dump() == before)
    #expect(try status().first?["version"] as? Int == 1)
  }

  @Test func maximumEntriesExceeded() throws {
    let v1 = sampleSnapshot(version: 1, count: 6)
    #expect(try load([try directory.full("v1.cdir", v1)]).status == 0)
    let before = try dump()
    let result = try load([try directory.full("v2.cdir", sampleSnapshot(version: 2, count: 40))], ["--max-entries", "10"])
    #expect(result.status == 1)
    #expect(result.standardError.hasSuffix("error: maximumEntriesExceeded (5)\n"))
    #expect(try dump() == before)
    let state = try #require(try status().first)
    #expect(state["version"] as? Int == 1)
    let lastError = try #require(state["lastError"] as? [String: Any])
    #expect(lastError["code"] as? Int == 5)
  }

  @Test func tinyMemoryBudgetInterruptsTheExtension() throws {
    // Scattered numbers decode slowly enough for the 5 ms memory poll to see the child.
    let big = sampleSnapshot(version: 1, count: 1_500_000, start: 33_100_000_000, step: 7)
    let result = try load([try directory.full("big.cdir", big)], ["--memory-budget", "1k"])
    #expect(result.status == 1)
    #expect(result.standardError.hasSuffix("error: loadingInterrupted (2)\n"), "\(result.standardError)")
    #expect(try status().first?["version"] is NSNull)
    #expect(try dump() == "")
  }

  @Test func disabledExtension() throws {
    let v1 = sampleSnapshot(version: 1, count: 6)
    #expect(try load([try directory.full("v1.cdir", v1)]).status == 0)
    let simulated = try SimulatedDevice(directoryURL: URL(fileURLWithPath: device))
    try simulated.setEnabled(false, forExtensionWithIdentifier: "calldir.extension.1")
    let result = try load([directory.path("v1.cdir")])
    #expect(result.status == 1)
    #expect(result.standardError.hasSuffix("error: extensionDisabled (6)\n"))
    #expect(try status().first?["enabled"] as? Bool == false)
  }

  @Test func validBlobsCannotCarryOutOfOrderOrDuplicateEntries() throws {
    // entriesOutOfOrder (3) and duplicateEntries (4) are unreachable from the
    // CLI: writers refuse such lists and readers reject blocks that decode to them.
    #expect(throws: BlobError.self) { try Snapshot(version: 1, blocking: [5, 3]).encoded() }
    #expect(throws: BlobError.self) { try Snapshot(version: 1, blocking: [5, 5]).encoded() }
    #expect(throws: BlobError.self) {
      try Snapshot(version: 1, identification: [.init(number: 9, label: "a"), .init(number: 9, label: "b")]).encoded()
    }
    #expect(throws: BlobError.self) { try Snapshot(version: 1, blocking: [0]).encoded() }
  }

  @Test func shardsLoadIntoOneExtensionEachAndDumpMerges() throws {
    let a = sampleSnapshot(version: 1, count: 500, start: 33_612_000_000, step: 2)
    let b = sampleSnapshot(version: 1, count: 500, start: 33_612_000_001, step: 2)
    let result = try load([try directory.full("a.cdir", a), try directory.full("b.cdir", b)], ["--json"])
    #expect(result.status == 0, "\(result.standardError)")
    #expect(try extensions(result.standardOutput).map { $0["identifier"] as? String }
      == ["calldir.extension.1", "calldir.extension.2"])
    let lines = try dump().split(separator: "\n")
    let blocking = lines.filter { $0.hasPrefix("block\t") }.compactMap { Int64($0.dropFirst(6)) }
    #expect(blocking.count == 1000 && blocking == blocking.sorted())
    #expect(lines.prefix(1000).allSatisfy { $0.hasPrefix("block\t") })
    let identified = lines.dropFirst(1000).compactMap { Int64($0.split(separator: "\t")[1]) }
    #expect(identified.count == 500 && identified == identified.sorted())
    #expect(try status().count == 2)
  }

  @Test func dumpStopsQuietlyWhenTheReaderGoesAway() throws {
    // Enough entries per extension to fill the producers' bounded queues.
    let a = sampleSnapshot(version: 1, count: 60_000, start: 33_612_000_000, step: 2)
    let b = sampleSnapshot(version: 1, count: 60_000, start: 33_612_000_001, step: 2)
    #expect(try load([try directory.full("a.cdir", a), try directory.full("b.cdir", b)]).status == 0)
    let result = try CalldirProcess.run([
      "-c", "timeout 20 \"$0\" device dump --device \"$1\" | head -n 2; exit ${PIPESTATUS[0]}",
      CalldirProcess.binary.path, device,
    ], executable: "/bin/bash")
    #expect(result.status == 0, "\(result.standardError)")
    #expect(result.standardOutput == "block\t33612000000\nblock\t33612000001\n")
  }

  @Test func statusTextAndHelp() throws {
    #expect(try load([try directory.full("v1.cdir", sampleSnapshot(version: 7, count: 5))]).status == 0)
    let text = try CalldirProcess.run(["device", "status", "--device", device])
    #expect(text.status == 0)
    #expect(text.standardOutput.contains("calldir.extension.1:\n  status: enabled\n  loaded: version 7, digest "))
    let help = try CalldirProcess.run(["device", "load", "--help"])
    #expect(help.standardOutput.contains("(default: 16M)") && help.standardOutput.contains("(default: 2000000)"))
    let missing = try CalldirProcess.run(["device", "status", "--device", directory.path("nope")])
    #expect(missing.status == 66)
    let direct = try CalldirProcess.run(["device", "_extension"])
    #expect(direct.status == 64)
  }
}
