import CalldirSystem

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The scratch directory of one running request, inside its extension's
/// directory: `.staging-<pid>-<n>`, private to the process and request that
/// made it.
///
/// Requests run only under the extension's reservation, so whatever
/// scratch an earlier process left behind (it crashed) is swept first:
/// staging directories, and the temporary files of an interrupted store
/// commit.
struct _StagingArea {
  let path: String

  private static let serial = Locked(0)
  /// Leftovers of an earlier request, by name prefix.
  private static let leftoverPrefixes = [".staging-", ".store.bin.tmp-"]
  /// The shared staging directory of earlier versions of the device.
  private static let legacyStaging = "staging"

  /// Sweeps leftovers, then creates a fresh staging directory.
  ///
  /// - Parameter extensionPath: The extension's directory; the caller
  ///   holds its reservation.
  static func create(inExtensionAt extensionPath: String) throws(_DeviceStorageError) -> _StagingArea {
    try _io { () throws(FileError) in
      for name in try FileSystem.contentsOfDirectory(extensionPath)
      where name == legacyStaging || leftoverPrefixes.contains(where: { name.hasPrefix($0) }) {
        try FileSystem.removeTree(extensionPath + "/" + name)
      }
    }
    let number = serial.withLock { value in
      value += 1
      return value
    }
    let path = "\(extensionPath)/.staging-\(getpid())-\(number)"
    try _io { () throws(FileError) in try FileSystem.createDirectory(path) }
    return _StagingArea(path: path)
  }

  /// A file in the staging directory.
  func file(_ name: String) -> String { path + "/" + name }

  /// Removes the directory (best effort: the next request sweeps it).
  func remove() {
    try? FileSystem.removeTree(path)
  }
}
