import CalldirHost

/// The appenders `calldir normalize` writes its output lines with, on the
/// hot path (``_NormalizeJob``, ``_NormalizeOutput``): room is reserved
/// first, then bytes and words are stored through ``GrowableBuffer/base``.
extension GrowableBuffer where Element == UInt8 {
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

  /// Appends `line` without its first byte (the `+` of an exact E.164
  /// line: 3 to 15 ASCII digits, the decimal form of its number) and LF.
  /// When 16 bytes from the line's second are readable (before
  /// `readableEnd`), they are copied as two words and the bytes past the
  /// digits overwritten later.
  @inline(__always)
  func appendDigitLine(afterPlus line: UnsafeBufferPointer<UInt8>, readableEnd: UnsafePointer<UInt8>) {
    guard let start = line.baseAddress, line.count >= 1 else { return }
    let digits = line.count &- 1
    reserve(17)
    let target = base + count
    if line.count <= 16 && readableEnd - start >= 17 {
      let source = UnsafeRawPointer(start + 1)
      let destination = UnsafeMutableRawPointer(target)
      destination.storeBytes(of: source.loadUnaligned(as: UInt64.self), as: UInt64.self)
      destination.storeBytes(of: source.loadUnaligned(fromByteOffset: 8, as: UInt64.self), toByteOffset: 8, as: UInt64.self)
    } else {
      for index in 0..<digits { target[index] = start[index &+ 1] }
    }
    target[digits] = 0x0A
    count &+= digits &+ 1
  }

  /// Appends `INVALID<TAB>invalid for region XX<LF>` for the region code
  /// packed in `packedRegion` (``NumberValidity``'s packing: up to four
  /// ASCII bytes, the first lowest), as
  /// ``_NormalizeOutput/appendInvalidReason(_:to:)`` words it, in a few
  /// word stores.
  @inline(__always)
  func appendInvalidLine(packedRegion: UInt32) {
    reserve(40)
    count &+= 28 &+ Self.writeInvalidLine(packedRegion: packedRegion, to: UnsafeMutableRawPointer(base + count))
  }

  /// Writes `INVALID<TAB>invalid for region XX<LF>` at `target` (room for
  /// 40 bytes) and returns the region code's length (the line is 28 bytes
  /// more).
  @inline(__always)
  static func writeInvalidLine(packedRegion: UInt32, to target: UnsafeMutableRawPointer) -> Int {
    // "INVALID\tinvalid for region " is 27 bytes: three words and three
    // bytes (a fourth byte overwritten by the region).
    target.storeBytes(of: 0x0944_494C_4156_4E49 as UInt64, as: UInt64.self)  // INVALID\t
    target.storeBytes(of: 0x2064_696C_6176_6E69 as UInt64, toByteOffset: 8, as: UInt64.self)  // invalid_
    target.storeBytes(of: 0x6967_6572_2072_6F66 as UInt64, toByteOffset: 16, as: UInt64.self)  // for regi
    target.storeBytes(of: 0x0020_6E6F as UInt32, toByteOffset: 24, as: UInt32.self)  // on_
    target.storeBytes(of: packedRegion.littleEndian, toByteOffset: 27, as: UInt32.self)
    let regionLength = (32 &- packedRegion.leadingZeroBitCount &+ 7) / 8
    target.storeBytes(of: 0x0A as UInt8, toByteOffset: 27 &+ regionLength, as: UInt8.self)
    return regionLength
  }

  /// Appends the `normalize --valid` line of an exact E.164 line (`+` and
  /// 3 to 15 digits) whose verdict is `verdict` (a non-zero
  /// ``NumberValidity/word``): its digits when valid, else
  /// `INVALID<TAB>invalid for region XX`, then LF. Both are written, one
  /// past the other, and the count moves past the one that stands: no
  /// branch on the verdict.
  @inline(__always)
  func appendExactLine(afterPlus line: UnsafeBufferPointer<UInt8>, readableEnd: UnsafePointer<UInt8>, verdict: UInt64) {
    guard let start = line.baseAddress, line.count >= 1, line.count <= 16, readableEnd - start >= 17 else {
      if NumberValidity.isValid(word: verdict) {
        appendDigitLine(afterPlus: line, readableEnd: readableEnd)
      } else {
        appendInvalidLine(packedRegion: UInt32(truncatingIfNeeded: verdict))
      }
      return
    }
    reserve(96)
    let valid = NumberValidity.isValid(word: verdict)
    let here = UnsafeMutableRawPointer(base + count)
    let digitsAt = valid ? here : here + 48
    let textAt = valid ? here + 48 : here
    let source = UnsafeRawPointer(start + 1)
    let digits = line.count &- 1
    digitsAt.storeBytes(of: source.loadUnaligned(as: UInt64.self), as: UInt64.self)
    digitsAt.storeBytes(of: source.loadUnaligned(fromByteOffset: 8, as: UInt64.self), toByteOffset: 8, as: UInt64.self)
    digitsAt.storeBytes(of: 0x0A as UInt8, toByteOffset: digits, as: UInt8.self)
    let regionLength = Self.writeInvalidLine(packedRegion: UInt32(truncatingIfNeeded: verdict), to: textAt)
    count &+= valid ? digits &+ 1 : 28 &+ regionLength
  }

  /// Appends the decimal digits of a non-negative number; room for 24
  /// bytes must have been reserved.
  @inline(__always)
  func appendDecimal(_ value: Int64) {
    count &+= NumberDigits.writeASCII(UInt64(bitPattern: value), to: UnsafeMutableRawPointer(base + count))
  }
}
