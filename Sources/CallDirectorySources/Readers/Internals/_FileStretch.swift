#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif
import CallDirectoryFormat
import CalldirHost
import CalldirSystem

/// A regular file opened once and read by several workers at once
/// (`pread` needs no shared position); closed when the last user lets go.
package final class _SharedFile: @unchecked Sendable {
  package let descriptor: FileDescriptor
  package let path: String
  /// The size when opened; the file may still grow or shrink.
  package let size: Int

  /// Opens `path` when it is a regular file; nil for anything else (a
  /// pipe, a FIFO, a device), which must be read front to back.
  /// - Throws: ``SourceError/file(_:)`` when it cannot be opened or is a directory.
  package static func openRegular(_ path: String) throws(SourceError) -> _SharedFile? {
    let descriptor: FileDescriptor
    do {
      descriptor = try FileDescriptor.open(path, .readOnly)
    } catch {
      throw .file(error)
    }
    let status: FileStatus
    do {
      status = try descriptor.status()
    } catch {
      try? descriptor.close()
      throw .file(FileError(operation: "read the status of", path: path, errno: error))
    }
    if status.kind == .directory {
      try? descriptor.close()
      throw .file(FileError(operation: "read", path: path, errno: .isDirectory))
    }
    guard status.isRegularFile else {
      try? descriptor.close()
      return nil
    }
    return _SharedFile(descriptor: descriptor, path: path, size: Int(status.size))
  }

  private init(descriptor: FileDescriptor, path: String, size: Int) {
    self.descriptor = descriptor
    self.path = path
    self.size = size
  }

  deinit { try? descriptor.close() }

  /// Reads up to `count` bytes at `offset` into `buffer`; fewer only at the end.
  package func read(at offset: Int, count: Int, into buffer: UnsafeMutablePointer<UInt8>) throws(SourceError) -> Int {
    do {
      return try descriptor.read(
        fromAbsoluteOffset: Int64(offset), into: UnsafeMutableRawBufferPointer(start: buffer, count: count))
    } catch {
      throw .file(FileError(operation: "read", path: path, errno: error))
    }
  }
}

/// One stretch of a regular file, `start..<end`, read and parsed by one
/// worker: the stretch owns the lines that begin inside it, and the
/// checksum of exactly its bytes, so that the stretches of a file, taken
/// in order, see each line once and checksum each byte once.
///
/// The lines are those ``_LineChunker`` would cut: a stretch that starts
/// inside a line skips to the line after it; its own last line is read to
/// its end past `end` (up to the line limit, past which it is too long
/// and only its first bytes are kept, as the chunker keeps them).
package struct _FileStretch: @unchecked Sendable {
  package let file: _SharedFile
  package let start: Int
  package let end: Int
  /// The last stretch reads on to the end of the file, however far.
  package let isLast: Bool
  /// Bytes to pass over at the start of the file (a byte-order mark).
  package let skip: Int

  package init(file: _SharedFile, start: Int, end: Int, isLast: Bool, skip: Int) {
    self.file = file
    self.start = start
    self.end = end
    self.isLast = isLast
    self.skip = skip
  }

  /// What a stretch holds once read: its lines at `bytes[lines]`, the
  /// too-long line after them if any, and the checksum and size of the
  /// stretch's own bytes.
  package struct Contents {
    package var lines: Range<Int>
    package var tooLongStart: Range<Int>?
    package var checksum: UInt32
    package var byteCount: Int
  }

  /// Reads the stretch into `bytes` (reusing its storage).
  /// - Throws: ``SourceError/file(_:)`` when a read fails.
  package func read(into bytes: ByteBuffer, maxLineBytes: Int = _maxRecordBytes) throws(SourceError) -> Contents {
    // One byte before the stretch says whether a line begins at its start.
    let before = start > 0 ? 1 : 0
    let origin = start - before
    bytes.removeAll()
    var atEnd = try append(to: bytes, at: origin, count: end - origin) < end - origin
    if isLast {
      while !atEnd { atEnd = try append(to: bytes, at: origin + bytes.count, count: 1 << 20) == 0 }
    }
    let filled = bytes.count
    guard filled > before else {
      return Contents(lines: filled..<filled, tooLongStart: nil, checksum: CRC32C().value, byteCount: 0)
    }
    var crc = CRC32C()
    crc.update(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(bytes.elements)[before...]))
    func contents(_ lines: Range<Int>, tooLong: Range<Int>? = nil) -> Contents {
      Contents(lines: lines, tooLongStart: tooLong, checksum: crc.value, byteCount: filled - before)
    }

    // The first line begins where the byte-order mark ends; every other
    // one after a line feed.
    var first = before
    if start <= skip {
      guard skip < end else { return contents(filled..<filled) }
      first = before + skip - start
    } else if bytes.base[0] != _ASCII.lineFeed {
      // The stretch starts inside a line that began earlier.
      guard let newline = bytes.firstIndex(of: _ASCII.lineFeed, in: before..<filled) else {
        return contents(filled..<filled)
      }
      first = newline + 1
    }
    guard first < filled, bytes.base[filled - 1] != _ASCII.lineFeed, !atEnd else {
      return contents(min(first, filled)..<filled)
    }
    // The last line runs past the stretch: read on to its end, or until it
    // is certainly too long (as the chunker decides: more than
    // `maxLineBytes + 1` bytes without a line feed).
    let lineStart = bytes.lastIndex(of: _ASCII.lineFeed, in: first..<filled).map { $0 + 1 } ?? first
    let limit = lineStart + maxLineBytes + 2
    while bytes.count < limit {
      let scanned = bytes.count
      let got = try append(to: bytes, at: origin + scanned, count: min(1 << 16, limit - scanned))
      if got == 0 { return contents(first..<scanned) }
      if let newline = bytes.firstIndex(of: _ASCII.lineFeed, in: scanned..<(scanned + got)) {
        return contents(first..<(newline + 1))
      }
    }
    return contents(first..<lineStart, tooLong: lineStart..<(lineStart + min(bytes.count - lineStart, _LineText.maximumBytes)))
  }

  /// Appends up to `count` bytes read at `offset`; returns how many came
  /// (fewer only at the end of the file).
  private func append(to bytes: ByteBuffer, at offset: Int, count: Int) throws(SourceError) -> Int {
    guard count > 0 else { return 0 }
    let got = try file.read(at: offset, count: count, into: bytes.reserve(count))
    bytes.grow(by: got)
    return got
  }
}
