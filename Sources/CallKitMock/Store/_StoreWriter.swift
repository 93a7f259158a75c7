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

  /// What a failed ``publish(restoringOnFailure:)`` left at the destination.
  enum PublishFailure: Error {
    /// The old store (or none, as before): the request did not commit.
    case oldStoreKept(_DeviceStorageError)
    /// The new store: it was renamed in, but the sync of its directory
    /// failed and the old store could not be put back either (a disk that
    /// stays full). The request committed; the device could not make it
    /// durable.
    case newStoreNotDurable(_DeviceStorageError)
  }

  /// Renames the sealed file over the destination, durably.
  ///
  /// The rename is the commit point. Should the sync of the directory
  /// after it fail, the previous store is put back (copied from
  /// `previous`, the old file held open, or removed when there was none),
  /// so that a failed commit leaves the old entries; when even that
  /// fails, the new store stays and the failure says so: either way the
  /// caller learns which store readers see, and reports the request's
  /// outcome by it.
  func publish(restoringOnFailure previous: FileDescriptor?) throws(PublishFailure) {
    let directorySync = FileSystem.DeferredSyncs()
    do {
      try file.seal()
      try file.commit(deferringSyncsTo: directorySync)
    } catch {
      throw .oldStoreKept(.file(error))
    }
    do {
      try directorySync.syncAll()
    } catch {
      throw restore(previous) ? .oldStoreKept(.file(error)) : .newStoreNotDurable(.file(error))
    }
  }

  /// Removes the temporary file.
  func discard() {
    file.discard()
  }

  /// Puts the previous store back over the new one; whether it is back.
  /// Only the sync of the directory may fail for it to count as back
  /// (the rename or removal is made): what readers see is the old store.
  private func restore(_ previous: FileDescriptor?) -> Bool {
    let directorySync = FileSystem.DeferredSyncs()
    do {
      if let previous {
        try AtomicFile.copy(
          from: previous, named: destination, to: destination, deferringDirectorySyncTo: directorySync)
      } else {
        try FileSystem.removeFile(destination)
        directorySync.add(containing: destination)
      }
    } catch {
      return false
    }
    try? directorySync.syncAll()
    return true
  }
}
