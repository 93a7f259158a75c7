/// Whether `p[0..<count]` is well-formed UTF-8 (RFC 3629: no overlong
/// forms, no surrogates, nothing above U+10FFFF).
func _isValidUTF8(_ p: UnsafePointer<UInt8>, _ count: Int) -> Bool {
  var index = 0
  let raw = UnsafeRawPointer(p)
  while index < count {
    // ASCII fast path, eight bytes at a time.
    while index + 8 <= count,
      raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
        & 0x8080_8080_8080_8080 == 0
    {
      index += 8
    }
    guard index < count else { break }
    let lead = p[index]
    if lead < 0x80 {
      index += 1
      continue
    }
    let length: Int
    var lowest: UInt8 = 0x80
    var highest: UInt8 = 0xBF
    switch lead {
    case 0xC2...0xDF: length = 2
    case 0xE0: length = 3; lowest = 0xA0
    case 0xE1...0xEC, 0xEE...0xEF: length = 3
    case 0xED: length = 3; highest = 0x9F
    case 0xF0: length = 4; lowest = 0x90
    case 0xF1...0xF3: length = 4
    case 0xF4: length = 4; highest = 0x8F
    default: return false
    }
    guard index + length <= count else { return false }
    let second = p[index + 1]
    guard second >= lowest, second <= highest else { return false }
    var offset = 2
    while offset < length {
      guard p[index + offset] & 0xC0 == 0x80 else { return false }
      offset += 1
    }
    index += length
  }
  return true
}

/// Whether `bytes` is well-formed UTF-8.
func _isValidUTF8(_ bytes: [UInt8]) -> Bool {
  bytes.withUnsafeBufferPointer { buffer in
    guard let start = buffer.baseAddress else { return true }
    return _isValidUTF8(start, buffer.count)
  }
}

/// Whether the bytes are valid UTF-8 (an empty view is).
func _isValidUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
  guard let start = bytes.baseAddress else { return true }
  return _isValidUTF8(start, bytes.count)
}
