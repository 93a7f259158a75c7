import CallDirectorySync
import CalldirSystem

/// A store read from a directory: the store itself, or a copy of its
/// `manifest.json*`, `snapshots/` and `deltas/`. A download resumes by
/// reading from the offset asked for.
public struct DirectorySource: SyncSource {
  /// The directory.
  public let directory: String
  /// The most bytes handed to the receiver at once.
  static let chunkSize = 1 << 18

  public init(directory: String) {
    self.directory = directory.count > 1 && directory.hasSuffix("/") ? String(directory.dropLast()) : directory
  }

  public var name: String { directory }

  public func fetch(_ path: String, limit: Int) throws(SyncSourceError) -> [UInt8] {
    do {
      return try FileSystem.contents(of: location(of: path), limit: limit)
    } catch {
      throw failure(error, path: path, limit: limit)
    }
  }

  public func download(_ path: String, from offset: Int64, into receiver: any DownloadReceiver) throws(SyncSourceError) {
    let file: FileDescriptor
    do {
      file = try FileDescriptor.open(location(of: path), .readOnly)
    } catch {
      throw failure(error, path: path, limit: 0)
    }
    defer { try? file.close() }
    let size: Int64
    do throws(Errno) {
      size = try file.status().size
    } catch {
      throw .failed(path: path, reason: "cannot read the status of \(location(of: path)): \(error)")
    }
    var position = offset <= size ? offset : 0
    guard receiver.start(at: position) else { return }
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.chunkSize, alignment: 16)
    defer { buffer.deallocate() }
    while true {
      let count: Int
      do throws(Errno) {
        count = try file.read(fromAbsoluteOffset: position, into: buffer)
      } catch {
        throw .failed(path: path, reason: "cannot read \(location(of: path)): \(error)")
      }
      if count == 0 { return }
      guard receiver.receive(UnsafeRawBufferPointer(rebasing: buffer[0..<count])) else { return }
      position += Int64(count)
    }
  }

  private func location(of path: String) -> String { directory + "/" + path }

  private func failure(_ error: FileError, path: String, limit: Int) -> SyncSourceError {
    if error.errno == .noSuchFileOrDirectory || error.errno == .notDirectory { return .notFound(path: path, source: name) }
    if error.errno == .fileTooLarge { return .tooLarge(path: path, limit: limit) }
    return .failed(path: path, reason: error.description)
  }
}
