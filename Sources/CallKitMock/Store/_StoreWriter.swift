import CalldirSystem

/// Writes a new store file next to the one it replaces: blocking numbers
/// first, then identification entries, each strictly ascending. Nothing is
/// visible until ``publish(restoringOnFailure:)``.
final class _StoreWriter {
  let destination: String
  private let file: AtomicFile
  private let writer: _ByteWriter
  private var previousBlocking: Int64 = 0
  private var previousIdentification: Int64 = 0
  private(set) var blockingCount: UInt64 = 0
  private(set) var identificationCount: UInt64 = 0

  init(destination: String) throws(_DeviceStorageError) {
    self.destination = destination
    file = try _io { () throws(FileError) in try AtomicFile(destination: destination) }
    writer = _ByteWriter(file.writer)
    try _io { () throws(FileError) in try writer.append([UInt8](repeating: 0, count: _EntryStore.headerLength)) }
    writer.isHashing = true
  }

  /// Appends a blocking number, above the previous one.
  func appendBlocking(_ number: Int64) throws(_DeviceStorageError) {
    guard number > previousBlocking, identificationCount == 0 else {
      throw .corrupt(path: destination, reason: "internal error: blocking number \(number) written out of order")
    }
    try _io { () throws(FileError) in try writer.appendVarint(UInt64(number - previousBlocking)) }
    previousBlocking = number
    blockingCount += 1
  }

  /// Appends an identification entry, above the previous one.
  func appendIdentification(_ number: Int64, label: [UInt8]) throws(_DeviceStorageError) {
    guard number > previousIdentification else {
      throw .corrupt(path: destination, reason: "internal error: identification number \(number) written out of order")
    }
    try _io { () throws(FileError) in
      try writer.appendVarint(UInt64(number - previousIdentification))
      try writer.appendVarint(UInt64(label.count))
      try writer.append(label)
    }
    previousIdentification = number
    identificationCount += 1
  }

  /// Fills in the header and makes the file durable under its temporary
  /// name.
  func seal() throws(_DeviceStorageError) -> _EntryStore.Header {
    let header = _EntryStore.Header(
      blockingCount: blockingCount,
      identificationCount: identificationCount,
      bodyLength: writer.count - UInt64(_EntryStore.headerLength),
      checksum: writer.checksum
    )
    try _io { () throws(FileError) in
      try writer.flush()
      try header.bytes.withUnsafeBytes { raw in
        Result { () throws(FileError) in try file.writer.overwrite(at: 0, with: raw) }
      }.get()
      try file.seal()
    }
    return header
  }

  /// Renames the sealed file over the destination, durably.
  ///
  /// Once the rename is made the new store is visible; should the sync of
  /// the directory after it fail, the previous store is put back (copied
  /// from `previous`, the old file held open, or removed when there was
  /// none), so that a failed commit always leaves the old entries.
  func publish(restoringOnFailure previous: FileDescriptor?) throws(_DeviceStorageError) {
    do {
      try file.commit()
    } catch {
      if !FileSystem.exists(file.temporaryPath) { restore(previous) }
      throw .file(error)
    }
  }

  /// Removes the temporary file.
  func discard() {
    file.discard()
  }

  private func restore(_ previous: FileDescriptor?) {
    if let previous {
      try? AtomicFile.copy(from: previous, named: destination, to: destination)
    } else {
      try? FileSystem.removeFile(destination)
      try? FileSystem.syncDirectory(containing: destination)
    }
  }
}
