#if os(Linux)
  import CVectorCodec
#endif

/// The SHA-256 content digest of a snapshot's entries.
///
/// The digest is defined over the entries, not over their encoding, so two
/// blobs with the same entries have the same digest whatever the writer's
/// block choices. See ``ContentDigestBuilder`` for the exact byte stream.
public struct ContentDigest: Sendable, Hashable, CustomStringConvertible {
  /// The 32 digest bytes.
  public let bytes: [UInt8]

  /// The all-zero digest, stored as the base digest of a full snapshot.
  public static let zero = ContentDigest(_unchecked: [UInt8](repeating: 0, count: 32))

  /// The digest of a snapshot with no entries (SHA-256 of the empty string).
  public static let empty = ContentDigestBuilder().finalize()

  /// Creates a digest from exactly 32 bytes, or returns `nil`.
  public init?(bytes: [UInt8]) {
    guard bytes.count == 32 else { return nil }
    self.bytes = bytes
  }

  /// Parses 64 hexadecimal digits, or returns `nil`.
  public init?(hex: String) {
    let digits = Array(hex.utf8)
    guard digits.count == 64 else { return nil }
    var out = [UInt8]()
    out.reserveCapacity(32)
    var index = 0
    while index < 64 {
      guard let high = _hexValue(digits[index]), let low = _hexValue(digits[index + 1]) else {
        return nil
      }
      out.append(high << 4 | low)
      index += 2
    }
    self.bytes = out
  }

  init(_unchecked bytes: [UInt8]) {
    self.bytes = bytes
  }

  /// The digest as 64 lowercase hexadecimal digits.
  public var hex: String {
    let alphabet = Array("0123456789abcdef".utf8)
    var chars = [UInt8]()
    chars.reserveCapacity(64)
    for byte in bytes {
      chars.append(alphabet[Int(byte >> 4)])
      chars.append(alphabet[Int(byte & 0x0F)])
    }
    return String(decoding: chars, as: UTF8.self)
  }

  /// The digest as 64 lowercase hexadecimal digits.
  public var description: String { hex }
}

private func _hexValue(_ c: UInt8) -> UInt8? {
  switch c {
  case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
  case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
  case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
  default: nil
  }
}

/// Computes a ``ContentDigest`` incrementally: SHA-256 over the canonical
/// stream of schemas/blob-format.md §7, which depends on the entries only.
///
/// Blocking numbers are hashed as the varint gaps between them, a run of
/// consecutive numbers as one escape, so a fully expanded prefix costs O(1)
/// and a scattered list about two bytes per number.
public struct ContentDigestBuilder: Sendable {
  private var hasher = SHA256()
  private var staging = [UInt8](repeating: 0, count: 1 << 16)
  private var fill = 0
  private var lastBlocking: Int64 = 0
  private var lastIdentification: Int64 = 0
  /// Consecutive blocking numbers (gap 1) not yet written out.
  private var pendingOnes: UInt64 = 0
  private var inIdentification = false

  /// Creates a builder for an empty stream.
  public init() {}

  /// Adds the next blocking number.
  /// - Throws: `BlobError` if the number is out of range, not ascending, or
  ///   follows an identification entry.
  public mutating func addBlocking(_ number: Int64) throws(BlobError) {
    guard !inIdentification else {
      throw BlobError.misuse("blocking numbers must precede identification entries in a digest")
    }
    try _checkNext(number, after: lastBlocking, section: .blocking)
    _appendBlocking(number)
  }

  /// Adds the next identification entry.
  /// - Throws: `BlobError` if the number is out of range or not ascending,
  ///   or the label is longer than ``BlobLimits/maxLabelBytes``.
  public mutating func addIdentification(_ number: Int64, label: String) throws(BlobError) {
    var label = label
    try label.withUTF8 { utf8 in
      Result { () throws(BlobError) in try addIdentification(number, labelUTF8: UnsafeRawBufferPointer(utf8)) }
    }.get()
  }

  /// Adds the next identification entry, given the label's UTF-8 bytes.
  mutating func addIdentification(_ number: Int64, labelUTF8: UnsafeRawBufferPointer) throws(BlobError) {
    try _checkNext(number, after: lastIdentification, section: .identification)
    guard labelUTF8.count <= BlobLimits.maxLabelBytes else {
      throw BlobError.labelTooLong(byteCount: labelUTF8.count)
    }
    _appendIdentification(number, labelUTF8)
  }

  /// Adds a blocking number already checked by the caller (writers).
  @inline(__always)
  mutating func _appendBlocking(_ number: Int64) {
    let gap = UInt64(bitPattern: number &- lastBlocking)
    lastBlocking = number
    if gap == 1 {
      pendingOnes &+= 1
      return
    }
    if pendingOnes > 0 { _flushOnes() }
    _emitVarint(gap)
  }

  /// Adds the consecutive blocking numbers of `range`, already checked (O(1)).
  mutating func _appendBlocking(_ range: ClosedRange<Int64>) {
    _appendBlocking(range.lowerBound)
    pendingOnes &+= UInt64(range.upperBound - range.lowerBound)
    lastBlocking = range.upperBound
  }

  /// Adds ascending blocking numbers already checked by the caller
  /// (writers); the same stream as adding them one by one, produced a
  /// staging buffer at a time without per-number calls.
  mutating func _appendBlocking(contentsOf numbers: UnsafeBufferPointer<Int64>) {
    _ = _appendBlocking(checkingAscent: numbers)
  }

  /// ``_appendBlocking(contentsOf:)`` for numbers whose order is not yet
  /// checked: returns false when one of them does not rise above the one
  /// before it (or above the last number added), and the digest is then
  /// of no use. (Checked on the way, so that a writer need not pass over
  /// the numbers once more to check them.)
  ///
  /// Eight numbers at a time with AVX-512 when `vectorized` (tests pass
  /// false to hold the Swift loop to the same stream).
  mutating func _appendBlocking(
    checkingAscent numbers: UnsafeBufferPointer<Int64>, vectorized: Bool = _VectorLoops.available
  ) -> Bool {
    guard var source = numbers.baseAddress else { return true }
    var left = numbers.count
    var rises = true
    while left > 0 {
      // Room for the most bytes a number takes, and for the vector
      // writer's last 64-byte store.
      if staging.count - fill < Self.bytesPerNumber * 64 + 64 { _flush() }
      let take = min(left, (staging.count - fill - 64) / Self.bytesPerNumber)
      let (at, last, ones, ascending) = staging.withUnsafeMutableBufferPointer { buffer in
        #if os(Linux)
          if vectorized, let out = buffer.baseAddress {
            var last = lastBlocking
            var ones = pendingOnes
            var falls: Int64 = 0
            let at = cvectorcodec_write_gaps(source, Int64(take), &last, &ones, out, fill, &falls)
            return (at, last, ones, falls >= 0)
          }
        #endif
        return Self._writeGaps(
          of: source, count: take, after: lastBlocking, pendingOnes: pendingOnes, to: buffer.baseAddress, at: fill)
      }
      lastBlocking = last
      pendingOnes = ones
      fill = at
      rises = rises && ascending
      source += take
      left -= take
    }
    return rises
  }

  /// The most bytes one blocking number adds to the stream: a pending-ones
  /// escape (11 bytes), then its gap (10).
  private static let bytesPerNumber = 21

  /// Writes the stream of `count` numbers from `source` at `out[at...]`
  /// (with room for ``bytesPerNumber`` bytes a number), after the number
  /// `last` and `ones` pending gaps of 1; returns where the stream ends and
  /// the state after the numbers, and whether each number rose above the
  /// one before it. (A function of its own, so that the state stays in
  /// registers rather than in the builder.)
  private static func _writeGaps(
    of source: UnsafePointer<Int64>, count: Int, after last: Int64, pendingOnes: UInt64,
    to out: UnsafeMutablePointer<UInt8>?, at start: Int
  ) -> (at: Int, last: Int64, ones: UInt64, ascending: Bool) {
    guard let out, count > 0 else { return (start, last, pendingOnes, true) }
    let shapes = _smallVarintShapes
    var at = start
    var ones = pendingOnes
    var previous = last
    // The sign bit of `number - previous - 1` is set once a number does
    // not rise while both are at least 0, that of `number` when it is not.
    var falls: Int64 = 0
    for index in 0..<count {
      let number = source[index]
      falls |= (number &- previous &- 1) | number
      let gap = UInt64(bitPattern: number &- previous)
      previous = number
      if gap == 1 {
        ones &+= 1
        continue
      }
      if ones > 0 {
        if ones == 1 {
          out[at] = 1
          at &+= 1
        } else {
          out[at] = 0
          at = _putVarint(ones, out, at &+ 1)
        }
        ones = 0
      }
      at = _putSmallVarint(gap, out, at, shapes: shapes)
    }
    return (at, previous, ones, falls >= 0)
  }

  /// Adds an identification entry already checked by the caller (writers).
  mutating func _appendIdentification(_ number: Int64, _ label: UnsafeRawBufferPointer) {
    if !inIdentification { _closeBlocking() }
    _emitVarint(UInt64(bitPattern: number &- lastIdentification))
    lastIdentification = number
    _emitVarint(UInt64(label.count))
    if fill + label.count > staging.count { _flush() }
    if label.count > staging.count {
      hasher.update(label)
    } else if let source = label.baseAddress, label.count > 0 {
      let at = fill
      staging.withUnsafeMutableBytes { buffer in
        buffer.baseAddress.map { ($0 + at).copyMemory(from: source, byteCount: label.count) }
      }
      fill += label.count
    }
  }

  /// Returns the digest of everything added so far.
  public consuming func finalize() -> ContentDigest {
    if !inIdentification { _closeBlocking() }
    _flush()
    return ContentDigest(_unchecked: hasher.finalize())
  }

  /// Ends the blocking list: pending run, then the terminator `0x00 0x00`.
  private mutating func _closeBlocking() {
    if pendingOnes > 0 { _flushOnes() }
    _emitVarint(0)
    _emitVarint(0)
    inIdentification = true
  }

  /// A single gap of 1 is itself; k ≥ 2 of them are the escape `0`, then k.
  private mutating func _flushOnes() {
    if pendingOnes == 1 {
      _emitVarint(1)
    } else {
      _emitVarint(0)
      _emitVarint(pendingOnes)
    }
    pendingOnes = 0
  }

  @inline(__always)
  private mutating func _emitVarint(_ value: UInt64) {
    if fill + 10 > staging.count { _flush() }
    var value = value
    var at = fill
    staging.withUnsafeMutableBufferPointer { buffer in
      while value >= 0x80 {
        buffer[at] = UInt8(truncatingIfNeeded: value) | 0x80
        value >>= 7
        at += 1
      }
      buffer[at] = UInt8(value)
    }
    fill = at + 1
  }

  private mutating func _flush() {
    guard fill > 0 else { return }
    let count = fill
    staging.withUnsafeBytes { hasher.update(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
    fill = 0
  }

  private func _checkNext(_ number: Int64, after last: Int64, section: BlobSection) throws(BlobError) {
    guard number >= 1 && number <= BlobLimits.maxNumber else {
      throw BlobError.numberOutOfRange(section: section, number: number)
    }
    if number == last { throw BlobError.duplicateEntry(section: section, number: number) }
    if number < last {
      throw BlobError.outOfOrder(section: section, previous: last, number: number)
    }
  }
}

/// Writes the minimal LEB128 form of `value` at `out[at...]`; returns the
/// position after it.
@inline(__always)
private func _putVarint(_ value: UInt64, _ out: UnsafeMutablePointer<UInt8>, _ at: Int) -> Int {
  var value = value
  var at = at
  while value >= 0x80 {
    out[at] = UInt8(truncatingIfNeeded: value) | 0x80
    value &>>= 7
    at &+= 1
  }
  out[at] = UInt8(truncatingIfNeeded: value)
  return at &+ 1
}

/// ``_putVarint(_:_:_:)`` without a loop for values below 2^28 (every gap
/// of a list of phone numbers but the first few): the four 7-bit groups
/// spread in one expression, the length and the continuation bits looked
/// up by the value's leading zeros in `shapes` (``_smallVarintShapes``),
/// and four bytes stored at once (the caller leaves room for ten).
@inline(__always)
private func _putSmallVarint(
  _ value: UInt64, _ out: UnsafeMutablePointer<UInt8>, _ at: Int, shapes: UnsafePointer<UInt32>
) -> Int {
  guard value < 1 &<< 28 else { return _putVarint(value, out, at) }
  let shape = shapes[(value | 1).leadingZeroBitCount]
  let groups = (value & 0x7F) | (value &<< 1 & 0x7F00) | (value &<< 2 & 0x7F_0000) | (value &<< 3 & 0x7F00_0000)
  UnsafeMutableRawPointer(out + at).storeBytes(
    of: (UInt32(truncatingIfNeeded: groups) | shape &>> 8).littleEndian, as: UInt32.self)
  return at &+ Int(shape & 0xFF)
}

/// For each count of leading zeros a value below 2^28 can have (36 to 63),
/// its varint's length in the low byte and its continuation bits (0x80 in
/// every byte but the last) in the three above: one load instead of a
/// division and a shift in the gap stream's loop.
nonisolated(unsafe) private let _smallVarintShapes: UnsafePointer<UInt32> = {
  let shapes = UnsafeMutablePointer<UInt32>.allocate(capacity: 64)
  for zeros in 0..<64 {
    let length = max(1, min(4, (70 - zeros) / 7))
    let continuations: UInt32 = 0x80_8080 & ((1 << UInt32(8 * (length - 1))) - 1)
    shapes[zeros] = continuations << 8 | UInt32(length)
  }
  return UnsafePointer(shapes)
}()
