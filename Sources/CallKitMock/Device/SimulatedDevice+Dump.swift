import CalldirSystem

extension SimulatedDevice {
  /// Streams an extension's stored entries in ascending order: every blocking
  /// number, then every identification entry. Reading to the end verifies the
  /// store's checksum.
  ///
  /// Reads a consistent snapshot: a request committing meanwhile replaces the
  /// file by `rename`, which does not affect the open one.
  ///
  /// - Parameters:
  ///   - identifier: The extension's identifier.
  ///   - blocking: Called for each blocking number.
  ///   - identification: Called for each identification entry.
  /// - Throws: ``SimulatedDeviceError/noSuchExtension(_:)``,
  ///   ``SimulatedDeviceError/storage(_:)`` for an unreadable or corrupt
  ///   store, or what the closures throw.
  public func forEachEntry(
    inExtensionWithIdentifier identifier: String,
    blocking: (CXCallDirectoryPhoneNumber) throws -> Void,
    identification: (IdentificationEntry) throws -> Void
  ) throws {
    guard let reader = try openStore(identifier) else { return }
    while let number = try storage({ () throws(_DeviceStorageError) in try reader.nextBlocking() }) {
      try blocking(number)
    }
    while let entry = try storage({ () throws(_DeviceStorageError) in try reader.nextIdentification() }) {
      try identification(IdentificationEntry(number: entry.number, label: String(decoding: entry.label, as: UTF8.self)))
    }
  }

  /// All stored blocking numbers, ascending (convenient for small stores).
  public func blockingEntries(forExtensionWithIdentifier identifier: String) throws -> [CXCallDirectoryPhoneNumber] {
    var numbers: [CXCallDirectoryPhoneNumber] = []
    try forEachEntry(inExtensionWithIdentifier: identifier, blocking: { numbers.append($0) }, identification: { _ in })
    return numbers
  }

  /// All stored identification entries, ascending (convenient for small
  /// stores).
  public func identificationEntries(forExtensionWithIdentifier identifier: String) throws -> [IdentificationEntry] {
    var entries: [IdentificationEntry] = []
    try forEachEntry(inExtensionWithIdentifier: identifier, blocking: { _ in }, identification: { entries.append($0) })
    return entries
  }

  /// A reader over an installed extension's store; `nil` when it has none.
  func openStore(_ identifier: String) throws(SimulatedDeviceError) -> _StoreReader? {
    _ = try record(identifier)
    let path = storePath(identifier)
    return try storage { () throws(_DeviceStorageError) -> _StoreReader? in
      try _io { () throws(FileError) in try FileSystem.statusIfPresent(path) } == nil ? nil : try _StoreReader(path: path)
    }
  }
}
