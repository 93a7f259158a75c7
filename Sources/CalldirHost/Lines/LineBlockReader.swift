#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif
import CalldirSystem

/// Bytes read front to back through a window that ``LineBlockReader`` cuts
/// into whole lines: ``ChunkedInput``, or a source's text converted to
/// UTF-8 on top of it.
///
/// The unconsumed bytes are `base[0..<end]` after each
/// ``refill(keepingFrom:)``, which appends at least one byte or sets
/// ``isEOF``.
public protocol LineBlockSource: AnyObject {
  /// What a failed read throws.
  associatedtype Failure: Error
  var base: UnsafeMutablePointer<UInt8> { get }
  var end: Int { get }
  var isEOF: Bool { get }
  /// Moves `base[keep..<end]` to the front and appends newly read bytes;
  /// sets ``isEOF`` at the end. Indices shift down by `keep`.
  func refill(keepingFrom keep: Int) throws(Failure)
  /// Whether more bytes can be read without waiting: false when a pipe or
  /// a terminal has nothing more right now.
  var hasInputReady: Bool { get }
}

extension LineBlockSource {
  /// Always true: the bytes are there (a file, memory).
  public var hasInputReady: Bool { true }
}

extension ChunkedInput: LineBlockSource {
  public typealias Failure = FileError
}

/// A run of whole lines cut from an input by ``LineBlockReader``.
///
/// `bytes` holds complete lines, each ending in LF, except that the last
/// block of the input may end with a line that has none. When
/// ``endsWithTooLongLine`` is set, one more line follows these bytes: a
/// line longer than the reader's limit, read past but for its first bytes
/// (``tooLongStart``, as many as ``LineBlockReader/TooLongLines/report(keepingFirst:)``
/// asks for).
public struct LineBlock {
  public var bytes: UnsafeBufferPointer<UInt8>
  public var endsWithTooLongLine: Bool
  public var tooLongStart: UnsafeBufferPointer<UInt8>
  /// Whether the block was handed out short of its minimum size because
  /// the input had nothing more ready (a pipe, a terminal): a caller that
  /// answers line by line hands its answers on now.
  public var inputPaused: Bool

  public init(
    bytes: UnsafeBufferPointer<UInt8>, endsWithTooLongLine: Bool,
    tooLongStart: UnsafeBufferPointer<UInt8> = UnsafeBufferPointer(start: nil, count: 0), inputPaused: Bool = false
  ) {
    self.bytes = bytes
    self.endsWithTooLongLine = endsWithTooLongLine
    self.tooLongStart = tooLongStart
    self.inputPaused = inputPaused
  }
}

extension LineBlock {
  /// The first LF in `start..<end`, or `end`: eight bytes at a time (most
  /// lines of a number list are a dozen bytes long, too short for a call
  /// to `memchr` to pay). How the lines of a block are walked.
  @inlinable @inline(__always)
  public static func nextLineFeed(from start: UnsafePointer<UInt8>, end: UnsafePointer<UInt8>) -> UnsafePointer<UInt8> {
    var cursor = start
    while end - cursor >= 8 {
      let word = UInt64(littleEndian: UnsafeRawPointer(cursor).loadUnaligned(as: UInt64.self)) ^ 0x0A0A_0A0A_0A0A_0A0A
      // The lowest byte that was a line feed is the lowest zero byte: its
      // high bit is the lowest set here (bits above it may be set falsely).
      let zeros = (word &- 0x0101_0101_0101_0101) & ~word & 0x8080_8080_8080_8080
      if zeros != 0 { return cursor + (zeros.trailingZeroBitCount &>> 3) }
      cursor += 8
    }
    while cursor < end, cursor.pointee != 0x0A { cursor += 1 }
    return cursor
  }
}

/// Cuts an input into blocks of whole lines, in bounded memory whatever
/// the input, so that the lines of one block can be handled without the
/// others (on another core, say): `calldir normalize`, `validate`, and the
/// sources `build` reads line by line.
///
/// Lines end at LF (a CR before it stays, for the caller to drop). A line
/// with more than `maxLineBytes` bytes before its LF is too long, whether
/// it came in one read or many: it is handled as ``TooLongLines`` says,
/// and what is not yet read of it is read past, never held (the window
/// keeps at most `maxLineBytes` bytes of a line and one read). The last
/// line may lack its LF.
///
///     let lines = LineBlockReader(input, maxLineBytes: 1 << 20, tooLongLines: .report(keepingFirst: 0))
///     while let block = try lines.next() { … }
public final class LineBlockReader<Source: LineBlockSource> {
  /// What becomes of a line longer than the limit.
  public enum TooLongLines: Sendable {
    /// The block is marked (``LineBlock/endsWithTooLongLine``) and keeps
    /// the line's first `count` bytes (``LineBlock/tooLongStart``).
    case report(keepingFirst: Int)
    /// The block's lines end with the line's first `maxLineBytes` bytes,
    /// cut back to a whole UTF-8 character, as a last line without LF (a
    /// limit of 5 bytes or more keeps at least one byte).
    case truncate
  }

  /// The input read.
  public let source: Source
  private let maxLineBytes: Int
  private let tooLongLines: TooLongLines
  private let minimumBytes: Int
  private let endsLastLine: Bool
  /// Whether lines end in CR alone (``LineEndings``); nil until decided.
  private var endsLinesWithCarriageReturns: Bool?
  /// The first byte of the window not handed out.
  private var position: Int
  /// The first byte of the line being read (after the last LF found).
  private var lineStart: Int
  /// The first byte of the window not yet searched for LF.
  private var scanned: Int
  /// Inside a line that was too long: read past it.
  private var skipping = false
  private var finished = false
  /// The last line, with the LF it lacked (`endsLastLine`).
  private lazy var lastLine = ByteBuffer(capacity: 64)

  /// Reads `source` from `start` (past a byte-order mark, say).
  /// - Parameters:
  ///   - maxLineBytes: The most bytes a line holds before its LF (a CR
  ///     before it included); at least 1.
  ///   - tooLongLines: What becomes of a longer line.
  ///   - minimumBytes: Lines are handed out once this many bytes are read,
  ///     or sooner when the input has nothing more ready and a whole line
  ///     is at hand (``LineBlock/inputPaused``); 1 hands out the lines of
  ///     every read.
  ///   - decidesLineEndings: Whether text whose lines end in CR alone
  ///     (``LineEndings``, decided on its first bytes) is read with each
  ///     CR as LF.
  ///   - endsLastLine: Whether a last line without LF is handed out with
  ///     one (copied), for scanners that stop at LF.
  public init(
    _ source: Source, startingAt start: Int = 0, maxLineBytes: Int, tooLongLines: TooLongLines, minimumBytes: Int = 1,
    decidesLineEndings: Bool = false, endsLastLine: Bool = false
  ) {
    self.source = source
    self.maxLineBytes = max(1, maxLineBytes)
    self.tooLongLines = tooLongLines
    self.minimumBytes = max(1, minimumBytes)
    self.endsLastLine = endsLastLine
    endsLinesWithCarriageReturns = decidesLineEndings ? nil : false
    position = start
    lineStart = start
    scanned = start
  }

  /// The next block, or nil at the end. Its bytes stay valid until the next call.
  /// - Throws: What the source throws when a read fails.
  public func next() throws(Source.Failure) -> LineBlock? {
    guard !finished else { return nil }
    while true {
      if endsLinesWithCarriageReturns == nil && !decideLineEndings() {
        try refill()
        continue
      }
      if skipping { skipTooLongLine() }
      if !skipping, let block = takeBlock() { return block }
      if source.isEOF {
        finished = true
        return nil
      }
      try refill()
    }
  }

  /// Whether the line endings are decided: on the first
  /// ``LineEndings/sampleBytes``, or every byte if fewer, or as soon as an
  /// LF is read (which says they end in LF).
  private func decideLineEndings() -> Bool {
    let count = source.end - position
    let start = source.base + position
    guard count >= LineEndings.sampleBytes || source.isEOF || memchr(start, 0x0A, count) != nil else { return false }
    let sample = UnsafeBufferPointer(start: start, count: min(count, LineEndings.sampleBytes))
    let crAlone = LineEndings.endInCarriageReturnsAlone(sample)
    if crAlone { LineEndings.replaceCarriageReturns(UnsafeMutableBufferPointer(start: start, count: count)) }
    endsLinesWithCarriageReturns = crAlone
    return true
  }

  /// Reads past the rest of a too-long line, up to its LF if read.
  private func skipTooLongLine() {
    let end = source.end
    if let found = memchr(source.base + scanned, 0x0A, end - scanned) {
      position = UnsafeMutablePointer(found.assumingMemoryBound(to: UInt8.self)) - source.base + 1
      skipping = false
    } else {
      position = end
    }
    lineStart = position
    scanned = position
  }

  /// The block at hand: whole lines up to a too-long one, the last block
  /// at the end of the input, or the whole lines read once there are
  /// enough of them (or no more are ready); nil when more must be read.
  private func takeBlock() -> LineBlock? {
    let base = source.base
    let end = source.end
    var index = end
    while index > scanned {
      index -= 1
      if base[index] == 0x0A {
        lineStart = index + 1
        break
      }
    }
    scanned = end
    if let line = firstTooLongLine(before: lineStart) {
      // Its LF comes after its first `maxLineBytes` bytes, before `lineStart`.
      let lineFeed = LineBlock.nextLineFeed(from: base + line + maxLineBytes, end: base + lineStart)
      return tooLongBlock(at: line, lineFeed: UnsafeMutablePointer(mutating: lineFeed) - base)
    }
    if end - lineStart > maxLineBytes { return tooLongBlock(at: lineStart, lineFeed: nil) }
    if source.isEOF {
      finished = true
      return end > position ? lastBlock() : nil
    }
    guard lineStart > position else { return nil }
    let paused = end - position < minimumBytes
    if paused && source.hasInputReady { return nil }
    defer { position = lineStart }
    return LineBlock(bytes: bytes(position, lineStart), endsWithTooLongLine: false, inputPaused: paused)
  }

  /// The start of the first line of `base[position..<end]` (whole lines)
  /// with more than `maxLineBytes` bytes before its LF, if any: each step
  /// passes the lines that end within `maxLineBytes + 1` bytes of a start,
  /// so that short lines cost a step per `maxLineBytes` bytes.
  private func firstTooLongLine(before end: Int) -> Int? {
    let base = source.base
    var start = position
    while end - start > maxLineBytes + 1 {
      var index = start + maxLineBytes
      while index >= start && base[index] != 0x0A { index -= 1 }
      if index < start { return start }
      start = index + 1
    }
    return nil
  }

  /// The whole lines before `line`, and the too-long line at `line`: up to
  /// its LF at `lineFeed`, or read so far (the rest of it is then read
  /// past).
  private func tooLongBlock(at line: Int, lineFeed: Int?) -> LineBlock {
    let lines = position
    let length = (lineFeed ?? source.end) - line
    if let lineFeed {
      position = lineFeed + 1
    } else {
      skipping = true
      position = source.end
      lineStart = position
      scanned = position
    }
    switch tooLongLines {
    case .report(let count):
      return LineBlock(
        bytes: bytes(lines, line), endsWithTooLongLine: true, tooLongStart: bytes(line, line + min(count, length)))
    case .truncate:
      let kept = Self.characterBoundary(before: maxLineBytes, in: source.base + line)
      return LineBlock(bytes: bytes(lines, line + kept), endsWithTooLongLine: false)
    }
  }

  /// Everything left at the end of the input; its last line gets an LF
  /// when it lacks one and `endsLastLine` asks for it.
  private func lastBlock() -> LineBlock {
    let end = source.end
    guard endsLastLine, source.base[end - 1] != 0x0A else {
      return LineBlock(bytes: bytes(position, end), endsWithTooLongLine: false)
    }
    lastLine.removeAll()
    lastLine.append(bytes(position, end))
    lastLine.reserve(1).pointee = 0x0A
    lastLine.count += 1
    return LineBlock(bytes: lastLine.elements, endsWithTooLongLine: false)
  }

  private func bytes(_ from: Int, _ to: Int) -> UnsafeBufferPointer<UInt8> {
    UnsafeBufferPointer(start: source.base + from, count: to - from)
  }

  /// Reads more, keeping what is not handed out; in text whose lines end
  /// in CR alone, the new CRs become LFs.
  private func refill() throws(Source.Failure) {
    let keep = position
    let kept = source.end - keep
    try source.refill(keepingFrom: keep)
    position -= keep
    lineStart -= keep
    scanned -= keep
    if endsLinesWithCarriageReturns == true {
      let read = UnsafeMutableBufferPointer(start: source.base + kept, count: source.end - kept)
      LineEndings.replaceCarriageReturns(read)
    }
  }

  /// The start of the character that `count` bytes at `bytes` end in,
  /// when it may be cut short, else `count`: the first part of a
  /// too-long line ends on a whole character.
  static func characterBoundary(before count: Int, in bytes: UnsafePointer<UInt8>) -> Int {
    var start = count
    // Up to three continuation bytes, then their lead byte.
    while start > 0 && count - start < 3 && bytes[start - 1] & 0xC0 == 0x80 { start -= 1 }
    if start > 0 && bytes[start - 1] >= 0xC0 { return start - 1 }
    return start
  }
}

@available(*, unavailable)
extension LineBlockReader: Sendable {}
