#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import CallDirectoryFormat

/// Validates text input, one entry per line, streaming.
///
/// Lines are `number` (a blocking entry) or `number<TAB>label` (an
/// identification entry; the label is everything after the first tab).
/// LF or CRLF line breaks; lines whose first byte is `#` are comments;
/// empty lines are violations unless only empty lines follow them.
///
/// The caller feeds regions of complete lines (each ending with LF) to
/// ``consume(_:_:)``, reports lines too long to buffer with
/// ``skipLongLine()``, and calls ``finish()`` at the end.
struct _TextValidator {
  private let log: _ViolationLog
  let maxLineLength: Int
  private let checksControls: Bool
  private var blocking = _ListChecker(list: .blocking)
  private var identification = _ListChecker(list: .identification)
  private var blockingEntries: UInt64 = 0
  private var identificationEntries: UInt64 = 0
  private var line = 0
  private var blankStart = 0
  private var blankCount = 0

  init(log: _ViolationLog, options: ValidationOptions) {
    self.log = log
    self.maxLineLength = options.maxLineLength
    self.checksControls = options.reportsControlCharacters
  }

  /// Validates the lines in `start..<end`; `end[-1]` must be LF.
  mutating func consume(_ start: UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>) {
    var p = start
    while p < end {
      line += 1
      let lineStart = p
      var c = p.pointee
      // Fast path: 1–18 digits without a leading zero, then LF or CRLF.
      // Such a value is always in 1...Int64.max - 1.
      if c &- 0x31 < 9 {
        var value = Int64(c &- 0x30)
        p += 1
        c = p.pointee
        while c &- 0x30 < 10 {
          value = value &* 10 &+ Int64(c &- 0x30)
          p += 1
          c = p.pointee
        }
        let digits = p - lineStart
        if digits <= 18 {
          // A CR is never the last byte of the region (it ends with LF).
          let crlf = c == 0x0D && p[1] == 0x0A
          if c == 0x0A || crlf {
            if blankCount > 0 { flushBlankLines() }
            blockingEntries += 1
            let outcome = blocking.accept(value, digits: digits)
            if case .ascending = outcome {} else {
              log.record(outcome, number: value, list: .blocking, at: .line(line))
            }
            p += crlf ? 2 : 1
            continue
          }
        }
        // Fast path for identification entries: the same number, a tab, a label.
        if digits <= 18, c == 0x09 {
          // Skip printable ASCII; the region's final LF stops the loop.
          let labelStart = p + 1
          var q = labelStart
          while q.pointee &- 0x20 < 0x5F { q += 1 }
          let printable = q.pointee == 0x0A || (q.pointee == 0x0D && q[1] == 0x0A)
          if let lineFeed = printable ? (q.pointee == 0x0A ? q : q + 1) : Self.lineFeed(from: q, end) {
            var lineEnd = lineFeed
            if lineEnd[-1] == 0x0D, lineEnd > labelStart { lineEnd -= 1 }
            if lineEnd - lineStart <= maxLineLength {
              if blankCount > 0 { flushBlankLines() }
              identificationEntries += 1
              let outcome = identification.accept(value, digits: digits)
              if case .ascending = outcome {} else {
                log.record(outcome, number: value, list: .identification, at: .line(line))
              }
              if !printable || lineEnd == labelStart {
                checkLabel(UnsafeBufferPointer(start: labelStart, count: lineEnd - labelStart), number: value)
              }
              p = lineFeed + 1
              continue
            }
          }
        }
      }
      guard let lineFeed = Self.lineFeed(from: lineStart, end) else { return }
      var lineEnd = lineFeed
      if lineEnd > lineStart, lineEnd[-1] == 0x0D { lineEnd -= 1 }
      handleLine(UnsafeBufferPointer(start: lineStart, count: lineEnd - lineStart))
      p = lineFeed + 1
    }
  }

  /// The first LF in `start..<end`.
  private static func lineFeed(from start: UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>) -> UnsafePointer<UInt8>? {
    guard start < end, let found = memchr(start, 0x0A, end - start) else { return nil }
    return UnsafePointer(found.assumingMemoryBound(to: UInt8.self))
  }

  /// Reports the next line as too long; the caller skips its bytes.
  mutating func skipLongLine() {
    line += 1
    if blankCount > 0 { flushBlankLines() }
    let limit = maxLineLength
    log.record(.lineTooLong, at: .line(line), list: nil) { "line longer than \(limit) bytes" }
  }

  /// Ends the input: trailing empty lines are fine.
  mutating func finish() -> (lists: [ListCount], textSorted: [_ListChecker]) {
    blankCount = 0
    let lists = [
      ListCount(list: .blocking, entries: blockingEntries),
      ListCount(list: .identification, entries: identificationEntries),
    ]
    return (lists, [blocking, identification].filter(\.looksTextSorted))
  }

  // MARK: Lines

  private mutating func handleLine(_ bytes: UnsafeBufferPointer<UInt8>) {
    if bytes.isEmpty {
      if blankCount == 0 { blankStart = line }
      blankCount += 1
      return
    }
    if blankCount > 0 { flushBlankLines() }
    if bytes.count > maxLineLength {
      let limit = maxLineLength
      log.record(.lineTooLong, at: .line(line), list: nil) { "line longer than \(limit) bytes" }
      return
    }
    if bytes[0] == UInt8(ascii: "#") { return }
    let tab = bytes.firstIndex(of: 0x09)
    let field = UnsafeBufferPointer(rebasing: bytes[..<(tab ?? bytes.endIndex)])
    let list: BlobSection = tab == nil ? .blocking : .identification
    if list == .blocking { blockingEntries += 1 } else { identificationEntries += 1 }

    var number: Int64?
    switch _NumberField.parse(field) {
    case .valid(let value, let digits):
      number = value
      let outcome = list == .blocking
        ? blocking.accept(value, digits: digits)
        : identification.accept(value, digits: digits)
      log.record(outcome, number: value, list: list, at: .line(line))
    case .outOfRange(let value):
      number = value
      log.record(.outOfRange, at: .line(line), list: list, number: value) {
        let shown = _Display.raw(field)
        return value == nil || (value ?? 0) > 0
          ? "out of range: \(shown) exceeds \(_NumberField.maxNumber)"
          : "out of range: \(shown) is not in 1...\(_NumberField.maxNumber)"
      }
    case .notANumber(let reason):
      log.record(.notANumber, at: .line(line), list: list) {
        let shown = "not a number: '\(_Display.raw(field))'"
        return reason.map { shown + " (\($0))" } ?? shown
      }
    }

    guard let tab else { return }
    checkLabel(UnsafeBufferPointer(rebasing: bytes[(tab + 1)...]), number: number)
  }

  private func checkLabel(_ label: UnsafeBufferPointer<UInt8>, number: Int64?) {
    guard let issue = _LabelCheck.inspect(label, controls: checksControls) else { return }
    log.record(issue.kind, at: .line(line), list: .identification, number: number) {
      issue == .empty
        ? issue.message(number: number) + " (a line with a tab is an identification entry)"
        : issue.message(number: number)
    }
  }

  private mutating func flushBlankLines() {
    for blank in blankStart..<(blankStart + blankCount) {
      log.record(.emptyLine, at: .line(blank), list: nil) {
        "empty line (only empty lines at the end of the file are allowed)"
      }
    }
    blankCount = 0
  }
}
