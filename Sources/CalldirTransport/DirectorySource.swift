import CallDirectorySync
import CalldirSystem

/// A store read from a directory: the store itself, or a copy of its
/// `manifest.json*`, `snapshots/` and `deltas/`. A download resumes by
/// reading from the offset asked for. Only regular files are read: a named
/// pipe (which would block the sync), a device or a directory under a
/// file's name is refused.
public struct DirectorySource: SyncSource {
  /// The directory.
  public let directory: String
  /// The most bytes handed to the receiver at once.
  static let chunkSize = 1 << 18

  public init(directory: String) {
    self.directory = directory.count > 1 && directory.hasSuffix("/") ? String(directory.dropLast()) : directory
  }

  public var name: String { directory }

  public func download(
    _ path: String, from offset: Int64, within bounds: TransferBounds, into receiver: any DownloadReceiver
  ) throws(SyncSourceError) {
    let location = location(of: path)
    let file: FileDescriptor
    do {
      // Never blocks: a named pipe without a writer is refused below.
      file = try FileDescriptor.open(location, .readOnly, options: .nonBlocking)
    } catch {
      if error.errno == .noSuchFileOrDirectory || error.errno == .notDirectory { throw .notFound(path: path, source: name) }
      throw .failed(path: path, reason: error.description)
    }
    defer { try? file.close() }
    let status: FileStatus
    do throws(Errno) {
      status = try file.status()
    } catch {
      throw .failed(path: path, reason: "cannot read the status of \(location): \(error)")
    }
    guard status.kind == .regular else {
      throw .notRegularFile(path: path, location: location, kind: status.kind.description)
    }
    let size = status.size
    var position = offset <= size ? offset : 0
    guard receiver.start(at: position) else { return }
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.chunkSize, alignment: 16)
    defer { buffer.deallocate() }
    while true {
      guard !bounds.hasExpired else { throw .failed(path: path, reason: bounds.expiryReason) }
      let count: Int
      do throws(Errno) {
        count = try file.read(fromAbsoluteOffset: position, into: buffer)
      } catch {
        throw .failed(path: path, reason: "cannot read \(location): \(error)")
      }
      if count == 0 { return }
      guard receiver.receive(UnsafeRawBufferPointer(rebasing: buffer[0..<count])) else { return }
      position += Int64(count)
    }
  }

  private func location(of path: String) -> String { directory + "/" + path }
}
