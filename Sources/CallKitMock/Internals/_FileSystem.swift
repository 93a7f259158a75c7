import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Small file-system helpers with typed errors.
enum _FileSystem {
  /// Creates a directory and its parents if missing.
  static func createDirectory(_ path: String) throws(_SystemError) {
    do {
      try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    } catch {
      throw _SystemError("cannot create directory \(path): \(String(describing: error).lowercased())")
    }
  }

  /// Removes a file or directory tree; a missing path is not an error.
  static func remove(_ path: String) throws(_SystemError) {
    guard exists(path) else { return }
    do {
      try FileManager.default.removeItem(atPath: path)
    } catch {
      throw _SystemError("cannot remove \(path): \(String(describing: error).lowercased())")
    }
  }

  /// Whether something exists at `path`.
  static func exists(_ path: String) -> Bool {
    var info = stat()
    return lstat(path, &info) == 0
  }

  /// Atomically replaces `destination` with the already synced `source`,
  /// then syncs the directory so the rename survives a crash.
  static func replace(_ destination: String, with source: String) throws(_SystemError) {
    guard rename(source, destination) == 0 else { throw .errno("rename", source) }
    let directory = (destination as NSString).deletingLastPathComponent
    let fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard fd >= 0 else { throw .errno("open", directory) }
    defer { _closeDescriptor(fd) }
    guard fsync(fd) == 0 else { throw .errno("fsync", directory) }
  }

  /// Writes `bytes` to `path` atomically: a temporary file in the same
  /// directory, `fsync`, then `rename`.
  static func writeAtomically(_ bytes: [UInt8], to path: String) throws(_SystemError) {
    let temporary = path + ".tmp-\(getpid())"
    do {
      let writer = try _FileWriter(creating: temporary)
      try writer.writeBytes(bytes)
      try writer.sync()
      try writer.close()
      try replace(path, with: temporary)
    } catch {
      _ = unlink(temporary)
      throw error
    }
  }

  /// The contents of a small file.
  static func read(_ path: String) throws(_SystemError) -> [UInt8] {
    let reader = try _FileReader(path: path)
    var bytes: [UInt8] = []
    while let byte = try reader.readByte() { bytes.append(byte) }
    return bytes
  }
}
