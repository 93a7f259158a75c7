import Foundation
import Testing

/// A command stays within 1.5 times the memory bound it is given
/// (`build --memory-limit`) or documents (`validate -`: 256 MiB), however
/// its input is made: numbers, ranges, a blob on a pipe.
///
/// Peak RSS comes from GNU time (`/usr/bin/time -f %M`, the `time` package
/// `make deps` installs), which forks the command from its own small
/// process: a child spawned straight from the test process would inherit
/// the test process's high-water mark in its rusage.
@Suite struct MemoryBoundTests {
  /// A command's exit status, output and peak RSS in bytes.
  struct Measured {
    var status: Int32
    var standardOutput: String
    var standardError: String
    var peakBytes: Int
  }

  /// Runs `command` through `sh -c` under GNU time (so that a pipe can
  /// feed it); `$0` in the command is the calldir binary.
  static func measure(_ command: String, environment: [String: String] = [:]) throws -> Measured {
    let time = "/usr/bin/time"
    try #require(FileManager.default.isExecutableFile(atPath: time), "GNU time is needed: apt-get install time")
    let directory = try TemporaryDirectory()
    let report = directory.path("peak")
    let result = try CalldirProcess.run(
      ["-f", "%M", "-o", report, "sh", "-c", command, CalldirProcess.binary.path], executable: time,
      environment: environment)
    let text = try String(contentsOfFile: report, encoding: .utf8)
    let kibibytes = try #require(text.split(separator: "\n").compactMap { Int($0) }.last, "\(text)")
    // GNU time reports a non-zero exit in the report too; the status is the command's.
    return Measured(
      status: result.status, standardOutput: result.standardOutput, standardError: result.standardError,
      peakBytes: kibibytes << 10)
  }

  /// The limit the builds are given: the smallest a build accepts.
  static let limit = 64 << 20

  /// 1.8 million two-number ranges, read in cycles over 200,000 of them:
  /// a build holding what it reads peaks far past 64 MiB (about 150 MiB
  /// before ranges counted against the limit), a bounded one spills them.
  static func writeRanges(_ directory: TemporaryDirectory) throws -> String {
    var text = ""
    text.reserveCapacity(45 << 20)
    for cycle in 0..<9 {
      // Alternately ascending and descending.
      for index in 0..<200_000 {
        let position = cycle % 2 == 0 ? index : 199_999 - index
        let start = 33_612_000_000 + 3 * Int64(position)
        text += "\(start)-\(start + 1)\n"
      }
    }
    try directory.write("ranges.txt", text)
    try directory.write("calldir.json", #"{"sources": [{"path": "ranges.txt", "format": "patterns", "list": "block"}]}"#)
    return directory.path("calldir.json")
  }

  @Test func rangesStayWithinTheBuildsMemoryLimit() throws {
    let directory = try TemporaryDirectory()
    let config = try Self.writeRanges(directory)
    let bounded = try Self.measure(
      "exec \"$0\" build --json --config '\(config)' --store '\(directory.path("bounded"))' --memory-limit 64M")
    #expect(bounded.status == 0, "\(bounded.standardError)")
    let document = try parseJSON(bounded.standardOutput)
    #expect((document["counts"] as? [String: Any])?["blocking"] as? Int == 400_000)
    #expect((document["spilledRuns"] as? Int ?? 0) >= 2, "the ranges spilled")
    // 1.5 times the limit: the limit holds the program too (40 MiB of it
    // are kept for the binary, the numbering plan and the buffers: a
    // build of one number peaks at about 32 MiB in a debug build).
    #expect(bounded.peakBytes <= Self.limit * 3 / 2, "peak \(bounded.peakBytes >> 20) MiB")

    // Byte-identical to a build without a limit.
    let free = try CalldirProcess.run(["build", "--config", config, "--store", directory.path("free")])
    #expect(free.status == 0, "\(free.standardError)")
    let name = "snapshots/snapshot-000001.cdir"
    #expect(
      try Data(contentsOf: URL(fileURLWithPath: directory.path("bounded/\(name)")))
        == Data(contentsOf: URL(fileURLWithPath: directory.path("free/\(name)"))))
  }

  /// Caller-ID entries from three sources (priorities 0, 5 and 5, so that
  /// repeated numbers conflict and are won by priority, then by source
  /// order, then by line), about two distinct labels for every three
  /// entries (some not ASCII), with `liveCallerID` categories and an icon,
  /// in shards; `revision` 1 drops and relabels some of the second
  /// source's lines. 200,000 entries pass what 64 MiB holds (each entry
  /// counts as 72 bytes, each label as 160 and its bytes).
  /// Each source's lines are those of a larger call's (`entries`) first
  /// ones, when `numbers` (the numbers drawn from) is the same.
  static func writeIdentification(
    _ directory: TemporaryDirectory, entries: Int, revision: Int, numbers: Int = 400_000
  ) throws -> String {
    var state: UInt64 = 0
    func next(_ bound: UInt64) -> UInt64 {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return (state >> 33) % bound
    }
    let odd = ["Société", "🚫 démarchage", "Доставка", "配達", "École \u{301}"]
    for (index, share) in [5, 3, 2].enumerated() {
      state = 0x1D5 + UInt64(index)
      var text = "phone,name\n"
      text.reserveCapacity(entries * share / 10 * 30)
      for line in 0..<(entries * share / 10) {
        // NANP numbers +1 212 2xx xxxx and +1 212 3xx xxxx: of 200,000
        // drawn from 400,000, about one in five comes again.
        let number = 12_122_000_000 + Int64(next(UInt64(numbers)))
        var label = next(9) == 0 ? "\(odd[Int(next(UInt64(odd.count)))]) \(next(1_000))" : "C\(next(UInt64(entries)))"
        if revision == 1 && index == 1 {
          if line % 11 == 0 { continue }
          if line % 7 == 0 { label += " (revised)" }
        }
        text += "+\(number),\(label)\n"
      }
      try directory.write("names-\(index).csv", text)
    }
    try Data(LiveCallerIDStore.icon).write(to: URL(fileURLWithPath: directory.path("shop.heic")))
    try directory.write(
      "calldir.json",
      #"{"defaultRegion": "US", "maxEntriesPerExtension": 60000, "liveCallerID": {"useCase": "com.example.lookup", "#
        + #""cacheExpiryMinutes": 30, "block": {"shardCount": 2}, "identity": {"shardCount": 2}}, "sources": ["#
        + #"{"path": "names-0.csv", "format": "csv", "list": "identify", "number": "phone", "label": "name", "category": "business", "icon": "shop.heic"},"#
        + #"{"path": "names-1.csv", "format": "csv", "list": "identify", "number": "phone", "label": "name", "priority": 5, "category": "person"},"#
        + #"{"path": "names-2.csv", "format": "csv", "list": "identify", "number": "phone", "label": "name", "priority": 5}]}"#)
    return directory.path("calldir.json")
  }

  /// Every file of a store but its catalog and lock, by path.
  static func storeFiles(_ store: String) throws -> [String: Data] {
    var files: [String: Data] = [:]
    let enumerator = FileManager.default.enumerator(atPath: store)
    while let name = enumerator?.nextObject() as? String {
      var isDirectory: ObjCBool = false
      guard FileManager.default.fileExists(atPath: store + "/" + name, isDirectory: &isDirectory), !isDirectory.boolValue,
        !name.hasPrefix("catalog.sqlite"), name != "lock"
      else { continue }
      files[name] = try Data(contentsOf: URL(fileURLWithPath: store + "/" + name))
    }
    return files
  }

  @Test func identificationStaysWithinTheBuildsMemoryLimit() throws {
    let directory = try TemporaryDirectory()
    let config = try Self.writeIdentification(directory, entries: 200_000, revision: 0)
    let bounded = try Self.measure(
      "exec \"$0\" build --json --config '\(config)' --store '\(directory.path("bounded"))' --as-of 2026-03-01 --memory-limit 64M")
    #expect(bounded.status == 0, "\(bounded.standardError)")
    let document = try parseJSON(bounded.standardOutput)
    #expect((document["spilledRuns"] as? Int ?? 0) >= 2, "the entries spilled")
    #expect(bounded.peakBytes <= Self.limit * 3 / 2, "peak \(bounded.peakBytes >> 20) MiB")

    // The counts and every store file (blob, shards, identity details,
    // reports, manifest) of a build without a limit, byte for byte.
    let free = try CalldirProcess.run(
      ["build", "--json", "--config", config, "--store", directory.path("free"), "--as-of", "2026-03-01"])
    #expect(free.status == 0, "\(free.standardError)")
    let freeDocument = try parseJSON(free.standardOutput)
    #expect(freeDocument["spilledRuns"] as? Int == 0)
    let counts = try #require(freeDocument["counts"] as? [String: Int])
    #expect(document["counts"] as? [String: Int] == counts)
    #expect(counts["identification"] ?? 0 > 150_000 && counts["conflicts"] ?? 0 > 5_000)
    let files = try Self.storeFiles(directory.path("free"))
    #expect(files.keys.contains("snapshots/identities-000001.cdid"))
    #expect(files.keys.contains("rejects/conflicts-000001.txt"))
    #expect(files.keys.contains { $0.contains("-shard-") })
    let boundedFiles = try Self.storeFiles(directory.path("bounded"))
    #expect(boundedFiles.keys.sorted() == files.keys.sorted())
    for (name, data) in files { #expect(boundedFiles[name] == data, "\(name)") }
  }

  /// A write or read that fails while a build's identification entries
  /// spill (their label runs, sorted runs, dictionary and winners' file)
  /// or are read back for the blobs fails the build (74), publishes
  /// nothing and leaves no run file; the next build publishes what an
  /// unfaulted one does.
  @Test func aSpillThatCannotBeWrittenOrReadPublishesNothing() throws {
    let directory = try TemporaryDirectory()
    // A small first version (the first lines of each source), then one
    // that spills.
    let config = try Self.writeIdentification(directory, entries: 2_000, revision: 0)
    func build(_ store: String, asOf: String, environment: [String: String] = [:]) throws -> CalldirProcess.Result {
      try CalldirProcess.run(
        ["build", "--json", "--config", config, "--store", store, "--as-of", asOf, "--memory-limit", "64M"],
        environment: environment)
    }
    let base = directory.path("base")
    #expect(try build(base, asOf: "2026-03-01").status == 0)
    _ = try Self.writeIdentification(directory, entries: 200_000, revision: 1)
    let before = try PublishedState(base)
    let reference = directory.path("reference")
    try FileManager.default.copyItem(atPath: base, toPath: reference)
    let counted = try build(reference, asOf: "2026-03-02", environment: ["CALLDIR_FAULT_COUNTS": directory.path("counts")])
    #expect(counted.status == 0, "\(counted.standardError)")
    #expect((try parseJSON(counted.standardOutput)["spilledRuns"] as? Int ?? 0) >= 2, "the entries spilled")
    let expected = try PublishedState(reference)
    #expect(expected.history.count == 2)
    // The build's first writes are the spilled runs', and its reads after
    // the sources' (config, icon, sources: a dozen) are the spill files'
    // (then come its reports and blobs): faults are tried there, call after
    // call (reads a few apart), until two writes and three reads failed on
    // a spill file.
    let calls = try faultCounts(directory.path("counts"))
    let (writes, reads) = (calls["write"] ?? 0, calls["read"] ?? 0)
    #expect(writes > 10 && reads > 90)
    var failed = (writes: 0, reads: 0)
    var attempts = 0
    var rebuilt = false
    func attempt(_ fault: String) throws -> Bool {
      let store = directory.path("faulted-\(attempts)")
      attempts += 1
      try FileManager.default.copyItem(atPath: base, toPath: store)
      defer { try? FileManager.default.removeItem(atPath: store) }
      let result = try build(store, asOf: "2026-03-02", environment: ["CALLDIR_FAULTS": fault])
      let context = "\(fault): \(result.status) \(result.standardError)"
      #expect(result.status == 0 || result.status == 74, "\(context)")
      let leftovers = try FileManager.default.contentsOfDirectory(atPath: store + "/snapshots").filter { $0.hasPrefix(".spill-") }
      #expect(leftovers.isEmpty, "\(context)")
      #expect(try PublishedState(store) == (result.status == 0 ? expected : before), "\(context)")
      guard result.status != 0, result.standardError.contains("/snapshots/.spill-") else { return false }
      if !rebuilt {
        rebuilt = true
        // The next build publishes what an unfaulted one does.
        #expect(try build(store, asOf: "2026-03-02").status == 0, "\(context)")
        #expect(try PublishedState(store) == expected, "\(context)")
      }
      return true
    }
    for occurrence in 1...min(6, writes) where failed.writes < 2 {
      if try attempt("write:\(occurrence):ENOSPC") { failed.writes += 1 }
    }
    for occurrence in Swift.stride(from: 4, through: min(reads, 60), by: 6) where failed.reads < 3 {
      if try attempt("read:\(occurrence):EIO") { failed.reads += 1 }
    }
    #expect(failed.writes == 2 && failed.reads == 3, "\(attempts) faults tried")
  }

  @Test func validateOfABlobOnAPipeStaysWithinItsDocumentedBound() throws {
    let directory = try TemporaryDirectory()
    let spool = directory.path("tmp")
    try FileManager.default.createDirectory(atPath: spool, withIntermediateDirectories: true)
    // 300 MB that start with CDIR: copied up to 256 MiB, then refused.
    let large = try Self.measure(
      "(printf CDIR; head -c 300000000 /dev/zero) | exec \"$0\" validate -", environment: ["TMPDIR": spool])
    #expect(large.status == 65, "\(large.standardError)")
    #expect(large.standardError.contains("exceeds 268435456 bytes; pass it as a regular file"), "\(large.standardError)")
    #expect(large.peakBytes <= (256 << 20) * 3 / 2, "peak \(large.peakBytes >> 20) MiB")
    // Flat: nowhere near the blob's size.
    #expect(large.peakBytes < 96 << 20, "peak \(large.peakBytes >> 20) MiB")
    #expect(try FileManager.default.contentsOfDirectory(atPath: spool).isEmpty, "the temporary copy is gone")

    // A real blob through a pipe validates from its temporary copy.
    try directory.write("list.txt", (0..<50_000).map { "+3361\(2_000_000 + 7 * $0)\n" }.joined())
    try directory.write("calldir.json", #"{"sources": [{"path": "list.txt", "format": "lines", "list": "block"}]}"#)
    #expect(try CalldirProcess.run(["build", "--config", directory.path("calldir.json"), "--store", directory.path("store")]).status == 0)
    let blob = directory.path("store/snapshots/snapshot-000001.cdir")
    let piped = try Self.measure("cat '\(blob)' | exec \"$0\" validate --json -", environment: ["TMPDIR": spool])
    #expect(piped.status == 0, "\(piped.standardError)")
    #expect(try parseJSON(piped.standardOutput)["entries"] as? Int == 50_000)
    #expect(try FileManager.default.contentsOfDirectory(atPath: spool).isEmpty)

    // A temporary directory that cannot take the copy is an error that says so.
    let nowhere = try Self.measure(
      "cat '\(blob)' | exec \"$0\" validate -", environment: ["TMPDIR": directory.path("missing")])
    #expect(nowhere.status == 73, "\(nowhere.standardError)")
    #expect(nowhere.standardError.hasPrefix("error: cannot copy a blob that is not a regular file to a temporary file"))
  }
}
