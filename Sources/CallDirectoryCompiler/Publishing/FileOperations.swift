import CallDirectoryFormat
import Foundation
import Glibc

/// Durable file operations for publishing: nothing is half-written.
enum FileOperations {
  /// Renames `source` over `destination` and syncs the directory, so the
  /// rename survives a crash.
  static func durableRename(_ source: String, to destination: String) throws(StoreError) {
    guard rename(source, destination) == 0 else {
      throw .io(path: destination, reason: "cannot rename \(source): \(errorText())")
    }
    try syncDirectory(containing: destination)
  }

  /// Syncs the directory that holds `path`.
  static func syncDirectory(containing path: String) throws(StoreError) {
    let directory = (path as NSString).deletingLastPathComponent
    let descriptor = open(directory.isEmpty ? "." : directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard descriptor >= 0 else { throw .io(path: directory, reason: errorText()) }
    defer { close(descriptor) }
    guard fsync(descriptor) == 0 else { throw .io(path: directory, reason: errorText()) }
  }

  /// Writes `bytes` to `path` atomically: into a temporary file in the same
  /// directory (mode 0644), `fsync`, then ``durableRename(_:to:)`` over
  /// `path`. Readers see the old file or the complete new one; on failure
  /// the temporary file is removed and `path` is untouched.
  /// - Throws: `StoreError.cannotCreate` when the temporary file cannot be
  ///   created (no such directory, no permission); `StoreError.io` when
  ///   writing, syncing or renaming fails.
  static func writeAtomically(_ bytes: [UInt8], to path: String) throws(StoreError) {
    let directory = (path as NSString).deletingLastPathComponent
    let name = (path as NSString).lastPathComponent
    var template = Array(((directory.isEmpty ? "" : directory + "/") + ".\(name).tmp-XXXXXX").utf8CString)
    let descriptor = template.withUnsafeMutableBufferPointer { buffer in
      buffer.baseAddress.map { mkstemp($0) } ?? -1
    }
    guard descriptor >= 0 else { throw .cannotCreate(path: path, reason: errorText()) }
    let temporary = template.withUnsafeBufferPointer { buffer in
      buffer.baseAddress.map { String(cString: $0) } ?? path
    }
    var isRenamed = false
    defer { if !isRenamed { unlink(temporary) } }
    do {
      defer { close(descriptor) }
      guard fchmod(descriptor, 0o644) == 0 else { throw StoreError.io(path: temporary, reason: errorText()) }
      var written = 0
      while written < bytes.count {
        let count = bytes.withUnsafeBytes { buffer in
          write(descriptor, buffer.baseAddress.map { $0 + written }, bytes.count - written)
        }
        if count < 0 {
          if errno == EINTR { continue }
          throw StoreError.io(path: temporary, reason: errorText())
        }
        written += count
      }
      guard fsync(descriptor) == 0 else { throw StoreError.io(path: temporary, reason: errorText()) }
    }
    try durableRename(temporary, to: path)
    isRenamed = true
  }

  /// Creates a directory and its parents.
  static func createDirectory(_ path: String) throws(StoreError) {
    do {
      try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    } catch {
      throw .cannotCreate(path: path, reason: errorText(of: error))
    }
  }

  /// What a published file's catalog row holds about it.
  struct FileFacts {
    var bytes: Int64
    var modifiedAt: String
    /// `crc32c:<8 hex digits>` of the bytes.
    var checksum: String
  }

  /// Size, modification time and CRC-32C of a file, read in large chunks
  /// (CRC-32C runs at memory speed; the blobs carry their own SHA-256
  /// content digests).
  static func facts(of path: String) throws(StoreError) -> FileFacts {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { throw .io(path: path, reason: errorText()) }
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0 else { throw .io(path: path, reason: errorText()) }
    var crc = CRC32C()
    let chunk = 1 << 20
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunk, alignment: 16)
    defer { buffer.deallocate() }
    while true {
      let count = read(descriptor, buffer.baseAddress, chunk)
      if count < 0 {
        if errno == EINTR { continue }
        throw .io(path: path, reason: errorText())
      }
      if count == 0 { break }
      crc.update(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
    }
    return FileFacts(bytes: Int64(status.st_size), modifiedAt: modificationTime(status), checksum: checksumText(crc.value))
  }

  /// A source's facts from what its reader read, with the file's modification time.
  static func facts(of path: String, read summary: SourceSummary) throws(StoreError) -> FileFacts {
    var status = stat()
    guard stat(path, &status) == 0 else { throw .io(path: path, reason: errorText()) }
    return FileFacts(
      bytes: Int64(summary.bytes), modifiedAt: modificationTime(status), checksum: checksumText(summary.checksum))
  }

  /// `crc32c:` and eight hex digits.
  static func checksumText(_ value: UInt32) -> String {
    "crc32c:" + String(value, radix: 16).leftPadded(to: 8)
  }

  private static func modificationTime(_ status: stat) -> String {
    timestamp(Date(timeIntervalSince1970: TimeInterval(status.st_mtim.tv_sec)))
  }

  /// ISO 8601 UTC with seconds, e.g. `2026-11-29T13:45:00Z`.
  static func timestamp(_ date: Date) -> String {
    var time = time_t(date.timeIntervalSince1970.rounded(.down))
    var parts = tm()
    gmtime_r(&time, &parts)
    return String(
      format: "%04d-%02d-%02dT%02d:%02d:%02dZ", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1,
      Int(parts.tm_mday), Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec))
  }

  static func errorText(_ code: Int32 = errno) -> String {
    String(cString: strerror(code)).lowercased()
  }

  static func errorText(of error: any Error) -> String {
    (error as NSError).localizedDescription.lowercased()
  }
}

extension String {
  fileprivate func leftPadded(to width: Int) -> String {
    count >= width ? self : String(repeating: "0", count: width - count) + self
  }
}
