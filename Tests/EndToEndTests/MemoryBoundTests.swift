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
