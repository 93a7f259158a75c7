import CalldirSystem
import Glibc

/// One file per fuzzing process, for parsers that read paths: it lives under
/// /dev/shm when that exists, so an input costs no disk write, and is
/// removed when the process exits.
enum ScratchFile {
  static let directory: String = {
    let root = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp"
    var template = Array("\(root)/calldir-fuzz-XXXXXX".utf8CString)
    guard let made = mkdtemp(&template) else { fatalError("cannot create a scratch directory in \(root)") }
    atexit { try? FileSystem.removeTree(ScratchFile.directory) }
    return String(cString: made)
  }()

  /// Replaces the file `name` in the scratch directory with `bytes` and
  /// returns its path.
  static func write(_ bytes: UnsafeBufferPointer<UInt8>, named name: String) -> String {
    let path = "\(directory)/\(name)"
    let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    guard descriptor >= 0 else { fatalError("cannot write \(path)") }
    defer { close(descriptor) }
    var written = 0
    while written < bytes.count, let base = bytes.baseAddress {
      let count = Glibc.write(descriptor, base + written, bytes.count - written)
      guard count > 0 else { fatalError("cannot write \(path)") }
      written += count
    }
    return path
  }
}
