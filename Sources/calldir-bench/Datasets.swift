import FormatFixtures
import Foundation

/// Deterministic benchmark inputs, written once into the work directory.
struct Datasets {
  let directory: String

  func path(_ name: String) -> String { directory + "/" + name }

  /// Writes `name` with `body` unless it already exists (inputs are
  /// deterministic, so an existing file is the same file).
  func file(_ name: String, _ body: (LineSink) -> Void) throws -> String {
    let target = path(name)
    if FileManager.default.fileExists(atPath: target) { return target }
    let temporary = target + ".tmp"
    guard FileManager.default.createFile(atPath: temporary, contents: nil) else { throw BenchError.data("cannot create \(temporary)") }
    let sink = LineSink(handle: try FileHandle(forWritingTo: URL(fileURLWithPath: temporary)))
    body(sink)
    try sink.close()
    try FileManager.default.moveItem(atPath: temporary, toPath: target)
    return target
  }

  /// 300 NANP area codes.
  static func areaCodes(_ generator: inout SplitMix64) -> [UInt64] {
    (0..<300).map { _ in 201 + generator.next(below: 789) }
  }

  /// E.164 lines (`+1NPANXXXXXX`) over 300 area codes, some repeated.
  func e164Lines(count: Int, name: String, seed: UInt64 = 11) throws -> String {
    try file(name) { sink in
      var generator = SplitMix64(seed: seed)
      let codes = Self.areaCodes(&generator)
      for _ in 0..<count {
        let code = codes[Int(generator.next(below: UInt64(codes.count)))]
        sink.writeNANP(areaCode: code, subscriber: generator.next(below: 10_000_000))
      }
    }
  }

  /// Mixed formats people write, read with region US: E.164 with spaces,
  /// national with punctuation, international with IDD, extensions, vanity
  /// letters, full-width digits, spreadsheet artefacts, local numbers and junk.
  func mixedNumbers(count: Int, name: String) throws -> String {
    try file(name) { sink in
      var generator = SplitMix64(seed: 12)
      let codes = Self.areaCodes(&generator)
      for _ in 0..<count {
        let code = codes[Int(generator.next(below: UInt64(codes.count)))]
        let exchange = 200 + generator.next(below: 800)
        let line = Self.pad(generator.next(below: 10_000), 4)
        switch generator.next(below: 100) {
        case 0..<25: sink.write("+1 \(code)-\(exchange)-\(line)")
        case 25..<45: sink.write("(\(code)) \(exchange)-\(line)")
        case 45..<55: sink.write("\(code).\(exchange).\(line)")
        case 55..<62: sink.write("1\(code)\(exchange)\(line)")
        case 62..<70: sink.write("011 44 20 79\(Self.pad(generator.next(below: 100), 2)) \(line)")
        case 70..<75: sink.write("+44 (0)20 7946 \(line)")
        case 75..<80: sink.write("\(code)-\(exchange)-\(line) ext. \(generator.next(below: 999))")
        case 80..<83: sink.write("1-800-FLOWERS")
        case 83..<86: sink.write(fullWidth("+1 \(code) \(exchange) \(line)"))
        case 86..<89: sink.write("=\"\(code)\(exchange)\(line)\"")
        case 89..<92: sink.write("tel:+1-\(code)-\(exchange)-\(line)")
        case 92..<96: sink.write("\(exchange)-\(line)")
        default: sink.write("call me maybe \(generator.next(below: 99))")
        }
      }
    }
  }

  static func pad(_ value: some BinaryInteger, _ width: Int) -> String {
    let text = String(value)
    return String(repeating: "0", count: max(0, width - text.count)) + text
  }

  private func fullWidth(_ text: String) -> String {
    String(String.UnicodeScalarView(text.unicodeScalars.map { scalar in
      (48...57).contains(scalar.value) ? Unicode.Scalar(scalar.value - 48 + 0xFF10) ?? scalar : scalar
    }))
  }
}

/// Buffered line output to a file.
final class LineSink {
  private let handle: FileHandle
  private var buffer: [UInt8] = []

  init(handle: FileHandle) {
    self.handle = handle
    buffer.reserveCapacity(1 << 22)
  }

  func write(_ line: String) {
    buffer.append(contentsOf: line.utf8)
    buffer.append(0x0A)
    if buffer.count >= 1 << 22 { flush() }
  }

  /// Writes `+1` with a 3-digit area code and a 7-digit subscriber number.
  func writeNANP(areaCode: UInt64, subscriber: UInt64) {
    buffer.append(0x2B)
    buffer.append(0x31)
    var digits = areaCode * 10_000_000 + subscriber
    let start = buffer.count
    for _ in 0..<10 {
      buffer.append(0x30 + UInt8(digits % 10))
      digits /= 10
    }
    buffer[start..<buffer.count].reverse()
    buffer.append(0x0A)
    if buffer.count >= 1 << 22 { flush() }
  }

  func write(number: Int64) {
    write(String(number))
  }

  func close() throws {
    flush()
    try handle.close()
  }

  private func flush() {
    handle.write(Data(buffer))
    buffer.removeAll(keepingCapacity: true)
  }
}
