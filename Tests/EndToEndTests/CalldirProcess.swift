@_exported import CalldirTestSupport
import CallDirectoryFormat
import Foundation
import Testing

/// Runs the built `calldir` binary and captures what it prints.
struct CalldirProcess {
  struct Result {
    var status: Int32
    var standardOutput: String
    var standardError: String
    /// Whether the run was killed for outliving its timeout.
    var timedOut = false
    var lines: [String] { standardOutput.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init) }
  }

  /// The binary next to the test bundle (`.build/<configuration>/calldir`).
  static let binary: URL = {
    if let path = ProcessInfo.processInfo.environment["CALLDIR_BINARY"] {
      return URL(fileURLWithPath: path)
    }
    var directory = Bundle.main.bundleURL
    if directory.pathExtension == "xctest" { directory.deleteLastPathComponent() }
    let candidate = directory.appendingPathComponent("calldir")
    if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
    return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent(".build/debug/calldir")
  }()

  /// Runs `calldir arguments…` (or another executable) with `input` on
  /// standard input and `environment` added to the test's environment;
  /// kills it (`SIGKILL`) once it has run for `timeout` seconds.
  static func run(
    _ arguments: [String], input: String? = nil, in directory: URL? = nil, executable: String? = nil,
    environment: [String: String] = [:], timeout: Double? = nil
  ) throws -> Result {
    let process = Process()
    process.executableURL = executable.map { URL(fileURLWithPath: $0) } ?? binary
    process.arguments = arguments
    if !environment.isEmpty {
      process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
    }
    if let directory { process.currentDirectoryURL = directory }
    let output = Pipe()
    let error = Pipe()
    let standardInput = Pipe()
    process.standardOutput = output
    process.standardError = error
    process.standardInput = standardInput
    try process.run()
    let killed = LockedData()
    if let timeout {
      DispatchQueue.global().asyncAfter(deadline: .now() + timeout) {
        guard process.isRunning else { return }
        killed.set(Data([1]))
        kill(process.processIdentifier, SIGKILL)
      }
    }
    // Drain both pipes while writing, so large outputs cannot deadlock.
    let outputData = LockedData()
    let errorData = LockedData()
    let group = DispatchGroup()
    for (pipe, sink) in [(output, outputData), (error, errorData)] {
      group.enter()
      DispatchQueue.global().async {
        sink.set(pipe.fileHandleForReading.readDataToEndOfFile())
        group.leave()
      }
    }
    if let input { standardInput.fileHandleForWriting.write(Data(input.utf8)) }
    try standardInput.fileHandleForWriting.close()
    group.wait()
    process.waitUntilExit()
    return Result(
      status: process.terminationStatus,
      standardOutput: String(decoding: outputData.get(), as: UTF8.self),
      standardError: String(decoding: errorData.get(), as: UTF8.self), timedOut: !killed.get().isEmpty)
  }
}

/// A Data box shared between a reader thread and the test.
final class LockedData: @unchecked Sendable {
  private let lock = NSLock()
  private var data = Data()
  func set(_ value: Data) { lock.withLock { data = value } }
  func get() -> Data { lock.withLock { data } }
}

extension TemporaryDirectory {
  /// Writes a snapshot as a full blob and returns its path.
  @discardableResult
  func full(_ name: String, _ snapshot: Snapshot) throws -> String {
    try snapshot.write(to: path(name))
    return path(name)
  }

  /// Writes the delta between two snapshots and returns its path.
  @discardableResult
  func delta(_ name: String, from base: Snapshot, to target: Snapshot) throws -> String {
    try SnapshotDelta(from: base, to: target).write(to: path(name))
    return path(name)
  }
}

/// A sample snapshot: `count` blocking numbers and `count / 2` identification entries.
func sampleSnapshot(version: UInt64, count: Int, start: Int64 = 33_612_000_000, step: Int64 = 3) -> Snapshot {
  let labels = ["Spam", "🚫 démarchage", "Bank"]
  let blocking = (0..<Int64(count)).map { start + $0 * step }
  let identification = (0..<Int64(count / 2)).map {
    IdentificationEntry(number: start + 1 + $0 * 7, label: labels[Int($0) % labels.count])
  }
  return Snapshot(version: version, blocking: blocking, identification: identification)
}

/// Parses a JSON line.
func parseJSON(_ text: String) throws -> [String: Any] {
  let object = try JSONSerialization.jsonObject(with: Data(text.utf8))
  return try #require(object as? [String: Any])
}

/// The `extensions` array of a `device … --json` output.
func extensions(_ text: String) throws -> [[String: Any]] {
  try #require(try parseJSON(text)["extensions"] as? [[String: Any]])
}
