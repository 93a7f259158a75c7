import CalldirSystem
import CalldirSystem

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// `calldir normalize` over a stream: reads it in large chunks, normalizes
/// whole lines with the byte API on every core, and hands the results on
/// strictly in input order, byte for byte what normalizing the lines one by
/// one prints (a number, or `INVALID<TAB>reason`; or one JSON object per
/// line, with libphonenumber's validity and number type). With
/// ``requireValid``, possible numbers that are not valid are rejected too
/// (`INVALID<TAB>invalid for region XX`).
///
/// Lines end at LF; a CR before it is dropped; a last line without LF still
/// counts. Each line's bytes are normalized as its UTF-8 text (ill-formed
/// sequences read as U+FFFD, as `String(decoding:as:)` does).
public struct BatchNormalizer {
  public let normalizer: PhoneNumberNormalizer
  public let region: RegionMetadata?
  public let json: Bool
  /// Bytes read per batch.
  public var chunkSize = 4 << 20
  /// Threads per batch, at most 8 (``Parallel/coreCount``, which
  /// `CALLDIR_THREADS` overrides).
  public var threadCount = min(8, Parallel.coreCount)
  /// Whether numbers must also be valid (`normalize --valid`).
  public var requireValid = false

  public init(normalizer: PhoneNumberNormalizer, region: RegionMetadata?, json: Bool, requireValid: Bool = false) {
    self.normalizer = normalizer
    self.region = region
    self.json = json
    self.requireValid = requireValid
  }

  /// Normalizes every line of `input`, handing each batch's output to
  /// `write`, which returns false to stop (a closed pipe).
  /// - Throws: the ``FileError`` of a failed read.
  public func run(input: FileDescriptor, name: String = "standard input", write: (UnsafeRawBufferPointer) -> Bool) throws(FileError) {
    var capacity = chunkSize
    var buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
    defer { buffer.deallocate() }
    let outputs = (0..<max(1, threadCount)).map { _ in _ByteBuffer() }
    var filled = 0
    var atEnd = false
    var writable = true
    while !atEnd && writable {
      // Fill the buffer while input is at hand; when a pipe or terminal has
      // nothing more right now, go on with the lines read so far rather than
      // wait for a whole chunk.
      while filled < capacity {
        let count: Int
        do {
          count = try input.read(into: UnsafeMutableRawBufferPointer(start: buffer + filled, count: capacity - filled))
        } catch {
          throw FileError(operation: "read", path: name, errno: error)
        }
        if count == 0 {
          atEnd = true
          break
        }
        filled += count
        if filled < capacity && !input.hasInputReady && memchr(buffer, 0x0A, filled) != nil { break }
      }
      // Whole lines only, except for an unterminated last line.
      var end = filled
      if !atEnd {
        while end > 0 && buffer[end - 1] != 0x0A { end -= 1 }
        if end == 0 {
          // One line longer than the buffer: grow it and read on.
          let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity * 2)
          grown.update(from: buffer, count: filled)
          buffer.deallocate()
          buffer = grown
          capacity *= 2
          continue
        }
      }
      process(UnsafeBufferPointer(start: buffer, count: end), outputs: outputs)
      for part in outputs where part.count > 0 {
        if writable { writable = write(UnsafeRawBufferPointer(start: part.base, count: part.count)) }
        part.count = 0
      }
      let rest = filled - end
      if rest > 0 { buffer.update(from: buffer + end, count: rest) }
      filled = rest
    }
  }

  /// Normalizes the lines of `block` (whole lines; at the end of the input
  /// the last may lack its LF) into `outputs`, one part per thread.
  private func process(_ block: UnsafeBufferPointer<UInt8>, outputs: [_ByteBuffer]) {
    guard let base = block.baseAddress, block.count > 0 else { return }
    // Small batches are not worth a thread.
    let parts = block.count < 1 << 16 ? 1 : outputs.count
    var bounds = [0]
    for part in 1..<max(parts, 1) {
      var cut = max(block.count * part / parts, bounds[bounds.count - 1])
      while cut < block.count && base[cut - 1] != 0x0A { cut += 1 }
      bounds.append(cut)
    }
    bounds.append(block.count)
    let jobs = (0..<parts).map { part in
      _Job(
        lines: UnsafeBufferPointer(start: base + bounds[part], count: bounds[part + 1] - bounds[part]),
        output: outputs[part], normalizer: normalizer, region: region, json: json,
        requireValid: requireValid)
    }
    Parallel.forEach(parts: parts) { part in jobs[part].run() }
  }
}

/// One thread's share of a batch.
private final class _Job: @unchecked Sendable {
  let lines: UnsafeBufferPointer<UInt8>
  let output: _ByteBuffer
  let normalizer: PhoneNumberNormalizer
  let region: RegionMetadata?
  let json: Bool
  let requireValid: Bool
  /// `INVALID<TAB>reason<LF>` for each rejection, by `NormalizationRejection.index`.
  let invalidLines = _NormalizeOutput.reasons.map { Array("INVALID\t".utf8) + $0 + [0x0A] }

  init(lines: UnsafeBufferPointer<UInt8>, output: _ByteBuffer, normalizer: PhoneNumberNormalizer,
       region: RegionMetadata?, json: Bool, requireValid: Bool) {
    self.lines = lines
    self.output = output
    self.normalizer = normalizer
    self.region = region
    self.json = json
    self.requireValid = requireValid
  }

  /// The offset of the first LF in `base[from..<count]`, or `count`: eight
  /// bytes at a time (lines are short, so this beats calling `memchr`).
  @inline(__always)
  static func newline(in base: UnsafePointer<UInt8>, from: Int, count: Int) -> Int {
    var index = from
    while index + 8 <= count {
      let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self) ^ 0x0A0A_0A0A_0A0A_0A0A
      // The lowest byte that was LF is the lowest set high bit (little endian).
      let found = (word &- 0x0101_0101_0101_0101) & ~word & 0x8080_8080_8080_8080
      if found != 0 { return index + found.trailingZeroBitCount / 8 }
      index += 8
    }
    while index < count && base[index] != 0x0A { index += 1 }
    return index
  }

  /// Lines normalized before their numbers are classified together: a
  /// loop of classifications alone lets the processor overlap one number's
  /// table walk with the next one's.
  static let groupSize = 64

  func run() {
    guard let base = lines.baseAddress else { return }
    let count = lines.count
    guard json || requireValid else {
      var start = 0
      while start < count {
        let line = Self.line(in: base, from: &start, count: count)
        emit(line, normalizer.normalize(utf8: line, region: region), validity: nil)
      }
      return
    }
    // Numbers need their validity for JSON and for `requireValid`; each
    // calling code's types compile when its first number comes.
    var classifier = IncrementalClassifier(plan: normalizer.plan)
    let group = Self.groupSize
    let groupLines = UnsafeMutablePointer<UnsafeBufferPointer<UInt8>>.allocate(capacity: group)
    let results = UnsafeMutablePointer<Result<Int64, NormalizationRejection>>.allocate(capacity: group)
    let validities = UnsafeMutablePointer<NumberValidity?>.allocate(capacity: group)
    defer {
      groupLines.deallocate()
      results.deallocate()
      validities.deallocate()
    }
    var start = 0
    while start < count {
      var filled = 0
      while filled < group && start < count {
        let line = Self.line(in: base, from: &start, count: count)
        (groupLines + filled).initialize(to: line)
        (results + filled).initialize(to: normalizer.normalize(utf8: line, region: region))
        filled += 1
      }
      for index in 0..<filled {
        var validity: NumberValidity? = nil
        if case .success(let number) = results[index] { validity = classifier.validity(of: number) }
        (validities + index).initialize(to: validity)
      }
      for index in 0..<filled { emit(groupLines[index], results[index], validity: validities[index]) }
      groupLines.deinitialize(count: filled)
      results.deinitialize(count: filled)
      validities.deinitialize(count: filled)
    }
  }

  /// The line starting at `start` (without its LF or CR LF); `start` moves
  /// past it.
  @inline(__always)
  static func line(in base: UnsafePointer<UInt8>, from start: inout Int, count: Int) -> UnsafeBufferPointer<UInt8> {
    let end = newline(in: base, from: start, count: count)
    var lineEnd = end
    if lineEnd > start && base[lineEnd - 1] == 0x0D { lineEnd -= 1 }
    let line = UnsafeBufferPointer(start: base + start, count: lineEnd - start)
    start = end + 1
    return line
  }

  /// Writes the output line for one input line.
  @inline(__always)
  func emit(_ line: UnsafeBufferPointer<UInt8>, _ result: Result<Int64, NormalizationRejection>, validity: NumberValidity?) {
    if json {
      _NormalizeOutput.appendJSON(input: line, result: result, validity: validity, requireValid: requireValid, to: output)
      return
    }
    switch result {
    case .success(let number):
      if requireValid, validity?.isValid != true {
        output.append("INVALID\t")
        _NormalizeOutput.appendInvalidReason(validity, to: output)
        output.append("\n")
        return
      }
      output.reserve(24)
      output.appendDecimal(number)
      output.appendByte(0x0A)
    case .failure(let rejection):
      output.append(invalidLines[rejection.index])
    }
  }
}

/// The output lines of `calldir normalize`, built as bytes.
enum _NormalizeOutput {
  /// The reason for a possible number that is not valid, as
  /// ``NumberValidity/invalidReason``, without building a String.
  @inline(__always)
  static func appendInvalidReason(_ validity: NumberValidity?, to output: _ByteBuffer) {
    guard let validity else {
      output.append("invalid country calling code")
      return
    }
    output.append("invalid for region ")
    output.reserve(4)
    var rest = validity.packedRegion
    while rest != 0 {
      output.appendByte(UInt8(truncatingIfNeeded: rest))
      rest >>= 8
    }
  }

  /// Each type's name as UTF-8, by `PhoneNumberType.allCases` position.
  static let typeNames: [[UInt8]] = PhoneNumberType.allCases.map { Array($0.rawValue.utf8) }

  /// `{"input":…,"number":…|null,"reason":…|null,"valid":…|null,"type":…|null}`
  /// and LF, as `JSONValue.serialized()` writes it. `valid` and `type` are
  /// null where the input is rejected as not possible; with `requireValid`
  /// an invalid number has `number` null and its reason.
  static func appendJSON(
    input: UnsafeBufferPointer<UInt8>, result: Result<Int64, NormalizationRejection>, validity: NumberValidity?,
    requireValid: Bool, to output: _ByteBuffer
  ) {
    output.append("{\"input\":")
    if input.contains(where: { $0 >= 0x80 }) {
      // The text as the command sees it: ill-formed UTF-8 repaired.
      var text = String(decoding: input, as: UTF8.self)
      text.withUTF8 { appendJSONString($0, to: output) }
    } else {
      appendJSONString(input, to: output)
    }
    switch result {
    case .success(let number):
      let valid = validity?.isValid == true
      if requireValid && !valid {
        output.append(",\"number\":null,\"reason\":\"")
        appendInvalidReason(validity, to: output)
        output.append("\"")
      } else {
        output.append(",\"number\":")
        output.reserve(24)
        output.appendDecimal(number)
        output.append(",\"reason\":null")
      }
      output.append(valid ? ",\"valid\":true,\"type\":\"" : ",\"valid\":false,\"type\":\"")
      output.append(typeNames[(validity?.type ?? .unknown).index])
      output.append("\"}\n")
    case .failure(let rejection):
      output.append(",\"number\":null,\"reason\":\"")
      output.append(reasons[rejection.index])
      output.append("\",\"valid\":null,\"type\":null}\n")
    }
  }

  private static let hexDigits = Array("0123456789abcdef".utf8)

  private static func appendJSONString(_ text: UnsafeBufferPointer<UInt8>, to output: _ByteBuffer) {
    output.reserve(text.count * 6 + 2)
    output.appendByte(UInt8(ascii: "\""))
    for byte in text {
      switch byte {
      case UInt8(ascii: "\""): output.appendByte(UInt8(ascii: "\\")); output.appendByte(UInt8(ascii: "\""))
      case UInt8(ascii: "\\"): output.appendByte(UInt8(ascii: "\\")); output.appendByte(UInt8(ascii: "\\"))
      case 0x0A: output.appendByte(UInt8(ascii: "\\")); output.appendByte(UInt8(ascii: "n"))
      case 0x0D: output.appendByte(UInt8(ascii: "\\")); output.appendByte(UInt8(ascii: "r"))
      case 0x09: output.appendByte(UInt8(ascii: "\\")); output.appendByte(UInt8(ascii: "t"))
      case 0x08: output.appendByte(UInt8(ascii: "\\")); output.appendByte(UInt8(ascii: "b"))
      case 0x0C: output.appendByte(UInt8(ascii: "\\")); output.appendByte(UInt8(ascii: "f"))
      case 0x00..<0x20:
        for escaped in [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                        hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0x0F)]] {
          output.appendByte(escaped)
        }
      default:
        output.appendByte(byte)
      }
    }
    output.appendByte(UInt8(ascii: "\""))
  }

  /// Each rejection's description as UTF-8, by `NormalizationRejection.index`.
  static let reasons: [[UInt8]] = NormalizationRejection.allCases.map { Array($0.description.utf8) }
}

/// A growable byte buffer owned by one thread at a time.
final class _ByteBuffer: @unchecked Sendable {
  /// Keeps two buffers' hot fields off one cache line (each thread writes
  /// its buffer's `count` for every line).
  private let padding: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)
  private(set) var base: UnsafeMutablePointer<UInt8>
  private var capacity: Int
  var count = 0
  private let trailingPadding: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)

  init(capacity: Int = 1 << 20) {
    self.capacity = capacity
    self.base = .allocate(capacity: capacity)
  }

  deinit { base.deallocate() }

  /// Makes room for `extra` more bytes.
  @inline(__always)
  func reserve(_ extra: Int) {
    if count + extra > capacity { grow(count + extra) }
  }

  private func grow(_ needed: Int) {
    var newCapacity = capacity * 2
    while newCapacity < needed { newCapacity *= 2 }
    let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
    grown.update(from: base, count: count)
    base.deallocate()
    base = grown
    capacity = newCapacity
  }

  /// Appends one byte; room must have been reserved.
  @inline(__always)
  func appendByte(_ byte: UInt8) {
    base[count] = byte
    count += 1
  }

  func append(_ bytes: [UInt8]) {
    reserve(bytes.count)
    bytes.withUnsafeBufferPointer { (base + count).update(from: $0.baseAddress!, count: $0.count) }
    count += bytes.count
  }

  func append(_ text: StaticString) {
    reserve(text.utf8CodeUnitCount)
    (base + count).update(from: text.utf8Start, count: text.utf8CodeUnitCount)
    count += text.utf8CodeUnitCount
  }

  /// Appends the decimal digits of a non-negative number; room for 20 bytes
  /// must have been reserved.
  @inline(__always)
  func appendDecimal(_ value: Int64) {
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: NumberDigits.capacity) { digits in
      let first = NumberDigits.write(UInt64(bitPattern: value), into: digits.baseAddress!)
      for index in first..<NumberDigits.capacity { base[count + index - first] = digits[index] | 0x30 }
      count += NumberDigits.capacity - first
    }
  }
}
