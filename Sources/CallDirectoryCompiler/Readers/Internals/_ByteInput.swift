import CallDirectoryFormat

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Default bytes requested per `read(2)`.
let _defaultChunkSize = 1 << 20

/// Longest line or record a reader accepts before reporting it as an issue.
let _maxRecordBytes = 1 << 20

/// A growable window over a file (read with `read(2)`) or a byte array.
///
/// The unconsumed bytes are `base[0..<end]` after each
/// ``refill(keepingFrom:)``; callers keep their own cursor and pass it back
/// when they need more bytes.
final class _ByteInput {
  private(set) var base: UnsafeMutablePointer<UInt8>
  private(set) var capacity: Int
  private(set) var end = 0
  private(set) var isEOF = false
  /// The input's size in bytes when known (a regular file, or bytes).
  private(set) var size: Int?
  /// Every byte read so far: its count and CRC-32C.
  private(set) var bytesRead = 0
  private(set) var checksum = CRC32C()
  private let chunkSize: Int
  private var fd: Int32 = -1
  private let bytes: [UInt8]
  private var bytesOffset = 0
  let name: String

  /// Opens the input. `chunkSize` is the most bytes read per call.
  init(_ input: SourceInput, chunkSize: Int) throws(SourceError) {
    self.chunkSize = max(1, chunkSize)
    self.capacity = max(16, self.chunkSize)
    self.name = input.displayName
    switch input {
    case .bytes(let array):
      bytes = array
      size = array.count
    case .file(let path):
      bytes = []
      let descriptor = path.withCString { open($0, O_RDONLY | O_CLOEXEC) }
      guard descriptor >= 0 else {
        throw .cannotOpen(path: path, reason: _errnoDescription(errno))
      }
      var info = stat()
      if fstat(descriptor, &info) == 0 {
        if (info.st_mode & S_IFMT) == S_IFDIR {
          close(descriptor)
          throw .cannotOpen(path: path, reason: "is a directory")
        }
        if (info.st_mode & S_IFMT) == S_IFREG { size = Int(info.st_size) }
      }
      fd = descriptor
    }
    base = .allocate(capacity: capacity)
  }

  deinit {
    if fd >= 0 { close(fd) }
    base.deallocate()
  }

  /// Moves `base[keep..<end]` to the front and appends newly read bytes.
  ///
  /// Sets ``isEOF`` when the input has no more bytes. Indices shift down by
  /// `keep`.
  func refill(keepingFrom keep: Int) throws(SourceError) {
    let remaining = end - keep
    if keep > 0, remaining > 0 {
      memmove(base, base + keep, remaining)
    }
    end = remaining
    if isEOF { return }
    if capacity - end < chunkSize {
      let newCapacity = max(capacity * 2, end + chunkSize)
      let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
      grown.update(from: base, count: end)
      base.deallocate()
      base = grown
      capacity = newCapacity
    }
    if fd < 0 {
      let count = min(chunkSize, bytes.count - bytesOffset)
      if count <= 0 {
        isEOF = true
        return
      }
      bytes.withUnsafeBufferPointer { buffer in
        if let source = buffer.baseAddress {
          (base + end).update(from: source + bytesOffset, count: count)
        }
      }
      bytesOffset += count
      record(count)
      return
    }
    while true {
      let got = Glibc_read(fd, base + end, chunkSize)
      if got > 0 {
        record(got)
        return
      }
      if got == 0 {
        isEOF = true
        return
      }
      let code = errno
      if code == EINTR { continue }
      throw .readFailed(path: name, reason: _errnoDescription(code))
    }
  }

  /// Takes in `count` new bytes at `base + end`.
  private func record(_ count: Int) {
    checksum.update(UnsafeRawBufferPointer(start: base + end, count: count))
    bytesRead += count
    end += count
  }

  /// Puts the size and checksum of what was read into `summary`.
  func sign(_ summary: inout SourceSummary) {
    summary.bytes = bytesRead
    summary.checksum = checksum.value
  }

  /// Reads until at least `count` bytes are buffered or the input ends.
  func ensure(_ count: Int) throws(SourceError) {
    while end < count, !isEOF { try refill(keepingFrom: 0) }
  }

  /// Skips a UTF-8 byte-order mark; rejects UTF-16/32 ones.
  ///
  /// - Returns: The index of the first content byte.
  func skipByteOrderMark() throws(SourceError) -> Int {
    try ensure(4)
    if end >= 4,
      (base[0] == 0xFF && base[1] == 0xFE && base[2] == 0 && base[3] == 0)
        || (base[0] == 0 && base[1] == 0 && base[2] == 0xFE
          && base[3] == 0xFF)
    {
      throw .unsupportedEncoding(path: name, encoding: "utf-32")
    }
    if end >= 2,
      (base[0] == 0xFF && base[1] == 0xFE)
        || (base[0] == 0xFE && base[1] == 0xFF)
    {
      throw .unsupportedEncoding(path: name, encoding: "utf-16")
    }
    if end >= 3, base[0] == 0xEF, base[1] == 0xBB, base[2] == 0xBF {
      return 3
    }
    return 0
  }
}

/// `read(2)` under a name that does not clash with reader methods.
@inline(__always)
private func Glibc_read(
  _ fd: Int32, _ buffer: UnsafeMutablePointer<UInt8>, _ count: Int
) -> Int {
  read(fd, buffer, count)
}

/// `strerror` with a lowercase first letter.
func _errnoDescription(_ code: Int32) -> String {
  guard let text = strerror(code) else { return "error \(code)" }
  return _lowercasingFirst(String(cString: text))
}

/// Lowercases the first character of a message.
func _lowercasingFirst(_ text: String) -> String {
  guard let first = text.first else { return text }
  return first.lowercased() + text.dropFirst()
}

/// Readers whose `read(2)` size tests can shrink to hit every buffer
/// boundary.
protocol _ChunkSizeAdjustable {
  var _chunkSize: Int { get set }
}

extension DelimitedSourceReader: _ChunkSizeAdjustable {}
extension VCardSourceReader: _ChunkSizeAdjustable {}
extension JSONLinesSourceReader: _ChunkSizeAdjustable {}
