import CallDirectoryFormat
import CalldirHost
import CalldirSystem
import UnicodeText

/// Default bytes requested per read.
let _defaultChunkSize = 1 << 20

/// Longest line or record a reader accepts before reporting it as an issue.
package let _maxRecordBytes = 1 << 20

/// A source's bytes, read front to back once (``ChunkedInput``), with the
/// CRC-32C of everything read so far, which the catalog records.
///
/// The unconsumed bytes are `base[0..<end]` after each
/// ``refill(keepingFrom:)``; callers keep their own cursor and pass it back
/// when they need more bytes.
package final class _ByteInput: LineBlockSource {
  package typealias Failure = SourceError

  private let input: ChunkedInput
  private let crc: _RunningCRC
  /// The UTF-8 converted from the raw bytes, when the source has another
  /// encoding; the size, checksum and progress stay those of the raw bytes.
  private let transcoded: _TranscodedBuffer?
  /// Whether the text's lines end in CR alone (classic Mac OS text, Excel
  /// for Mac's "CSV (Macintosh)"): each CR is handed on as LF.
  private var endsLinesWithCarriageReturns = false

  /// Opens the input. `chunkSize` is the most bytes read per call;
  /// `encoding`, when given, is converted to UTF-8 as it is read. A
  /// byte-order mark decides over `encoding`: UTF-16 and UTF-32 text (as
  /// Windows tools save "Unicode" text) is converted, UTF-8 read as is.
  package init(_ source: SourceInput, chunkSize: Int, encoding: String? = nil) throws(SourceError) {
    do {
      switch source {
      case .file(let path): input = try ChunkedInput(.path(path), chunkSize: chunkSize)
      case .bytes(let bytes): input = try ChunkedInput(.bytes(bytes), chunkSize: chunkSize)
      }
    } catch {
      throw .file(error)
    }
    let crc = _RunningCRC()
    input.onRead = { crc.value.update($0) }
    self.crc = crc
    do {
      while input.end < 4, !input.isEOF { try input.refill(keepingFrom: 0) }
    } catch {
      throw .file(error)
    }
    var encoding = encoding
    if let mark = _ByteOrderMark(UnsafeBufferPointer(start: input.base, count: min(input.end, 4))) {
      encoding = mark.converter
    } else if let named = encoding, _SingleByteWestern.names.contains(_SingleByteWestern.folded(named)) {
      do {
        while input.end < _SingleByteWestern.sampleBytes, !input.isEOF { try input.refill(keepingFrom: 0) }
      } catch {
        throw .file(error)
      }
      let sample = UnsafeBufferPointer(start: input.base, count: min(input.end, _SingleByteWestern.sampleBytes))
      if _SingleByteWestern.isUTF8Instead(sample, complete: input.isEOF && input.end <= _SingleByteWestern.sampleBytes) {
        encoding = nil
      }
    }
    if let encoding {
      guard let transcoder = try? TextTranscoder(encoding: encoding) else {
        throw .unsupportedEncoding(path: input.name, encoding: encoding)
      }
      transcoded = _TranscodedBuffer(transcoder: transcoder, chunkSize: chunkSize)
    } else {
      transcoded = nil
    }
    try ensure(LineEndings.sampleBytes)
    if LineEndings.endInCarriageReturnsAlone(UnsafeBufferPointer(start: base, count: min(end, LineEndings.sampleBytes))) {
      endsLinesWithCarriageReturns = true
      LineEndings.replaceCarriageReturns(UnsafeMutableBufferPointer(start: base, count: end))
    }
  }

  package var base: UnsafeMutablePointer<UInt8> { transcoded?.base ?? input.base }
  package var end: Int { transcoded?.end ?? input.end }
  package var isEOF: Bool { transcoded?.isEOF ?? input.isEOF }
  /// The input's size in bytes when known (a regular file, or bytes).
  package var size: Int? { input.size }
  /// Every byte read so far.
  package var bytesRead: Int { input.bytesRead }
  package var name: String { input.name }

  /// Moves `base[keep..<end]` to the front and appends newly read bytes;
  /// sets ``isEOF`` at the end. Indices shift down by `keep`.
  package func refill(keepingFrom keep: Int) throws(SourceError) {
    let kept = end - keep
    do {
      if let transcoded {
        try transcoded.refill(keepingFrom: keep, raw: input)
      } else {
        try input.refill(keepingFrom: keep)
      }
    } catch {
      throw .file(error)
    }
    if endsLinesWithCarriageReturns {
      LineEndings.replaceCarriageReturns(UnsafeMutableBufferPointer(start: base + kept, count: end - kept))
    }
  }

  /// Reads until at least `count` bytes are buffered or the input ends.
  package func ensure(_ count: Int) throws(SourceError) {
    while end < count, !isEOF { try refill(keepingFrom: 0) }
  }

  /// Puts the size and checksum of what was read into `summary`.
  package func sign(_ summary: inout SourceSummary) {
    summary.bytes = bytesRead
    summary.checksum = crc.value.value
  }

  /// Skips a UTF-8 byte-order mark; rejects UTF-16/32 ones.
  ///
  /// - Returns: The index of the first content byte.
  package func skipByteOrderMark() throws(SourceError) -> Int {
    try ensure(4)
    return try _byteOrderMarkLength(UnsafeBufferPointer(start: base, count: min(end, 4)), name: name)
  }
}

/// ISO-8859-1 and Windows-1252, the encodings Western publishers' files
/// come in (ARCEP's MAJNUM), and the UTF-8 they move to: a file configured
/// with one of them whose first 64 KiB are valid UTF-8 and hold a non-ASCII
/// character is read as UTF-8. Real Latin-1 text essentially never forms
/// valid multi-byte UTF-8 (`Ã©` is how UTF-8's `é` reads in Latin-1).
enum _SingleByteWestern {
  /// The names, folded (lowercase, without `-` and `_`).
  package static let names: Set<String> = ["iso88591", "latin1", "l1", "windows1252", "cp1252", "iso885915", "latin9"]
  package static let sampleBytes = 64 << 10

  /// An encoding name as these names are written, and as `utf8` is
  /// recognized: lowercase, without `-` and `_`.
  package static func folded(_ name: String) -> String {
    String(name.lowercased().unicodeScalars.filter { $0 != "-" && $0 != "_" })
  }

  /// Whether `sample` is UTF-8 with at least one non-ASCII character; a
  /// sequence cut by the sample's end counts when the file goes on.
  package static func isUTF8Instead(_ sample: UnsafeBufferPointer<UInt8>, complete: Bool) -> Bool {
    guard let base = sample.baseAddress, sample.contains(where: { $0 >= 0x80 }) else { return false }
    var count = sample.count
    if !complete {
      // Drop a sequence the sample cuts: up to three continuation bytes
      // and their lead.
      var back = count
      while back > 0, count - back < 4, base[back - 1] & 0xC0 == 0x80 { back -= 1 }
      if back > 0, base[back - 1] >= 0xC0 { count = back - 1 }
    }
    return _isValidUTF8(base, count)
  }
}

/// The Unicode encoding named by the byte-order mark a source starts with.
package enum _ByteOrderMark {
  case utf8, utf16, utf32

  /// The mark `start` (a source's first bytes, up to four) begins with.
  package init?(_ start: UnsafeBufferPointer<UInt8>) {
    func begins(with mark: [UInt8]) -> Bool {
      start.count >= mark.count && zip(start, mark).allSatisfy { $0 == $1 }
    }
    if begins(with: [0xFF, 0xFE, 0, 0]) || begins(with: [0, 0, 0xFE, 0xFF]) {
      self = .utf32
    } else if begins(with: [0xFF, 0xFE]) || begins(with: [0xFE, 0xFF]) {
      self = .utf16
    } else if begins(with: [0xEF, 0xBB, 0xBF]) {
      self = .utf8
    } else {
      return nil
    }
  }

  /// The ICU converter for such text, which reads the mark's byte order
  /// and drops the mark; nil for UTF-8, which is read as is.
  package var converter: String? {
    switch self {
    case .utf8: nil
    case .utf16: "UTF-16"
    case .utf32: "UTF-32"
    }
  }
}

/// The length of the UTF-8 byte-order mark that `start` (an input's first
/// bytes, up to four, converted to UTF-8 if need be) begins with: 3, or 0
/// without one.
/// - Throws: ``SourceError/unsupportedEncoding(path:encoding:)`` for a
///   UTF-16 or UTF-32 mark left unconverted.
func _byteOrderMarkLength(_ start: UnsafeBufferPointer<UInt8>, name: String) throws(SourceError) -> Int {
  switch _ByteOrderMark(start) {
  case nil: 0
  case .utf8: 3
  case .utf16: throw .unsupportedEncoding(path: name, encoding: "utf-16")
  case .utf32: throw .unsupportedEncoding(path: name, encoding: "utf-32")
  }
}

/// The CRC-32C of the bytes read so far, updated from the input's callback.
private final class _RunningCRC {
  var value = CRC32C()
}

/// Lowercases the first character of a message.
func _lowercasingFirst(_ text: String) -> String {
  guard let first = text.first else { return text }
  return first.lowercased() + text.dropFirst()
}

/// Readers whose read size tests can shrink to hit every buffer boundary.
package protocol _ChunkSizeAdjustable {
  var _chunkSize: Int { get set }
}

extension DelimitedSourceReader: _ChunkSizeAdjustable {}
extension VCardSourceReader: _ChunkSizeAdjustable {}
extension JSONLinesSourceReader: _ChunkSizeAdjustable {}
extension JSONDocumentSourceReader: _ChunkSizeAdjustable {}
