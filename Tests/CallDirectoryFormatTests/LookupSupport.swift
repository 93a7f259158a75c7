@testable import CallDirectoryFormat
import FormatFixtures

/// Snapshots large enough that their sections span many frames, and the
/// numbers worth looking up in them.
enum LookupDataset {
  static let labels = ["Telemarketing", "🚫 démarchage", "Bank ✅", "", "Survey", "日本語", "Scam"]

  /// A snapshot in cycles of scattered numbers and a small cluster
  /// (Elias–Fano blocks), a consecutive stretch (a run) and a dense stretch
  /// (a bitmap, cut from the next cycle by the jump to it); identification
  /// holds the numbers of every other cycle, labelled in streaks (long
  /// streaks of consecutive numbers become labelled runs), plus the largest
  /// number.
  struct Entries {
    var blocking: [Int64]
    var identification: [(number: Int64, label: UInt32)]

    func encoded(dataset: String = "") throws -> [UInt8] {
      let sink = MemoryBlobSink()
      let writer = try FullSnapshotWriter(sink: sink, version: 5, labels: LookupDataset.labels, dataset: dataset)
      try blocking.withUnsafeBufferPointer { try writer.appendBlocking(contentsOf: $0) }
      for entry in identification { try writer.appendIdentification(entry.number, labelID: entry.label) }
      try writer.finish()
      return sink.bytes
    }
  }

  static func entries(cycles: Int, seed: UInt64) -> Entries {
    var rng = SplitMix64(seed: seed)
    var blocking = [Int64]()
    var identification = [(number: Int64, label: UInt32)]()
    var value: Int64 = 10_000_000_000
    var label: UInt32 = 0
    var streak = 0
    for cycle in 0..<cycles {
      let start = blocking.count
      for _ in 0..<1500 {
        value += 1 + Int64(rng.next(below: 1 << 44))
        blocking.append(value)
      }
      for _ in 0..<30 {
        value += 1 + Int64(rng.next(below: 40))
        blocking.append(value)
      }
      value += 1 + Int64(rng.next(below: 1000))
      for _ in 0..<(64 + Int(rng.next(below: 300))) {
        value += 1
        blocking.append(value)
      }
      for _ in 0..<600 {
        value += 1 + Int64(rng.next(below: 4))
        blocking.append(value)
      }
      guard cycle % 2 == 0 else { continue }
      for number in blocking[start...] {
        if streak == 0 {
          label = UInt32(rng.next(below: UInt64(labels.count)))
          streak = 1 + Int(rng.next(below: 400))
        }
        identification.append((number, label))
        streak -= 1
      }
    }
    identification.append((BlobLimits.maxNumber, 2))
    return Entries(blocking: blocking, identification: identification)
  }

  /// Numbers that probe every edge: the extremes of the number range, each
  /// frame's base and its neighbours (frame boundaries), members and their
  /// neighbours (gaps), and uniform numbers over the whole span.
  static func queries(for snapshot: Entries, bases: [UInt64], seed: UInt64) -> [Int64] {
    var rng = SplitMix64(seed: seed)
    var out: [Int64] = [.min, -1, 0, 1, 2, BlobLimits.maxNumber - 1, BlobLimits.maxNumber, .max]
    for base in bases {
      let number = Int64(base)
      out += [number - 1, number, number + 1, number + 2]
    }
    let all = snapshot.blocking + snapshot.identification.map(\.number)
    if let first = snapshot.blocking.first, let last = snapshot.blocking.last {
      out += [first - 1, first, first + 1, last - 1, last, last + 1, last + 1_000_000]
      for _ in 0..<2000 { out.append(first - 1000 + Int64(rng.next(below: UInt64(last - first + 2000)))) }
    }
    for _ in 0..<2000 {
      let member = all[Int(rng.next(below: UInt64(all.count)))]
      out += [member - 2, member - 1, member, member + 1]
    }
    return out
  }
}
