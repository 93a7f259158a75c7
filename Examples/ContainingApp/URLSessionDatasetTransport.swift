#if canImport(Darwin)
  import Foundation

  /// A store on a web server or CDN: the store's `manifest.json*`,
  /// `snapshots/` and `deltas/` copied to a static host, under `storeURL`.
  ///
  /// Uses URLSession's async API (iOS 15). The manifest and its signature
  /// bypass local caches, so that a new version is seen as soon as it is
  /// published; blobs have versioned names and never change, so caching
  /// them is harmless. Whatever a cache or the network returns is checked
  /// by the sync (signature, size, SHA-256) before it is used.
  public struct URLSessionDatasetTransport: DatasetTransport {
    /// The directory URL of the store (`…/manifest.json` is in it).
    public let storeURL: URL
    /// The session requests go through.
    public let session: URLSession

    /// A transport over the store at `storeURL`.
    public init(storeURL: URL, session: URLSession = .shared) {
      self.storeURL = storeURL
      self.session = session
    }

    public func contents(of path: String, maximumBytes: Int) async throws -> [UInt8] {
      let request = URLRequest(url: storeURL.appendingPathComponent(path), cachePolicy: .reloadIgnoringLocalCacheData)
      let (data, response) = try await session.data(for: request)
      try check(response, path)
      guard data.count <= maximumBytes else { throw DatasetTransportError.tooLarge(path: path, limit: maximumBytes) }
      return Array(data)
    }

    public func download(_ path: String, to destination: URL) async throws {
      let (temporary, response) = try await session.download(for: URLRequest(url: storeURL.appendingPathComponent(path)))
      // The system may delete the temporary file once this task moves on.
      defer { try? FileManager.default.removeItem(at: temporary) }
      try check(response, path)
      try FileManager.default.moveItem(at: temporary, to: destination)
    }

    /// Throws unless the response is an HTTP 200 (or not HTTP at all, as for
    /// a `file:` URL).
    private func check(_ response: URLResponse, _ path: String) throws {
      guard let http = response as? HTTPURLResponse else { return }
      guard http.statusCode == 200 else { throw DatasetTransportError.httpStatus(path: path, status: http.statusCode) }
    }
  }
#endif
