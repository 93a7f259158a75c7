import FormatFixtures
import Testing

@testable import PhoneNumbers

/// The remembering reader answers every line exactly as the exact path
/// does, however the lines follow each other: runs that share the deciding
/// digits (where it answers from memory), and lines that differ from the
/// last one in just a digit it must not skip, in length, or in being digits.
@Suite struct ExactE164ReaderTests {
  let normalizer = PhoneNumberNormalizer()

  func check(_ lines: [String]) {
    let reader = ExactE164Reader(normalizer)
    for line in lines {
      let bytes = Array(line.utf8)
      let remembered = bytes.withUnsafeBufferPointer { reader.read(utf8: $0) }
      let exact = bytes.withUnsafeBufferPointer { normalizer.exactE164(utf8: $0) }
      #expect(remembered == exact, "\(line)")
    }
  }

  /// Random numbers of every calling code, each followed by variations of
  /// itself: one digit changed at each position, one digit more or fewer,
  /// a non-digit put in, and neighbours that share all but the last digits.
  @Test func agreesLineByLineOnRunsAndNearMisses() {
    var generator = SplitMix64(seed: 3)
    func digits(_ count: Int) -> String {
      String((0..<count).map { _ in Character(String(generator.next(below: 10))) })
    }
    var lines: [String] = []
    for code in 1..<1000 where normalizer.plan.isCallingCode(code) {
      for _ in 0..<3 {
        let base = "+\(code)" + digits(Int(generator.next(below: 10)) + 6)
        lines.append(base)
        for position in 1..<base.count {
          var changed = Array(base)
          changed[position] = Character(String(generator.next(below: 10)))
          lines.append(String(changed))
          lines.append(base)
          changed[position] = ["a", " ", "/", ":"][Int(generator.next(below: 4))]
          lines.append(String(changed))
        }
        lines.append(base + digits(1))
        lines.append(String(base.dropLast()))
        let stem = base.dropLast(3)
        for _ in 0..<20 { lines.append(stem + digits(3)) }
      }
    }
    check(lines)
  }

  /// Lists as they come: sorted and shuffled numbers of busy codes, with
  /// national prefixes right after the calling code (which the path must
  /// leave to the general one).
  @Test func agreesOnSortedAndShuffledLists() {
    var generator = SplitMix64(seed: 4)
    var numbers: [String] = []
    for code in ["1", "7", "33", "39", "44", "49", "54", "55", "61", "86", "91", "352", "380", "420", "598"] {
      for _ in 0..<400 {
        let national = String(generator.next(below: 10)) + String(generator.next(below: 10))
          + String(generator.next(below: 100_000_000) + 100_000_000).dropFirst()
        numbers.append("+" + code + national.prefix(Int(generator.next(below: 5)) + 7))
      }
    }
    check(numbers.sorted())
    check(numbers.sorted(by: >))
    var shuffled = numbers
    shuffled.shuffle(using: &generator)
    check(shuffled)
  }
}
