import CalldirHost
import CalldirSystem
import CalldirTestSupport
import Foundation
import Testing

@testable import PhoneNumbers

/// `BatchNormalizer` (the exact E.164 lane, digits copied from the input,
/// validity read from the digits it split) must print exactly what
/// normalizing and classifying each line on its own gives.
@Suite struct BatchNormalizerTests {
  let normalizer = PhoneNumberNormalizer()

  /// Lines of every shape: `+` and digits for every calling code and
  /// length (national prefixes included), formatted and junk inputs, and
  /// CR LF endings.
  func sampleLines() -> [String] {
    var lines: [String] = []
    var random = AgreementRandom(seed: 77)
    func digits(_ count: Int) -> String { String((0..<count).map { _ in Character(String(random.next() % 10)) }) }
    for code in normalizer.plan.callingCodes {
      for length in [0, 2, 4, 6, 7, 8, 9, 10, 11, 12, 13] {
        for first in ["0", "1", "2", "5", "7", "8", "9"] where length > 0 {
          lines.append("+\(code)\(first)\(digits(length - 1))")
        }
      }
    }
    // NANP numbers of every area code, valid and not.
    for area in stride(from: 100, to: 1000, by: 7) { lines.append("+1\(area)\(2 + random.next() % 8)\(digits(6))") }
    var generator = InputGenerator(seed: 4_242, plan: normalizer.plan)
    for _ in 0..<3_000 {
      let (input, _) = generator.next()
      lines.append(input.replacingOccurrences(of: "\n", with: " ").replacingOccurrences(of: "\r", with: " "))
    }
    lines += ["", "+", "+1", "+12", "+123", "+0123", "++12025550123", "+12025550123\r", "+1202555012a", "+1 202 555 0123"]
    return lines
  }

  /// What `calldir normalize` prints for `line` on its own (plain mode).
  func expectedPlain(_ line: String, region: RegionMetadata?, requireValid: Bool) -> String {
    let text = line.hasSuffix("\r") ? String(line.dropLast()) : line
    switch normalizer.normalize(text, region: region) {
    case .success(let number):
      guard requireValid else { return String(number) }
      let validity = normalizer.plan.classifier.validity(of: number)
      if validity?.isValid == true { return String(number) }
      return "INVALID\t" + (validity?.invalidReason ?? "invalid country calling code")
    case .failure(let rejection):
      return "INVALID\t\(rejection)"
    }
  }

  /// Runs a batch normalizer over `lines` (separated by `separator`, in a file).
  func batchOutput(
    _ lines: [String], region: RegionMetadata?, json: Bool, requireValid: Bool, threads: Int, separator: String = "\n",
    national: Bool = false
  ) throws -> [String] {
    let path = temporaryPath("batch-normalizer", suffix: ".txt")
    defer { try? FileManager.default.removeItem(atPath: path) }
    try Data(lines.joined(separator: separator).utf8).write(to: URL(fileURLWithPath: path))
    var batch = BatchNormalizer(
      normalizer: normalizer, region: region, json: json, requireValid: requireValid, national: national)
    batch.threadCount = threads
    batch.chunkSize = 1 << 12
    var output: [UInt8] = []
    let input = try FileDescriptor.open(path, .readOnly)
    defer { try? input.close() }
    try batch.run(input: input) { bytes in
      output.append(contentsOf: bytes)
      return true
    }
    var text = String(decoding: output, as: UTF8.self)
    if text.hasSuffix("\n") { text.removeLast() }
    return text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
  }

  @Test(arguments: [false, true])
  func plainOutputMatchesEachLineOnItsOwn(requireValid: Bool) throws {
    let lines = sampleLines()
    for code in ["US", "GB", "DE"] {
      let region = normalizer.plan.region(code)
      for threads in [1, 2] {
        let actual = try batchOutput(lines, region: region, json: false, requireValid: requireValid, threads: threads)
        #expect(actual.count == lines.count)
        for (line, got) in zip(lines, actual) {
          let expected = expectedPlain(line, region: region, requireValid: requireValid)
          #expect(got == expected, "\(line.debugDescription) / \(code)")
        }
      }
    }
  }

  /// `--national`: each number's line gets a tab and its national digits;
  /// with JSON, a last key `national` (null where there is no number).
  @Test(arguments: [false, true])
  func nationalOutputMatchesEachLineOnItsOwn(requireValid: Bool) throws {
    let lines = sampleLines()
    let region = normalizer.plan.region("GB")
    let formatter = NationalFormatter()
    for threads in [1, 2] {
      let actual = try batchOutput(
        lines, region: region, json: false, requireValid: requireValid, threads: threads, national: true)
      #expect(actual.count == lines.count)
      for (line, got) in zip(lines, actual) {
        var expected = expectedPlain(line, region: region, requireValid: requireValid)
        if let number = Int64(expected) { expected += "\t" + (formatter.nationalDigits(ofE164: number)?.description ?? "") }
        #expect(got == expected, "\(line.debugDescription)")
      }
    }
    let json = try batchOutput(lines, region: region, json: true, requireValid: requireValid, threads: 2, national: true)
    let plain = try batchOutput(lines, region: region, json: true, requireValid: requireValid, threads: 2)
    for (withNational, without) in zip(json, plain) {
      let object = try #require(try JSONSerialization.jsonObject(with: Data(withNational.utf8)) as? [String: Any])
      // The same object, `national` added last.
      #expect(withNational.hasPrefix(String(without.dropLast())) && withNational.contains(#","national":"#))
      if let number = (object["number"] as? NSNumber)?.int64Value {
        #expect(object["national"] as? String == formatter.nationalDigits(ofE164: number)?.description)
      } else {
        #expect(object["national"] is NSNull)
      }
    }
  }

  @Test func jsonOutputMatchesEachLineOnItsOwn() throws {
    let lines = sampleLines()
    let region = normalizer.plan.region("US")
    let actual = try batchOutput(lines, region: region, json: true, requireValid: false, threads: 2)
    #expect(actual.count == lines.count)
    for (line, got) in zip(lines, actual) {
      let object = try #require(
        try JSONSerialization.jsonObject(with: Data(got.utf8)) as? [String: Any], "\(got)")
      let text = line.hasSuffix("\r") ? String(line.dropLast()) : line
      switch normalizer.normalize(text, region: region) {
      case .success(let number):
        let validity = normalizer.plan.classifier.validity(of: number)
        #expect((object["number"] as? NSNumber)?.int64Value == number, "\(line.debugDescription)")
        #expect(object["valid"] as? Bool == (validity?.isValid == true), "\(line.debugDescription)")
        #expect(object["type"] as? String == (validity?.type ?? .unknown).rawValue, "\(line.debugDescription)")
      case .failure(let rejection):
        #expect(object["number"] is NSNull, "\(line.debugDescription)")
        #expect(object["reason"] as? String == rejection.description, "\(line.debugDescription)")
      }
    }
  }

  /// A line longer than a chunk is answered as a whole line would be and
  /// read past, not held: the lines around it are unaffected.
  @Test(arguments: [false, true])
  func aLineLongerThanAChunkIsTooLongAndTheNextLinesRead(json: Bool) throws {
    let region = normalizer.plan.region("US")
    for long in [String(repeating: "1", count: 10_000), String(repeating: "€", count: 5_000), String(repeating: "é", count: 3_001)] {
      for lastLine in [false, true] {
        let lines = ["+12125550100", long] + (lastLine ? [] : ["(212) 555-0101", long + "\r", "+12125550102"])
        let actual = try batchOutput(lines, region: region, json: json, requireValid: false, threads: 2)
        #expect(actual.count == lines.count)
        for (line, got) in zip(lines, actual) {
          guard json else {
            #expect(got == expectedPlain(line, region: region, requireValid: false))
            continue
          }
          let object = try #require(try JSONSerialization.jsonObject(with: Data(got.utf8)) as? [String: Any])
          let input = try #require(object["input"] as? String)
          if line.utf8.count > 4096 {
            // The first chunk's characters, whole.
            #expect(object["reason"] as? String == "too long")
            #expect(line.hasPrefix(input) && input.utf8.count > 4092 && input.utf8.count <= 4096)
          } else {
            #expect(input == line)
          }
        }
      }
    }
  }

  /// A stream whose lines end in CR alone gives a line per CR, past the
  /// first chunk too.
  @Test func linesEndingInCarriageReturnsAloneAreLines() throws {
    let region = normalizer.plan.region("US")
    let lines = (0..<900).map { "(212) 555-\(1000 + $0)" }
    let actual = try batchOutput(lines, region: region, json: false, requireValid: false, threads: 2, separator: "\r")
    #expect(actual == lines.map { expectedPlain($0, region: region, requireValid: false) })
  }

  /// A line longer than the chunk size, anywhere (the last, too, without
  /// its LF), is too long and read past; with JSON its input is its first
  /// chunk, cut back to a whole character. The lines around it are
  /// answered as ever.
  @Test func linesLongerThanAChunkAreTooLongAndReadPast() throws {
    // 4094 ASCII bytes, then "é" across the chunk's end (4096 bytes).
    let long = String(repeating: "7", count: 4094) + "é" + String(repeating: "8", count: 5000)
    for position in 0...2 {
      var lines = ["+12125550100", "+442079460000"]
      lines.insert(long, at: position)
      let plain = try batchOutput(lines, region: nil, json: false, requireValid: false, threads: 2)
      #expect(plain == lines.map { $0 == long ? "INVALID\ttoo long" : String($0.dropFirst()) })
      let json = try batchOutput(lines, region: nil, json: true, requireValid: false, threads: 2)
      let object = try #require(try JSONSerialization.jsonObject(with: Data(json[position].utf8)) as? [String: Any])
      #expect(object["input"] as? String == String(repeating: "7", count: 4094))
      #expect(object["reason"] as? String == "too long")
      #expect(json.count == 3)
    }
  }

  /// From a pipe with nothing more ready, the lines at hand are answered
  /// before more come (a writer that waits for each line's answer).
  @Test func linesAtHandAreAnsweredBeforeMoreArrive() throws {
    let (readEnd, writeEnd) = try FileDescriptor.pipe()
    defer { try? readEnd.close() }
    let lines = (0..<4).map { "+1212555010\($0)" }
    let handoff = Handoff()
    DispatchQueue.global().async {
      for line in lines {
        try? writeEnd.writeAll(Array((line + "\n").utf8))
        if handoff.answered.wait(timeout: .now() + 10) == .timedOut { handoff.timedOut = true }
      }
      try? writeEnd.close()
      handoff.done.signal()
    }
    var output: [UInt8] = []
    let batch = BatchNormalizer(normalizer: normalizer, region: nil, json: false)
    try batch.run(input: readEnd) { bytes in
      output.append(contentsOf: bytes)
      handoff.answered.signal()
      return true
    }
    handoff.done.wait()
    #expect(String(decoding: output, as: UTF8.self) == lines.map { $0.dropFirst() + "\n" }.joined())
    #expect(!handoff.timedOut)
  }

  final class Handoff: @unchecked Sendable {
    let answered = DispatchSemaphore(value: 0)
    let done = DispatchSemaphore(value: 0)
    /// Written by the writer before it signals `done`.
    var timedOut = false
  }
}
