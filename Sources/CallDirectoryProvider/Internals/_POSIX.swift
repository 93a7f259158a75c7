#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A failed system call, with a lowercase reason.
struct _POSIXError: Error {
  let reason: String

  init(_ operation: String, _ path: String, _ code: Int32) {
    let text = strerror(code).map { String(cString: $0).lowercased() } ?? "errno \(code)"
    reason = "\(operation) '\(path)': \(text)"
  }
}

/// The few file operations the provider needs, without Foundation (so the
/// module builds unchanged for an iOS app extension).
enum _POSIX {
  /// The contents of a small file, `nil` when it does not exist.
  ///
  /// - Throws: `_POSIXError` when it cannot be read or exceeds `limit` bytes.
  static func readSmallFile(_ path: String, limit: Int) throws(_POSIXError) -> [UInt8]? {
    var fd: Int32
    repeat { fd = open(path, O_RDONLY | O_CLOEXEC) } while fd < 0 && errno == EINTR
    if fd < 0 {
      if errno == ENOENT { return nil }
      throw _POSIXError("cannot open", path, errno)
    }
    defer { _ = close(fd) }
    var bytes = [UInt8](repeating: 0, count: limit + 1)
    var count = 0
    while count < bytes.count {
      let got = bytes.withUnsafeMutableBytes { raw -> Int in
        guard let base = raw.baseAddress else { return 0 }
        return read(fd, base + count, raw.count - count)
      }
      if got < 0 {
        if errno == EINTR { continue }
        throw _POSIXError("cannot read", path, errno)
      }
      if got == 0 { break }
      count += got
    }
    guard count <= limit else {
      throw _POSIXError("cannot read", path, EFBIG)
    }
    return Array(bytes[0..<count])
  }

  /// The paths of the regular files directly inside `directory` whose
  /// names do not start with `.`, sorted by name; empty when the directory
  /// does not exist.
  ///
  /// - Throws: `_POSIXError` when it exists but cannot be listed.
  static func regularFiles(in directory: String) throws(_POSIXError) -> [String] {
    guard let stream = opendir(directory) else {
      if errno == ENOENT { return [] }
      throw _POSIXError("cannot list", directory, errno)
    }
    defer { closedir(stream) }
    var names: [String] = []
    while let entry = readdir(stream) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw -> String in
        let bytes = raw.prefix { $0 != 0 }
        return String(decoding: bytes, as: UTF8.self)
      }
      guard !name.isEmpty, !name.hasPrefix(".") else { continue }
      let path = directory.hasSuffix("/") ? directory + name : directory + "/" + name
      var info = stat()
      guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { continue }
      names.append(path)
    }
    return names.sorted()
  }
}

extension _POSIX {
  /// Creates `path`'s parent directory (one level) when it is missing.
  static func ensureParentDirectory(of path: String) throws(_POSIXError) {
    guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return }
    let directory = String(path[..<slash])
    if mkdir(directory, 0o755) != 0 && errno != EEXIST {
      throw _POSIXError("cannot create", directory, errno)
    }
  }
}
