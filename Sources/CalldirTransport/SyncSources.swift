import CallDirectorySync
import Foundation

/// The source `calldir device sync --from` names.
public enum SyncSources {
  /// Why a `--from` value names no source.
  public struct InvalidLocation: Error, CustomStringConvertible {
    public let description: String
  }

  /// An ``HTTPSource`` for an `http://` or `https://` URL, a
  /// ``DirectorySource`` for anything without a scheme.
  ///
  /// - Throws: ``InvalidLocation`` for another scheme or a malformed URL
  ///   (its credentials redacted in the message).
  public static func source(for location: String) throws(InvalidLocation) -> any SyncSource {
    let lowercased = location.lowercased()
    if lowercased.hasPrefix("http://") || lowercased.hasPrefix("https://") {
      guard let url = URL(string: location), let host = url.host, !host.isEmpty else {
        throw InvalidLocation(description: "'\(URLRedaction.redacted(location, isMalformed: true))' is not a valid url")
      }
      return HTTPSource(baseURL: url)
    }
    if let scheme = location.range(of: "://") {
      throw InvalidLocation(
        description: "unsupported url scheme '\(location[..<scheme.lowerBound])' (expected http, https or a directory)")
    }
    return DirectorySource(directory: location)
  }
}
