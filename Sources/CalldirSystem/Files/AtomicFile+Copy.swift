#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

extension AtomicFile {
  /// Copies the regular file at `source` to `destination` atomically: the
  /// destination holds its old bytes or the complete copy, never a part.
  ///
  /// - Throws: ``FileError`` when `source` cannot be read or is not a
  ///   regular file, or the copy cannot be written.
  public static func copy(contentsOf source: String, to destination: String, permissions: mode_t = 0o644)
    throws(FileError)
  {
    let input = try FileDescriptor.open(source, .readOnly)
    try input.closeAfter { () throws(FileError) in
      let status: FileStatus
      do throws(Errno) {
        status = try input.status()
      } catch {
        throw FileError(operation: "read the status of", path: source, errno: error)
      }
      guard status.isRegularFile else {
        throw FileError(
          operation: "copy", path: source, errno: .invalidArgument, detail: "it is not a regular file (\(status.kind))")
      }
      try copy(from: input, named: source, to: destination, permissions: permissions)
    }
  }

  /// Copies every byte of the open file `source` (read from offset 0, so
  /// its position does not matter) to `destination` atomically.
  ///
  /// - Parameters:
  ///   - name: The source's name for errors.
  ///   - directorySync: When given, the copy is synced before the rename
  ///     and only the sync of the destination's directory is left to it:
  ///     a failure thrown from this call then always means that the
  ///     destination was not replaced.
  public static func copy(
    from source: FileDescriptor, named name: String, to destination: String, permissions: mode_t = 0o644,
    deferringDirectorySyncTo directorySync: FileSystem.DeferredSyncs? = nil
  ) throws(FileError) {
    let file = try AtomicFile(destination: destination, permissions: permissions)
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 18, alignment: 16)
    defer { buffer.deallocate() }
    var offset: Int64 = 0
    while true {
      let count: Int
      do {
        count = try source.read(fromAbsoluteOffset: offset, into: buffer)
      } catch {
        throw FileError(operation: "read", path: name, errno: error)
      }
      if count == 0 { break }
      try file.writer.write(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
      offset += Int64(count)
    }
    if directorySync != nil { try file.seal() }
    try file.commit(deferringSyncsTo: directorySync)
  }
}
