extension FileSystem {
  /// The bytes of a small file, read whole.
  ///
  /// - Parameters:
  ///   - path: The file.
  ///   - limit: The most bytes accepted.
  /// - Throws: ``FileError`` when it cannot be opened or read, and with
  ///   ``Errno/fileTooLarge`` when it holds more than `limit` bytes.
  public static func contents(of path: String, limit: Int = 16 << 20) throws(FileError) -> [UInt8] {
    let file = try FileDescriptor.open(path, .readOnly)
    return try file.closeAfter { () throws(FileError) -> [UInt8] in
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
  /// - Throws: As ``contents(of:limit:)``, for any other failure.
  public static func contentsIfPresent(of path: String, limit: Int) throws(FileError) -> [UInt8]? {
    do {
      return try contents(of: path, limit: limit)
    } catch where error.errno == .noSuchFileOrDirectory && error.operation == "open" {
      return nil
    }
  }
}
