import Foundation

/// A fresh directory under the system's temporary directory, for one test:
/// removed when the value is released (or earlier, by ``remove()``).
///
/// The one scratch directory of the test targets (each depends on this
/// module, CalldirTestSupport); a target adds what only its tests need in
/// an extension (the compiler tests' `compile`, the end-to-end tests'
/// blob writers).
public final class TemporaryDirectory: Sendable {
  /// The directory.
  public let url: URL
  /// The directory's path.
  public let path: String

  /// Creates `<temporary directory>/<prefix>-<UUID>`.
  public init(prefix: String = "calldir") throws {
    url = FileManager.default.temporaryDirectory
      .appendingPathComponent("\(prefix)-\(UUID().uuidString)", isDirectory: true)
    path = url.path
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  deinit { remove() }

  /// The path of `name` (a relative path) in the directory.
  public func path(_ name: String) -> String { url.appendingPathComponent(name).path }

  /// Writes `text` (UTF-8) to `name`, creating the directories on its way;
  /// returns the file's URL.
  @discardableResult
  public func write(_ name: String, _ text: String) throws -> URL {
    try write(name, data: Data(text.utf8))
  }

  /// Writes `bytes` to `name`, creating the directories on its way; returns
  /// the file's path.
  @discardableResult
  public func write(_ name: String, _ bytes: [UInt8]) throws -> String {
    try write(name, data: Data(bytes)).path
  }

  private func write(_ name: String, data: Data) throws -> URL {
    let file = url.appendingPathComponent(name)
    try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
    try data.write(to: file)
    return file
  }

  /// Removes the directory and everything in it (again: nothing).
  public func remove() {
    try? FileManager.default.removeItem(at: url)
  }
}

/// A throwaway directory holding a build's config and its sources.
public typealias Workspace = TemporaryDirectory

extension TemporaryDirectory {
  /// Writes `calldir.json` with the given sources (JSON object texts),
  /// `defaultRegion` US, and `extra` members before it.
  public func config(_ sources: [String], extra: String = "") throws {
    try write("calldir.json", "{\(extra) \"defaultRegion\": \"US\", \"sources\": [\(sources.joined(separator: ","))]}")
  }
}

/// A fresh directory under the system's temporary directory, which the
/// caller removes (for tests that hold a path, not a ``TemporaryDirectory``).
public func makeTemporaryDirectory() throws -> String {
  let path = FileManager.default.temporaryDirectory.appendingPathComponent("calldir-\(UUID().uuidString)").path
  try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  return path
}

/// A path under the system's temporary directory that nothing uses yet,
/// `<prefix>-<UUID><suffix>`; nothing is created there.
public func temporaryPath(_ prefix: String, suffix: String = "") -> String {
  FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)\(suffix)").path
}
