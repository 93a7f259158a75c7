import CallDirectoryFormat
import Foundation

/// The answers of a row's two sides, compared: a speed row counts only when
/// calldir gives what its baseline gives (the same numbers; the same added
/// and removed sets; the same line for every input), so that a fast wrong
/// answer never looks like a win. A row whose answers differ fails the bench.
enum Answers {
  /// The verdict of a comparison: what was compared, and whether it held.
  struct Check {
    var holds: Bool
    var text: String

    static func same(_ what: String) -> Check { Check(holds: true, text: "same \(what) ✓") }
    static func differs(_ what: String) -> Check { Check(holds: false, text: "DIFFERS: \(what)") }
  }

  /// The lines of a file, as byte slices (no line break).
  static func lines(_ path: String) throws -> [Substring] {
    guard let data = FileManager.default.contents(atPath: path) else { throw BenchError.data("cannot read \(path)") }
    var text = String(decoding: data, as: UTF8.self)[...]
    if text.hasSuffix("\n") { text = text.dropLast() }
    return text.isEmpty ? [] : text.split(separator: "\n", omittingEmptySubsequences: false)
  }

  /// The decimal digits of `text` after an optional `+`, as a number.
  static func number(_ text: Substring) -> Int64? {
    Int64(text.hasPrefix("+") ? text.dropFirst() : text)
  }

  /// The blocking numbers of a snapshot blob, ascending.
  static func blocking(ofBlob path: String) throws -> [Int64] {
    let iterator = try BlobReader(path: path).blocking()
    var numbers: [Int64] = []
    var buffer = [Int64](repeating: 0, count: 8192)
    while true {
      let got = try buffer.withUnsafeMutableBufferPointer { try iterator.next(into: $0) }
      if got == 0 { break }
      numbers += buffer[0..<got]
    }
    return numbers
  }

  /// calldir's numbers against a baseline's, both ascending and distinct.
  static func sameNumbers(_ calldir: [Int64], _ baseline: [Int64], baselineName: String) -> Check {
    if calldir == baseline { return .same("\(count(calldir.count)) numbers") }
    let only = Set(calldir).subtracting(baseline).sorted().prefix(3)
    let missing = Set(baseline).subtracting(calldir).sorted().prefix(3)
    return .differs(
      "calldir \(count(calldir.count)) numbers, \(baselineName) \(count(baseline.count)); only calldir: \(Array(only)), only \(baselineName): \(Array(missing))")
  }

  /// Line by line: `calldir`'s lines and `baseline`'s, each mapped to the
  /// answer both give (`key`); the first differences are named.
  static func sameLines(
    _ calldir: [Substring], _ baseline: [Substring], key: (Substring) -> String = { String($0) },
    baselineKey: ((Substring) -> String)? = nil
  ) -> Check {
    guard calldir.count == baseline.count else {
      return .differs("calldir printed \(calldir.count) lines, the baseline \(baseline.count)")
    }
    var differing: [Int] = []
    for index in calldir.indices {
      let theirs = baselineKey.map { $0(baseline[index]) } ?? key(baseline[index])
      if key(calldir[index]) != theirs { differing.append(index) }
    }
    if differing.isEmpty { return .same("answer for all \(count(calldir.count)) lines") }
    let examples = differing.prefix(3).map { "line \($0 + 1): \(calldir[$0]) ≠ \(baseline[$0])" }
    return .differs("\(differing.count) of \(calldir.count) lines, \(examples.joined(separator: "; "))")
  }

  /// `comm -3 OLD NEW` against a delta blob: the lines only in OLD are the
  /// removed numbers, those after a tab the added ones.
  static func sameChanges(commOutput: String, delta: String) throws -> Check {
    var removed: [Int64] = []
    var added: [Int64] = []
    for line in try lines(commOutput) {
      if line.hasPrefix("\t") {
        guard let number = number(line.dropFirst()) else { return .differs("comm printed \(line)") }
        added.append(number)
      } else {
        guard let number = number(line) else { return .differs("comm printed \(line)") }
        removed.append(number)
      }
    }
    let changes = try BlobReader(path: delta).readDelta()
    let removedSame = Set(removed) == Set(changes.blockingRemoves) && removed.count == changes.blockingRemoves.count
    let addedSame = Set(added) == Set(changes.blockingAdds) && added.count == changes.blockingAdds.count
    if removedSame && addedSame {
      return .same("\(count(added.count)) added and \(count(removed.count)) removed")
    }
    return .differs(
      "calldir +\(changes.blockingAdds.count) -\(changes.blockingRemoves.count), comm -3 +\(added.count) -\(removed.count)")
  }

  static func count(_ value: Int) -> String {
    value >= 1_000_000 ? String(format: "%.2fM", Double(value) / 1e6) : value >= 10_000 ? "\(value / 1000)k" : "\(value)"
  }
}

extension Answers {
  /// A line of `normalize --json` as the Python baseline prints it:
  /// `INVALID`, or the number, `True` or `False` and the type.
  static func typedAnswer(_ line: Substring) -> String {
    guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
      return "unreadable \(line)"
    }
    guard let number = object["number"] as? NSNumber else { return "INVALID" }
    let valid = (object["valid"] as? Bool).map { $0 ? "True" : "False" } ?? "None"
    return "\(number.int64Value) \(valid) \(object["type"] as? String ?? "None")"
  }
}

extension Datasets {
  /// The distinct E.164 numbers the build input in `order` was written
  /// from, ascending: what a build of it must publish.
  static func distinctNumbers(_ order: InputOrder, count: Int) -> [Int64] {
    let written = numbers(order, count: count)
    return Array(Set(order == .britishMix ? written.map { 44 * 10_000_000_000 + $0 } : written)).sorted()
  }
}
