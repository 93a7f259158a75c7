import CallDirectoryFormat
import Foundation
import Testing

/// Several `calldir device load` processes on one device at once: each
/// either loads its own blob whole or fails with `currentlyLoading`, and the
/// device ends holding exactly one of the blobs.
@Suite struct DeviceConcurrencyTests {
  /// Loads per round, all started together.
  static let processes = 6
  static let rounds = 3

  @Test func concurrentLoadsSerializeOrFailWithCurrentlyLoading() throws {
    let directory = try TemporaryDirectory()
    let device = directory.path("device")
    // Different sizes and ranges, so the counts a process reports (read from
    // the store its own request committed) say whose entries went in.
    let snapshots = (1...Self.processes).map { index in
      sampleSnapshot(
        version: UInt64(index), count: 300 * index, start: 33_600_000_000 + Int64(index) * 10_000_000)
    }
    let blobs = try snapshots.enumerated().map { try directory.full("v\($0.offset + 1).cdir", $0.element) }
    let expectedDumps = try blobs.map { try CalldirProcess.run(["inspect", "--entries", $0]).standardOutput }

    for round in 1...Self.rounds {
      let results = try Self.runTogether(
        blobs.map { ["device", "load", "--device", device, "--json", "--allow-downgrade", $0] })
      var loaded: [Int] = []
      for (index, result) in results.enumerated() {
        if result.status == 0 {
          let info = try #require(try extensions(result.standardOutput).first)
          #expect(info["version"] as? Int == index + 1, "round \(round), process \(index + 1)")
          #expect(info["blocking"] as? Int == snapshots[index].blocking.count, "round \(round), process \(index + 1)")
          #expect(
            info["identification"] as? Int == snapshots[index].identification.count,
            "round \(round), process \(index + 1)")
          loaded.append(index)
        } else {
          #expect(result.status == 1, "round \(round), process \(index + 1): \(result.standardError)")
          #expect(result.standardError.hasSuffix("error: currentlyLoading (7)\n"), "\(result.standardError)")
        }
      }
      #expect(!loaded.isEmpty, "round \(round): no load succeeded")

      let dump = try CalldirProcess.run(["device", "dump", "--device", device])
      #expect(dump.status == 0)
      let holder = loaded.first { expectedDumps[$0] == dump.standardOutput }
      #expect(holder != nil, "round \(round): the device holds none of the loaded blobs whole")
      let status = try CalldirProcess.run(["device", "status", "--device", device, "--json"])
      let info = try #require(try extensions(status.standardOutput).first)
      #expect(info["version"] as? Int == holder.map { $0 + 1 } && info["pendingVersion"] is NSNull)
      #expect(FileManager.default.fileExists(atPath: device + "/extensions/calldir.extension.1/extension.json"))
    }
  }

  /// A `device load` killed while its extension loads takes the extension
  /// process with it: left running, it would record an outcome over the
  /// next load's.
  @Test func killingALoadEndsItsExtensionProcess() throws {
    let directory = try TemporaryDirectory()
    let device = directory.path("device")
    let blob = try directory.full("big.cdir", sampleSnapshot(version: 1, count: 1_500_000))
    let load = Process()
    load.executableURL = CalldirProcess.binary
    load.arguments = ["device", "load", "--device", device, blob]
    load.standardOutput = FileHandle.nullDevice
    load.standardError = FileHandle.nullDevice
    try load.run()
    let parent = load.processIdentifier
    var child: Int32?
    let deadline = Date().addingTimeInterval(20)
    while child == nil, Date() < deadline, load.isRunning {
      child = Self.children(of: parent).first
      if child == nil { usleep(5_000) }
    }
    let extensionProcess = try #require(child, "no extension process started")
    usleep(100_000)
    kill(parent, SIGKILL)
    load.waitUntilExit()
    var alive = true
    for _ in 0..<100 where alive {
      usleep(20_000)
      alive = Self.isRunning(extensionProcess)
    }
    #expect(!alive, "the extension process outlived its system by 2 s")
  }

  /// The processes whose parent is `parent` (from /proc).
  static func children(of parent: Int32) -> [Int32] {
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    return entries.compactMap(Int32.init).filter { pid in
      guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
        let close = stat.lastIndex(of: ")")
      else { return false }
      // "pid (comm) state ppid …"
      let fields = stat[stat.index(after: close)...].split(separator: " ")
      return fields.count > 1 && Int32(fields[1]) == parent
    }
  }

  /// Whether `pid` runs (a zombie, dead but not yet reaped, does not).
  static func isRunning(_ pid: Int32) -> Bool {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
      let close = stat.lastIndex(of: ")")
    else { return false }
    return stat[stat.index(after: close)...].split(separator: " ").first != "Z"
  }

  /// Starts every command at once and waits for all of them.
  static func runTogether(_ commands: [[String]]) throws -> [CalldirProcess.Result] {
    let results = LockedResults(count: commands.count)
    let start = DispatchSemaphore(value: 0)
    let group = DispatchGroup()
    for (index, arguments) in commands.enumerated() {
      group.enter()
      Thread.detachNewThread {
        start.wait()
        results.set(index, Result { try CalldirProcess.run(arguments) })
        group.leave()
      }
    }
    for _ in commands { start.signal() }
    group.wait()
    return try results.all()
  }
}

/// Results filled in by several threads.
private final class LockedResults: @unchecked Sendable {
  private let lock = NSLock()
  private var values: [Result<CalldirProcess.Result, any Error>?]

  init(count: Int) { values = Array(repeating: nil, count: count) }

  func set(_ index: Int, _ value: Result<CalldirProcess.Result, any Error>) {
    lock.withLock { values[index] = value }
  }

  func all() throws -> [CalldirProcess.Result] {
    try lock.withLock { try values.map { try #require($0).get() } }
  }
}
