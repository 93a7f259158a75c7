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

  /// Reads `lines` as a parsing job does, line `i` ended by
  /// `endings[i % endings.count]`: four at a time
  /// (``ExactE164Reader/readLines(at:length:ending:begin:end:into:)``)
  /// after a number line of the same length and ending, one at a time
  /// otherwise; checks every answer against the exact path's. Returns how
  /// many lines were read four at a time.
  @discardableResult
  func checkInBulk(_ lines: [String], endings: [String] = ["\n"]) -> Int {
    let reader = ExactE164Reader(normalizer)
    let text = Array(lines.indices.map { lines[$0] + endings[$0 % endings.count] }.joined().utf8)
    var answers: [Int64?] = []
    var inBulk = 0
    text.withUnsafeBufferPointer { buffer in
      let begin = buffer.baseAddress!
      let end = begin + buffer.count
      var cursor = begin
      var length = 0
      var ending = 1
      var out = [Int64](repeating: -1, count: lines.count)
      while cursor < end {
        if length > 0 {
          let read = out.withUnsafeMutableBufferPointer {
            reader.readLines(at: cursor, length: length, ending: ending, begin: begin, end: end, into: $0.baseAddress!)
          }
          answers.append(contentsOf: out[..<read].map { $0 })
          inBulk += read
          cursor += read * (length + ending)
          if read > 0 { continue }
        }
        var newline = cursor
        while newline < end && newline.pointee != 0x0A { newline += 1 }
        var count = newline - cursor
        if count > 0, newline[-1] == 0x0D { count -= 1 }
        let answer = reader.read(utf8: UnsafeBufferPointer(start: cursor, count: count))
        answers.append(answer)
        length = answer == nil ? 0 : count
        ending = newline - cursor - count + 1
        cursor = newline + 1
      }
    }
    #expect(answers.count == lines.count)
    for (index, answer) in answers.enumerated() where index < lines.count {
      // The line as a job reads it: a carriage return before its line feed ends it.
      var text = Array(lines[index].utf8) + Array(endings[index % endings.count].utf8).dropLast()
      if text.last == 0x0D { text.removeLast() }
      let exact = text.withUnsafeBufferPointer { normalizer.exactE164(utf8: $0) }
      #expect(answer == exact, "\(lines[index].debugDescription)")
    }
    return inBulk
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
    checkInBulk(lines)
  }

  /// Four lines at a time stop at the first four that are not all of the
  /// remembered shape: a line with a carriage return, without its `+`,
  /// one digit longer or shorter, with a letter or a byte just outside the
  /// digits, or with other deciding digits, wherever it falls among the
  /// four; runs of every length from
  /// 9 to 15 digits are read four at a time.
  @Test func readsFourLinesAtATimeOnlyWhileAllFourQualify() {
    var generator = SplitMix64(seed: 8)
    var lines: [String] = []
    for code in ["1", "33", "44", "49", "86", "352"] {
      for length in 9...15 where length > code.count + 2 {
        let stem = "+" + code + String((0..<(length - code.count - 4)).map { _ in Character(String(generator.next(below: 10))) })
        func run(_ count: Int) -> [String] {
          (0..<count).map { _ in stem + String(generator.next(below: 10_000) + 10_000).dropFirst() }
        }
        lines += run(41)
        let spoilers = [
          stem + "123\r", "0" + stem.dropFirst() + "1234", stem + "12345", stem + "123", stem + "1a34", stem + "12:4",
          stem + "1/34",
        ]
        for spoiler in spoilers {
          for place in 0..<5 {
            lines += run(9 + place)
            lines.append(spoiler)
          }
        }
        // Other deciding digits: another calling code, same length.
        lines += run(6) + ["+7" + String(repeating: "9", count: length - 1)] + run(13)
      }
    }
    // Line feeds, carriage returns before them, and both in turn.
    for endings in [["\n"], ["\r\n"], ["\r\n", "\r\n", "\r\n", "\r\n", "\r\n", "\n"]] {
      let inBulk = checkInBulk(lines, endings: endings)
      if ExactE164Reader.readsLinesInBulk {
        #expect(inBulk > lines.count / (endings.count > 1 ? 8 : 4), "\(endings)")
      } else {
        #expect(inBulk == 0)
      }
    }
  }

  /// Numbers alike but for their last deciding digit are remembered as
  /// one: after `+44` the third digit only has to rule out GB's national
  /// prefix (`0|180020`). Only digits seen are kept, and only for that
  /// length; a decline (`+440…`, `+441…`) is remembered apart.
  @Test func remembersNumbersAlikeButForTheirLastDecidingDigitAsOne() {
    let reader = ExactE164Reader(normalizer)
    func read(_ line: String) -> Int64? { Array(line.utf8).withUnsafeBufferPointer { reader.read(utf8: $0) } }
    func recalls(_ line: String) -> Bool { Array(line.utf8).withUnsafeBufferPointer { reader.recalls(utf8: $0) } }
    #expect(read("+442079460018") == 442_079_460_018)
    #expect(read("+447700900123") == 447_700_900_123)
    #expect(read("+440207946001") == nil)
    #expect(recalls("+442012345678"))
    #expect(recalls("+447911123456"))
    #expect(!recalls("+443012345678"))
    #expect(!recalls("+4420123456789"))
    // The decline of `+440…` at 13 characters, and nothing at 12.
    #expect(recalls("+440012345678"))
    #expect(read("+440012345678") == nil)
    #expect(!recalls("+44001234567"))
    // A decline for the national prefix's `1` does not join the answers.
    #expect(read("+441614960000") == nil)
    #expect(recalls("+441214960000"))
    #expect(read("+441214960000") == nil)
    #expect(read("+442079460018") == 442_079_460_018)
    check([
      "+442079460018", "+447700900123", "+440207946001", "+447911123456", "+442012345678", "+440012345678",
      "+441614960000", "+442079460019", "+441800201234", "+447911123457",
    ])
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
    for list in [numbers.sorted(), numbers.sorted(by: >), shuffled] { checkInBulk(list) }
  }
}
