import CallDirectoryFormat
import Foundation
import Testing

/// The memory check by hand: `CALLDIR_MEMORY_CHECK=1 swift test --filter MemoryCheck`
/// loads a 10k-entry and a 20M-entry blob through `device load` and prints
/// the extension process's peak RSS for each.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["CALLDIR_MEMORY_CHECK"] != nil))
struct MemoryCheck {
  /// Writes `count` scattered blocking numbers (every 1–3 apart) plus
  /// `count / 10` labelled identification entries, streamed by the writer.
  static func write(_ path: String, count: Int, version: UInt64) throws {
    let writer = try FullSnapshotWriter(path: path, version: version, labels: ["Spam", "🚫 démarchage", "Bank"])
    var random = UInt64(0x5EED)
    var number: Int64 = 33_100_000_000
    for _ in 0..<count {
      random = random &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      number += Int64(random >> 62) + 1
      try writer.appendBlocking(number)
    }
    number = 44_700_000_000
    for index in 0..<(count / 10) {
      number += 5
      try writer.appendIdentification(number, labelID: UInt32(index % 3))
    }
    try writer.finish()
  }

  @Test(arguments: [10_000, 20_000_000])
  func peakMemory(entries: Int) throws {
    let directory = try TemporaryDirectory()
    let blob = directory.path("blob.cdir")
    try Self.write(blob, count: entries * 10 / 11, version: 1)
    let size = try FileManager.default.attributesOfItem(atPath: blob)[.size] as? Int ?? 0
    let start = Date()
    let result = try CalldirProcess.run([
      "device", "load", "--device", directory.path("device"), "--json",
      "--max-entries", "30000000", "--timeout", "1200", blob,
    ])
    #expect(result.status == 0, "\(result.standardError)")
    let info = try #require(try extensions(result.standardOutput).first)
    let peak = info["peakMemoryBytes"] as? Int ?? 0
    let baseline = info["baselineMemoryBytes"] as? Int ?? 0
    print(
      "MEMORY entries=\((info["blocking"] as? Int ?? 0) + (info["identification"] as? Int ?? 0)) blob=\(size) bytes "
        + "childPeakRSS=\(peak >> 10) KiB baseline=\(baseline >> 10) KiB growth=\((peak - baseline) >> 10) KiB "
        + "seconds=\(Int(Date().timeIntervalSince(start)))")
  }
}
