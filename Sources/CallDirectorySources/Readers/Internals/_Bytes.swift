/// ASCII byte constants and small helpers shared by the readers.
package enum _ASCII {
  package static let tab: UInt8 = 0x09
  package static let lineFeed: UInt8 = 0x0A
  package static let carriageReturn: UInt8 = 0x0D
  package static let space: UInt8 = 0x20
  package static let quote: UInt8 = 0x22
  package static let hash: UInt8 = 0x23
  package static let plus: UInt8 = 0x2B
  package static let comma: UInt8 = 0x2C
  package static let hyphen: UInt8 = 0x2D
  package static let slash: UInt8 = 0x2F
  package static let zero: UInt8 = 0x30
  package static let nine: UInt8 = 0x39
  package static let colon: UInt8 = 0x3A
  package static let semicolon: UInt8 = 0x3B
}

/// Whether `byte` is ASCII horizontal whitespace (space, tab, VT, FF, CR).
@inline(__always)
package func _isBlank(_ byte: UInt8) -> Bool {
  byte == 0x20 || byte == 0x09 || byte == 0x0B || byte == 0x0C
    || byte == 0x0D
}

/// Whether `byte` is an ASCII digit.
@inline(__always)
package func _isDigit(_ byte: UInt8) -> Bool {
  byte &- 0x30 < 10
}

/// Whether `byte` is an ASCII letter.
@inline(__always)
package func _isLetter(_ byte: UInt8) -> Bool {
  (byte | 0x20) &- 0x61 < 26
}

/// Narrows `lower..<upper` past leading and trailing ASCII whitespace.
@inline(__always)
func _trim(
  _ p: UnsafePointer<UInt8>, _ lower: inout Int, _ upper: inout Int
) {
  while lower < upper, _isBlank(p[lower]) { lower += 1 }
  while upper > lower, _isBlank(p[upper - 1]) { upper -= 1 }
}

/// Whether the text after a `#` comment start is only `##…` (two or more),
/// i.e. detached wildcards such as `+41 21 560 ####`.
@inline(__always)
func _isDetachedWildcard(
  _ p: UnsafePointer<UInt8>, from start: Int, to end: Int
) -> Bool {
  var index = start
  while index < end, p[index] == _ASCII.hash { index += 1 }
  let hashes = index - start
  while index < end, _isBlank(p[index]) { index += 1 }
  return hashes >= 2 && index == end
}
