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
