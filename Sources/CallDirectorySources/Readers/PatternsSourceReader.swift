/// Reads `patterns` sources: E.164 prefixes with trailing `#` wildcards and
/// inclusive ranges, delivered as exact ``NumberRange``s.
///
/// # Syntax (one per line)
///
/// - `+41215030004` — one number (`lower == upper`); the `+` is optional.
/// - `+4121560####` — each trailing `#` is one wildcard digit:
///   `41215600000...41215609999`. `1#` is `10...19`.
/// - `33162000000-33162999999` — an inclusive range; spaces around the `-`
///   are allowed. Both bounds must have the same number of digits (a range
///   over different lengths mixes unrelated numbers and is almost always a
///   typo).
/// - `#` starts a comment only at the start of a line or after whitespace;
///   a `#` glued to digits is a wildcard. Blank and comment lines are not
///   data lines.
///
/// # Issues
///
/// A `#` that is not trailing, a comment made only of `##…` after a
/// pattern (`+41 21 560 ####`, which would otherwise block one short
/// number), spaces inside a number, a leading zero (E.164 numbers start
/// with 1–9, and `0` would be lost in the integer), no digits, more than 19
/// digits, a value above `Int64.max - 1`, a lower bound above the upper
/// bound, and invalid UTF-8.
public struct PatternsSourceReader: SourceReader {
  /// Where the bytes come from.
  public var input: SourceInput
  package var _chunkSize = _defaultChunkSize

  /// Creates a reader.
  public init(input: SourceInput) {
    self.input = input
  }

  /// Parses one line; see the syntax above.
  package static func _parseLine(_ p: UnsafePointer<UInt8>, _ count: Int) -> _LineOutcome {
    _parsePatternLine(p, count)
  }
}

/// Parses one `patterns` line without its line ending.
func _parsePatternLine(
  _ p: UnsafePointer<UInt8>, _ count: Int
) -> _LineOutcome {
  // A comment starts at a '#' that begins the line or follows whitespace.
  var cut = count
  var index = 0
  while index < count {
    if p[index] == _ASCII.hash, index == 0 || _isBlank(p[index - 1]) {
      cut = index
      break
    }
    index += 1
  }
  var lower = 0
  var upper = cut
  _trim(p, &lower, &upper)
  if lower == upper { return .skip }
  if cut < count, _isDetachedWildcard(p, from: cut, to: count) {
    return .issue(
      "detached '#' wildcards (remove the space before them)")
  }
  if !_isValidUTF8(p + lower, upper - lower) {
    return .issue("invalid utf-8")
  }
  if p[lower] == _ASCII.hyphen {
    return .issue("negative numbers are not allowed")
  }
  var dash = lower
  while dash < upper, p[dash] != _ASCII.hyphen { dash += 1 }
  if dash == upper {
    switch _parsePatternBound(p, lower, upper, wildcards: true) {
    case .failure(let reason):
      return .issue(reason)
    case .success(let bound):
      guard let range = NumberRange(lower: bound.lower, upper: bound.upper)
      else { return .issue("number too large") }
      return .range(range)
    }
  }
  var firstUpper = dash
  var secondLower = dash + 1
  var secondUpper = upper
  var firstLower = lower
  _trim(p, &firstLower, &firstUpper)
  _trim(p, &secondLower, &secondUpper)
  if secondLower == secondUpper {
    return .issue("range is missing its upper bound")
  }
  var scan = secondLower
  while scan < secondUpper {
    if p[scan] == _ASCII.hyphen {
      return .issue("more than one '-' in range")
    }
    scan += 1
  }
  let first = _parsePatternBound(p, firstLower, firstUpper, wildcards: false)
  let second = _parsePatternBound(
    p, secondLower, secondUpper, wildcards: false)
  switch (first, second) {
  case (.failure(let reason), _), (_, .failure(let reason)):
    return .issue(reason)
  case (.success(let from), .success(let to)):
    if from.digits != to.digits {
      return .issue(
        "range bounds have different digit counts "
          + "(\(from.digits) and \(to.digits))")
    }
    if from.lower > to.lower {
      return .issue("range lower bound is greater than upper bound")
    }
    guard let range = NumberRange(lower: from.lower, upper: to.lower)
    else { return .issue("number too large") }
    return .range(range)
  }
}

/// A parsed number or prefix with its wildcard expansion.
struct _PatternBound {
  var lower: Int64
  var upper: Int64
  var digits: Int
}

/// A pattern parse failure with a lowercase reason.
struct _LineFailure: Error {
  var reason: String
}

extension Result where Failure == _LineFailure {
  fileprivate static func failure(_ reason: String) -> Self {
    .failure(_LineFailure(reason: reason))
  }
}

extension _LineOutcome {
  fileprivate static func issue(_ failure: _LineFailure) -> Self {
    .issue(failure.reason)
  }
}

/// Parses `+?digits#*` (or `+?digits` when `wildcards` is false).
private func _parsePatternBound(
  _ p: UnsafePointer<UInt8>, _ lower: Int, _ upper: Int, wildcards: Bool
) -> Result<_PatternBound, _LineFailure> {
  var index = lower
  if index < upper, p[index] == _ASCII.plus { index += 1 }
  if index == upper {
    return lower == upper
      ? .failure("range is missing its lower bound")
      : .failure("pattern has no digits")
  }
  var value: Int64 = 0
  var digits = 0
  var wildcardCount = 0
  let firstDigit = index
  while index < upper {
    let byte = p[index]
    if _isDigit(byte) {
      if wildcardCount > 0 {
        return .failure("'#' wildcard must be trailing")
      }
      digits += 1
      if digits > 19 { return .failure("too many digits (at most 19)") }
      let (times, overflow1) = value.multipliedReportingOverflow(by: 10)
      let (sum, overflow2) = times.addingReportingOverflow(
        Int64(byte &- _ASCII.zero))
      if overflow1 || overflow2 { return .failure("number too large") }
      value = sum
    } else if byte == _ASCII.hash {
      if !wildcards {
        return .failure("'#' wildcards are not allowed in a range")
      }
      wildcardCount += 1
    } else if _isBlank(byte) {
      return .failure("spaces are not allowed inside a pattern")
    } else if byte == _ASCII.plus {
      return .failure("'+' is only allowed at the start")
    } else {
      return .failure(
        "invalid character \(_describeCharacter(p, index, upper))")
    }
    index += 1
  }
  if digits == 0 {
    return .failure("pattern has no digits before its wildcards")
  }
  if p[firstDigit] == _ASCII.zero {
    return .failure(
      "leading zero is not allowed (e.164 numbers start with 1-9)")
  }
  if digits + wildcardCount > 19 {
    return .failure("too many digits (at most 19)")
  }
  var scale: Int64 = 1
  for _ in 0..<wildcardCount { scale *= 10 }
  let (low, overflowLow) = value.multipliedReportingOverflow(by: scale)
  if overflowLow { return .failure("number too large") }
  let (high, overflowHigh) = low.addingReportingOverflow(scale - 1)
  if overflowHigh || high == Int64.max {
    return .failure("number too large")
  }
  return .success(
    _PatternBound(lower: low, upper: high, digits: digits + wildcardCount))
}

/// `'x'` for the character starting at `index` (which is valid UTF-8).
private func _describeCharacter(
  _ p: UnsafePointer<UInt8>, _ index: Int, _ upper: Int
) -> String {
  var end = index + 1
  while end < upper, p[end] & 0xC0 == 0x80 { end += 1 }
  let text = String(
    decoding: UnsafeBufferPointer(start: p + index, count: end - index),
    as: UTF8.self)
  return "'\(text)'"
}
