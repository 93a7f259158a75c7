import CallDirectoryFormat
import Foundation
import Testing

/// What `validate`, `inspect` and `diff` do with inputs that are not plain
/// files: the same exit code and message for the same bad input, and
/// FIFOs and pipes read once, never hanging.
@Suite struct InputKindsTests {
  /// Runs a shell command line, with `$CALLDIR` naming the binary.
  private func shell(_ script: String) throws -> CalldirProcess.Result {
    try CalldirProcess.run(["-c", "CALLDIR='\(CalldirProcess.binary.path)'; \(script)"], executable: "/bin/sh")
  }

  private func commands(on bad: String, good: String, output: String) -> [[String]] {
    [["validate", bad], ["inspect", bad], ["inspect", "--entries", bad], ["diff", bad, good, "-o", output],
     ["diff", good, bad, "-o", output]]
  }

  @Test func aDirectoryIsNoInputForEveryCommand() throws {
    let directory = try TemporaryDirectory()
    let good = try directory.full("good.cdir", sampleSnapshot(version: 1, count: 10))
    let bad = directory.path("folder")
    try FileManager.default.createDirectory(atPath: bad, withIntermediateDirectories: true)
    for arguments in commands(on: bad, good: good, output: directory.path("delta.cdir")) {
      let result = try CalldirProcess.run(arguments)
      #expect(result.status == 66, "\(arguments): \(result.standardError)")
      #expect(result.standardError.contains("\(bad): is a directory"), "\(arguments): \(result.standardError)")
    }
    #expect(!FileManager.default.fileExists(atPath: directory.path("delta.cdir")))
  }

  @Test func aSymbolicLinkLoopIsNoInputForEveryCommand() throws {
    let directory = try TemporaryDirectory()
    let good = try directory.full("good.cdir", sampleSnapshot(version: 1, count: 10))
    let bad = directory.path("loop-a")
    try FileManager.default.createSymbolicLink(atPath: bad, withDestinationPath: directory.path("loop-b"))
    try FileManager.default.createSymbolicLink(atPath: directory.path("loop-b"), withDestinationPath: bad)
    for arguments in commands(on: bad, good: good, output: directory.path("delta.cdir")) {
      let result = try CalldirProcess.run(arguments)
      #expect(result.status == 66, "\(arguments): \(result.standardError)")
      #expect(
        result.standardError.contains("\(bad): too many levels of symbolic links"),
        "\(arguments): \(result.standardError)")
    }
  }

  /// The same holds for build (a source, the config), device load and the
  /// commands that read a store.
  @Test func aDirectoryOrALoopIsNoInputForBuildDeviceAndStoreCommands() throws {
    let directory = try TemporaryDirectory()
    let folder = directory.path("folder")
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let loop = directory.path("loop-a")
    try FileManager.default.createSymbolicLink(atPath: loop, withDestinationPath: directory.path("loop-b"))
    try FileManager.default.createSymbolicLink(atPath: directory.path("loop-b"), withDestinationPath: loop)
    for (bad, text) in [(folder, "is a directory"), (loop, "too many levels of symbolic links")] {
      try directory.write("calldir.json", #"{"sources": [{"path": "\#(bad)", "format": "lines", "list": "block"}]}"#)
      let runs: [[String]] = [
        ["build", "--config", directory.path("calldir.json"), "--store", directory.path("store")],
        ["build", "--config", bad, "--store", directory.path("store")],
        ["device", "load", "--device", directory.path("phone"), bad],
        ["history", "--store", bad],
        ["explain", "--store", bad, "+41212130911"],
      ]
      for arguments in runs {
        let result = try CalldirProcess.run(arguments)
        #expect(result.status == 66, "\(arguments): \(result.standardError)")
        if arguments[0] != "history" && arguments[0] != "explain" {
          #expect(result.standardError.contains(text), "\(arguments): \(result.standardError)")
        }
      }
    }
  }

  /// A build reads a source twice and must end: a named pipe (which would
  /// block it) or a device (`/dev/zero` never ends) is no source.
  @Test func aSourceThatIsNoRegularFileIsNamed() throws {
    let directory = try TemporaryDirectory()
    let fifo = directory.path("feed.txt")
    guard mkfifo(fifo, 0o600) == 0 else { throw TestFailure("mkfifo failed") }
    for (path, kind) in [(fifo, "named pipe"), ("/dev/zero", "character device")] {
      try directory.write("calldir.json", #"{"sources": [{"path": "\#(path)", "format": "lines", "list": "block"}]}"#)
      let result = try CalldirProcess.run(["build", "--config", directory.path("calldir.json"), "--store", directory.path("store")])
      #expect(result.status == 66, "\(path): \(result.standardError)")
      #expect(result.standardError.contains("sources[0].path: cannot read \(path): is a \(kind)"), "\(result.standardError)")
    }
  }

  @Test(arguments: [false, true]) func validateReadsAFIFOOnce(blob: Bool) throws {
    let directory = try TemporaryDirectory()
    let source = blob
      ? try directory.full("v1.cdir", sampleSnapshot(version: 1, count: 500))
      : try directory.write("list.txt", "18005551234\n18005551235\tBank\n").path
    let fifo = directory.path("input.fifo")
    guard mkfifo(fifo, 0o600) == 0 else { throw TestFailure("mkfifo failed") }
    let result = try shell("cat '\(source)' > '\(fifo)' & \"$CALLDIR\" validate --json '\(fifo)'; status=$?; wait; exit $status")
    #expect(result.status == 0, "\(result.standardOutput) \(result.standardError)")
    #expect(result.standardOutput.contains(blob ? "\"format\":\"full\"" : "\"format\":\"text\""))
  }

  @Test func validateReadsStandardInput() throws {
    let directory = try TemporaryDirectory()
    let blob = try directory.full("v1.cdir", sampleSnapshot(version: 1, count: 500))
    let text = try CalldirProcess.run(["validate", "-"], input: "18005551234\n18005551235\n")
    #expect(text.status == 0, "\(text.standardError)")
    #expect(text.standardOutput.hasPrefix("<stdin>: valid: 2 entries"))
    let piped = try shell("cat '\(blob)' | \"$CALLDIR\" validate -")
    #expect(piped.status == 0, "\(piped.standardError)")
    let redirected = try shell("\"$CALLDIR\" validate /dev/stdin < '\(blob)'")
    #expect(redirected.status == 0, "\(redirected.standardError)")
    var damaged = try Array(Data(contentsOf: URL(fileURLWithPath: blob)))
    damaged[damaged.count / 2] ^= 0x20
    try Data(damaged).write(to: URL(fileURLWithPath: directory.path("damaged.cdir")))
    let corrupt = try shell("cat '\(directory.path("damaged.cdir"))' | \"$CALLDIR\" validate -")
    #expect(corrupt.status == 65, "\(corrupt.standardError)")
  }

  /// A blob is read at random offsets: `inspect` refuses a FIFO at once,
  /// even without a writer, instead of waiting for one.
  @Test func inspectRefusesAFIFOWithoutWaiting() throws {
    let directory = try TemporaryDirectory()
    let fifo = directory.path("blob.fifo")
    guard mkfifo(fifo, 0o600) == 0 else { throw TestFailure("mkfifo failed") }
    let result = try CalldirProcess.run(["inspect", fifo])
    #expect(result.status == 66)
    #expect(result.standardError.contains("\(fifo): it is not a regular file (named pipe)"), "\(result.standardError)")
  }

  /// A published 10^9-number range costs the same as a small one.
  @Test func aBillionNumberRangeValidatesInspectsAndDiffs() throws {
    let directory = try TemporaryDirectory()
    func write(_ name: String, version: UInt64, _ ranges: [ClosedRange<Int64>]) throws -> String {
      let writer = try FullSnapshotWriter(path: directory.path(name), version: version)
      for range in ranges { try writer.appendBlocking(range) }
      try writer.finish()
      return directory.path(name)
    }
    let old = try write("v1.cdir", version: 1, [10_000_000_000...10_999_999_999])
    let new = try write("v2.cdir", version: 2, [5...5, 10_000_000_000...11_000_000_000])
    #expect(try CalldirProcess.run(["validate", old]).status == 0)
    let inspect = try CalldirProcess.run(["inspect", "--json", new])
    #expect(inspect.status == 0, "\(inspect.standardError)")
    #expect(inspect.standardOutput.contains("\"blocking\":1000000002"))
    let diff = try CalldirProcess.run(["diff", old, new, "-o", directory.path("delta.cdir"), "--json"])
    #expect(diff.status == 0, "\(diff.standardError)")
    #expect(diff.standardOutput.contains("\"added\":2"))
  }
}

struct TestFailure: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}
