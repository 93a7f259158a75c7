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

/// Computes a ``ContentDigest`` while entries stream past, in constant memory.
///
/// The digest is SHA-256 over this canonical byte stream:
///
///     for each blocking number, ascending:
///         0x42 ('B'), number as 8 bytes little-endian
///     then for each identification entry, ascending by number:
///         0x49 ('I'), number as 8 bytes little-endian,
///         label UTF-8 byte count as 4 bytes little-endian, label UTF-8 bytes
///
/// Label bytes are the label's own UTF-8 encoding, without normalization.
/// The builder checks the order and the range of the entries.
///
///     var builder = ContentDigestBuilder()
///     try builder.addBlocking(18005551234)
///     try builder.addIdentification(33612345678, label: "🚫 démarchage")
///     let digest = builder.finalize()
public struct ContentDigestBuilder: Sendable {
  private var hasher = SHA256()
  private var staging = [UInt8](repeating: 0, count: 8192)
  private var fill = 0
  private var lastBlocking: Int64 = 0
  private var lastIdentification: Int64 = 0
  private var inIdentification = false

  /// Creates a builder for an empty stream.
  public init() {}

  /// Adds the next blocking number.
  /// - Throws: `BlobError` if the number is out of range, not ascending, or
  ///   follows an identification entry.
  public mutating func addBlocking(_ number: Int64) throws {
    guard !inIdentification else {
      throw BlobError.misuse("blocking numbers must precede identification entries in a digest")
    }
    try _checkNext(number, after: lastBlocking, section: .blocking)
    lastBlocking = number
    _appendBlocking(number)
  }

  /// Adds the next identification entry.
  /// - Throws: `BlobError` if the number is out of range or not ascending,
  ///   or the label is longer than ``BlobLimits/maxLabelBytes``.
  public mutating func addIdentification(_ number: Int64, label: String) throws {
    var label = label
    try label.withUTF8 { try addIdentification(number, labelUTF8: UnsafeRawBufferPointer($0)) }
  }

  /// Adds the next identification entry, given the label's UTF-8 bytes.
  mutating func addIdentification(_ number: Int64, labelUTF8: UnsafeRawBufferPointer) throws {
    try _checkNext(number, after: lastIdentification, section: .identification)
    guard labelUTF8.count <= BlobLimits.maxLabelBytes else {
      throw BlobError.labelTooLong(byteCount: labelUTF8.count)
    }
    inIdentification = true
    lastIdentification = number
    _appendIdentification(number, labelUTF8)
  }

  /// Adds blocking numbers already checked by the caller (writers).
  mutating func _appendBlocking(_ number: Int64) {
    if fill + 9 > staging.count { _flush() }
    let at = fill
    staging.withUnsafeMutableBytes { buffer in
      buffer[at] = 0x42
      buffer.storeBytes(of: number.littleEndian, toByteOffset: at + 1, as: Int64.self)
    }
    fill += 9
  }

  /// Adds an identification entry already checked by the caller (writers).
  mutating func _appendIdentification(_ number: Int64, _ label: UnsafeRawBufferPointer) {
    inIdentification = true
    if fill + 13 > staging.count { _flush() }
    let at = fill
    staging.withUnsafeMutableBytes { buffer in
      buffer[at] = 0x49
      buffer.storeBytes(of: number.littleEndian, toByteOffset: at + 1, as: Int64.self)
      buffer.storeBytes(of: UInt32(label.count).littleEndian, toByteOffset: at + 9, as: UInt32.self)
    }
    fill += 13
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
    _flush()
    return ContentDigest(_unchecked: hasher.finalize())
  }

  private mutating func _flush() {
    guard fill > 0 else { return }
    let count = fill
    staging.withUnsafeBytes { hasher.update(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
    fill = 0
  }

  private func _checkNext(_ number: Int64, after last: Int64, section: BlobSection) throws {
    guard number >= 1 && number <= BlobLimits.maxNumber else {
      throw BlobError.numberOutOfRange(section: section, number: number)
    }
    if number == last { throw BlobError.duplicateEntry(section: section, number: number) }
    if number < last {
      throw BlobError.outOfOrder(section: section, previous: last, number: number)
    }
  }
}
