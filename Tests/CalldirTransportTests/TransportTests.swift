import CallDirectorySync
import CalldirSystem
import Foundation
import Testing

@testable import CalldirTransport

/// Credentials in a URL are never shown.
@Suite struct URLRedactionTests {
  @Test(arguments: [
    ("http://user:s3cret@host/store/", "http://***@host/store/"),
    ("https://token@cdn.example.com:8443/a?b=c", "https://***@cdn.example.com:8443/a?b=c"),
    ("http://us%40er:p%3Ass@host", "http://***@host"),
    ("http://user:p@ss@host/x@y", "http://***@host/x@y"),
    ("cannot fetch x: http://u:p@h/x: Failed to connect to h port 80", "cannot fetch x: http://***@h/x: Failed to connect to h port 80"),
    ("'http://u:p@' is not a valid url", "'http://***@' is not a valid url"),
    ("http://host/path@x", "http://host/path@x"),
    ("no url here: a@b", "no url here: a@b"),
    ("two http://a:b@one/ and https://c:d@two/", "two http://***@one/ and https://***@two/"),
    ("://x:y@z", "://x:y@z"),
  ])
  func credentialsAreReplaced(text: String, redacted: String) {
    #expect(URLRedaction.redacted(text) == redacted)
  }

  /// A URL that does not parse: everything to its last `@` is hidden.
  @Test func aMalformedURLHidesAllBeforeItsLastAt() throws {
    #expect(URLRedaction.redacted("http://user:pa/ss@host/", isMalformed: true) == "http://***@host/")
    #expect(URLRedaction.redacted("http://host/path", isMalformed: true) == "http://host/path")
    #expect(try !SyncSourcesProbe.message("http://user:pa/ss@ho st/").contains("pa/ss"))
  }

  @Test func anHTTPSourceNamesItsURLWithoutCredentials() throws {
    let source = try SyncSources.source(for: "http://user:s3cret@127.0.0.1:9/store")
    #expect(source.name == "http://***@127.0.0.1:9/store/")
    #expect((source as? HTTPSource)?.url(of: "manifest.json").absoluteString == "http://user:s3cret@127.0.0.1:9/store/manifest.json")
    #expect(throws: SyncSources.InvalidLocation.self) { try SyncSources.source(for: "http://user:s3cret@/") }
    do {
      _ = try SyncSources.source(for: "http://user:s3cret@/")
    } catch {
      #expect(!error.description.contains("s3cret"), "\(error)")
    }
  }
}

/// A directory source reads regular files only, and never blocks on a
/// named pipe.
@Suite struct DirectorySourceTests {
  @Test func aNamedPipeOrADirectoryIsNoFile() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("calldir-transport-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: directory + "/snapshots/dir.cdir", withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    #expect(mkfifo(directory + "/manifest.json", 0o600) == 0)
    let source = DirectorySource(directory: directory)
    let bounds = TransferLimits.standard.bounds(bytes: 1 << 20, transfers: 1)
    #expect(throws: SyncSourceError.notRegularFile(
      path: "manifest.json", location: directory + "/manifest.json", kind: "named pipe")) {
      try source.fetch("manifest.json", limit: 1 << 20, within: bounds)
    }
    #expect(throws: SyncSourceError.notRegularFile(
      path: "snapshots/dir.cdir", location: directory + "/snapshots/dir.cdir", kind: "directory")) {
      try source.fetch("snapshots/dir.cdir", limit: 1 << 20, within: bounds)
    }
    #expect(throws: SyncSourceError.notFound(path: "missing", source: directory)) {
      try source.fetch("missing", limit: 1 << 20, within: bounds)
    }
    try Data(repeating: 0x41, count: 100).write(to: URL(fileURLWithPath: directory + "/big"))
    #expect(throws: SyncSourceError.tooLarge(path: "big", limit: 99)) { try source.fetch("big", limit: 99, within: bounds) }
    #expect(try source.fetch("big", limit: 100, within: bounds).count == 100)
  }
}

/// The message `--from` gets for a location.
enum SyncSourcesProbe {
  static func message(_ location: String) throws -> String {
    do {
      _ = try SyncSources.source(for: location)
      return ""
    } catch {
      return error.description
    }
  }
}
