extension FileSystem {
  /// The bytes of a small file, read whole.
  ///
  /// - Parameters:
  ///   - path: The file.
  ///   - limit: The most bytes accepted.
  ///   - requiringRegularFile: Whether anything but a regular file (a named
  ///     pipe, which would block the read until a writer comes, a device, a
  ///     socket, a directory) is refused, without blocking
  ///     (``requireRegularFile(_:named:)``): for files a command reads as
  ///     its own state or keys, which are never streams.
  /// - Throws: ``FileError`` when it cannot be opened or read, and with
  ///   ``Errno/fileTooLarge`` when it holds more than `limit` bytes.
  public static func contents(
    of path: String, limit: Int = 16 << 20, requiringRegularFile: Bool = false
  ) throws(FileError) -> [UInt8] {
    let file = try FileDescriptor.open(path, .readOnly, options: requiringRegularFile ? .nonBlocking : [])
    return try file.closeAfter { () throws(FileError) -> [UInt8] in
      if requiringRegularFile { _ = try requireRegularFile(file, named: path) }
      var bytes: [UInt8] = []
      let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: min(max(limit, 0) + 1, 1 << 16), alignment: 1)
      defer { chunk.deallocate() }
      while bytes.count <= limit {
        let count: Int
        do throws(Errno) {
          count = try file.read(into: chunk)
        } catch {
          throw FileError(operation: "read", path: path, errno: error)
        }
        if count == 0 { return bytes }
        bytes.append(contentsOf: chunk[0..<count])
      }
      throw FileError(
        operation: "read", path: path, errno: .fileTooLarge, detail: "it is larger than \(limit) bytes")
    }
  }

  /// The bytes of a small file, or nil when there is none (`ENOENT`).
  ///
  /// - Throws: As ``contents(of:limit:requiringRegularFile:)``, for any
  ///   other failure.
  public static func contentsIfPresent(
    of path: String, limit: Int, requiringRegularFile: Bool = false
  ) throws(FileError) -> [UInt8]? {
    do {
      return try contents(of: path, limit: limit, requiringRegularFile: requiringRegularFile)
    } catch where error.errno == .noSuchFileOrDirectory && error.operation == "open" {
      return nil
    }
  }

  /// The status of an open file, which must be a regular file.
  ///
  /// Open the file with ``FileDescriptor/OpenOptions/nonBlocking`` so that
  /// a named pipe without a writer is refused here instead of blocking the
  /// open.
  ///
  /// - Throws: ``FileError`` with ``Errno/isDirectory`` for a directory,
  ///   ``Errno/illegalSeek`` for anything else that is not a regular file
  ///   (a named pipe, device or socket: it is not a file of fixed size that
  ///   can be read again), both "no input"; the errno of a failed `fstat`.
  @discardableResult
  public static func requireRegularFile(_ descriptor: FileDescriptor, named path: String) throws(FileError) -> FileStatus {
    let status: FileStatus
    do throws(Errno) {
      status = try descriptor.status()
    } catch {
      throw FileError(operation: "read the status of", path: path, errno: error)
    }
    guard status.kind == .regular else { throw FileError.notRegularFile(path, status.kind) }
    return status
  }
}

extension FileError {
  /// `cannot read PATH: it is not a regular file (named pipe)`: a file
  /// read as a regular file is something else.
  public static func notRegularFile(_ path: String, _ kind: FileStatus.Kind) -> FileError {
    FileError(
      operation: "read", path: path, errno: kind == .directory ? .isDirectory : .illegalSeek,
      detail: "it is not a regular file (\(kind))")
  }
}
