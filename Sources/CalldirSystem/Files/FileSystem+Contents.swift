extension FileSystem {
  /// The whole contents of a small file (a config, a key, a manifest, a
  /// `/sys` value), read front to back once.
  /// - Throws: ``FileError`` when it cannot be read, or holds more than
  ///   `limit` bytes (`EFBIG`).
  public static func contents(of path: String, limit: Int = 16 << 20) throws(FileError) -> [UInt8] {
    let input = try ChunkedInput(.path(path), chunkSize: 1 << 16)
    while !input.isEOF {
      try input.refill(keepingFrom: 0)
      if input.end > limit {
        throw FileError(operation: "read", path: path, errno: .fileTooLarge, detail: "larger than \(limit) bytes")
      }
    }
    return Array(UnsafeBufferPointer(start: input.base, count: input.end))
  }
}
