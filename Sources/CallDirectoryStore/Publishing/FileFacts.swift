import CallDirectoryCompiler
import CallDirectoryFormat
import CallDirectorySources
import CalldirSystem

/// What the catalog records of a file: its size, modification time and
/// CRC-32C (`crc32c:<8 hex digits>`; the blobs carry their own SHA-256
/// content digests), and, when asked for, the SHA-256 of its bytes, which
/// the manifest lists.
struct FileFacts: Sendable, Hashable {
  var bytes: Int64
  var modifiedAt: String
  var checksum: String
  /// The SHA-256 of the file's bytes (hex), when computed.
  var sha256: String? = nil

  /// Reads `path` front to back to checksum it, and to hash it when
  /// `withSHA256` (one read for both).
  static func of(_ path: String, withSHA256: Bool = false) throws(StoreError) -> FileFacts {
    do {
      let input = try ChunkedInput(.path(path))
      var crc = CRC32C()
      var sha = withSHA256 ? SHA256() : nil
      while !input.isEOF {
        try input.refill(keepingFrom: input.end)
        let chunk = UnsafeRawBufferPointer(start: input.base, count: input.end)
        crc.update(chunk)
        sha?.update(chunk)
      }
      let status = try FileSystem.status(path)
      return FileFacts(
        bytes: Int64(input.bytesRead), modifiedAt: UTCTime.iso8601(status.modificationTime),
        checksum: checksumText(crc.value), sha256: sha.flatMap { ContentDigest(bytes: $0.finalize())?.hex })
    } catch {
      throw .file(error)
    }
  }

  /// The facts of a file the catalog recorded as published: as
  /// ``of(_:withSHA256:)``, but a file that is gone (or is no longer a file)
  /// is a ``StoreError/fileMismatch(path:problem:)``, a store to repair,
  /// not a file the build failed to create.
  static func ofPublished(_ path: String, withSHA256: Bool = false) throws(StoreError) -> FileFacts {
    do {
      return try of(path, withSHA256: withSHA256)
    } catch .file(let error) where error.errno.isMissingInput && error.errno != .permissionDenied {
      throw .fileMismatch(path: path, problem: "it is missing (\(error.errno))")
    }
  }

  /// A source's facts from what its reader read, with the file's modification time.
  static func of(source path: String, read summary: SourceSummary) throws(StoreError) -> FileFacts {
    let status: FileStatus
    do {
      status = try FileSystem.status(path)
    } catch {
      throw .file(error)
    }
    return FileFacts(
      bytes: Int64(summary.bytes), modifiedAt: UTCTime.iso8601(status.modificationTime),
      checksum: checksumText(summary.checksum))
  }

  /// `crc32c:` and eight hex digits.
  static func checksumText(_ value: UInt32) -> String {
    let digits = String(value, radix: 16)
    return "crc32c:" + String(repeating: "0", count: 8 - digits.count) + digits
  }
}
