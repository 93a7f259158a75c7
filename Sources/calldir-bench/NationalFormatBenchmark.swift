import FormatFixtures
import Foundation
import PhoneNumbers

/// libphonenumber's national format (what `export live-caller-id` writes
/// as the `national` keyword of every number): `normalize --national`
/// against Python's `format_number(parse(…), NATIONAL)`, and
/// ``NationalFormatter`` alone, in this process on one thread.
enum NationalFormatBenchmark {
  /// Calling codes with national numbers' first digits and lengths: the
  /// countries whose formats are subtle (Argentina's mobile 9 → 15, Mexico,
  /// Italy's zeros, Germany's many formats, Russia and Kazakhstan in +7…),
  /// the NANP, and a non-geographic code. The other digits are random, so
  /// that some numbers fit no format.
  static let shapes: [(code: Int64, start: String, length: Int)] = [
    (1, "2", 10), (1, "4", 10), (1, "8", 10), (44, "20", 10), (44, "7", 10), (44, "1", 10),
    (49, "30", 10), (49, "15", 11), (49, "89", 10), (49, "6", 9), (33, "1", 9), (33, "6", 9),
    (54, "911", 11), (54, "11", 10), (54, "9351", 11), (54, "351", 10), (39, "06", 10), (39, "3", 10),
    (39, "02", 9), (81, "90", 10), (81, "3", 10), (86, "13", 11), (86, "10", 10), (91, "9", 10),
    (91, "11", 10), (55, "119", 11), (55, "21", 10), (7, "9", 10), (7, "495", 10), (7, "7", 10),
    (52, "55", 10), (61, "4", 9), (61, "2", 9), (800, "1", 8),
  ]

  /// `count` E.164 numbers of ``shapes``, in a deterministic order.
  static func numbers(count: Int, seed: UInt64 = 34) -> [Int64] {
    var generator = SplitMix64(seed: seed)
    return (0..<count).map { _ in
      let shape = shapes[Int(generator.next(below: UInt64(shapes.count)))]
      var national: Int64 = 0
      for character in shape.start.utf8 { national = national * 10 + Int64(character - 48) }
      for _ in shape.start.count..<shape.length { national = national * 10 + Int64(generator.next(below: 10)) }
      var scale: Int64 = 1
      for _ in 0..<shape.length { scale *= 10 }
      return shape.code * scale + national
    }
  }

  /// The rows: the command against Python, and the formatter alone.
  static func rows(_ data: Datasets, binary: String, quick: Bool, runs: Int) throws -> [Row] {
    let count = quick ? 100_000 : 1_000_000
    let sample = numbers(count: count)
    let input = try data.file("national-\(count).txt") { sink in
      for number in sample { sink.write("+\(number)") }
    }
    let script = data.path("national.py")
    try """
      import re
      import sys
      import phonenumbers
      from phonenumbers import PhoneNumberFormat
      out = []
      for line in sys.stdin:
          number = phonenumbers.parse(line.strip())
          national = re.sub("[^0-9]", "", phonenumbers.format_number(number, PhoneNumberFormat.NATIONAL))
          out.append("%s\\t%s" % (line.strip()[1:], national))
      sys.stdout.write("\\n".join(out) + "\\n")
      """.write(toFile: script, atomically: true, encoding: .utf8)
    _ = try ProcessRunner.median(1, [binary, "normalize", "--national"], stdin: input)
    let command = try ProcessRunner.median(runs, [binary, "normalize", "--national"], stdin: input)
    var python: Measurement? = nil
    var answer: Answers.Check? = nil
    if (try? ProcessRunner.run(["python3", "-c", "import phonenumbers"], quiet: true).status) == 0 {
      let pythonOut = data.path("national-python.out")
      python = try ProcessRunner.median(1, ["python3", script], stdin: input, stdout: pythonOut)
      // The answers, untimed: each number's national digits, line for line.
      let calldirOut = data.path("national-calldir.out")
      _ = try ProcessRunner.median(1, [binary, "normalize", "--national"], stdin: input, stdout: calldirOut)
      answer = Answers.sameLines(try Answers.lines(calldirOut), try Answers.lines(pythonOut))
    }

    // The formatter alone: every number formatted, `passes` times over.
    let passes = quick ? 10 : 30
    let formatter = NationalFormatter()
    var checksum = 0
    for number in sample.prefix(10_000) { checksum &+= formatter.nationalDigits(ofE164: number)?.count ?? 0 }
    var best = Double.infinity
    for _ in 0..<3 {
      let start = DispatchTime.now().uptimeNanoseconds
      for _ in 0..<passes {
        for number in sample {
          if let digits = formatter.nationalDigits(ofE164: number) { checksum &+= Int(truncatingIfNeeded: digits.low) } else { checksum &+= 1 }
        }
      }
      best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }
    let formatted = Double(count * passes)
    return [
      Row(
        name: "normalize --national \(count / 1000)k E.164", calldir: command,
        baselineName: "python phonenumbers format_number NATIONAL", baseline: python, floor: quick ? nil : 100,
        answer: answer),
      Row(
        name: "NationalFormatter, 1 thread, \(Int(formatted / 1e6))M numbers",
        calldir: Measurement(seconds: best, peakBytes: 0, status: 0), baselineName: "-",
        note: String(format: "%.1f M numbers/s (checksum %d)", formatted / best / 1e6, checksum & 0xFFFF)),
    ]
  }
}
