import Foundation

/// A throwaway directory with a config and its sources (the store tests'
/// counterpart of CallDirectoryCompilerTests' `Workspace`, without its
/// compile step: these tests publish with ``Publisher``).
final class Workspace {
  let url: URL

  init() throws {
    url = FileManager.default.temporaryDirectory.appendingPathComponent("calldir-store-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  deinit { try? FileManager.default.removeItem(at: url) }

  func path(_ name: String) -> String { url.appendingPathComponent(name).path }

  func write(_ name: String, _ text: String) throws {
    try Data(text.utf8).write(to: url.appendingPathComponent(name))
  }

  /// Writes `calldir.json` with the given sources (JSON object texts).
  func config(_ sources: [String], extra: String = "") throws {
    try write("calldir.json", "{\(extra) \"defaultRegion\": \"US\", \"sources\": [\(sources.joined(separator: ","))]}")
  }
}
