extension SimulatedDevice {
  /// Streams the entries of several extensions as one list: every blocking
  /// number of all of them, ascending, then every identification entry,
  /// ascending. A number two extensions hold comes once per extension, in
  /// the order of `identifiers`.
  ///
  /// Memory stays constant: each store is read a chunk at a time, the next
  /// chunk decoded on a worker thread while the current one is merged
  /// (CalldirHost's ``OrderedPipeline``). Each store is a consistent
  /// snapshot (see ``forEachEntry(inExtensionWithIdentifier:blocking:identification:)``).
  ///
  /// - Parameters:
  ///   - identifiers: The extensions, in tie-breaking order.
  ///   - shouldContinue: Asked before each entry; `false` stops quietly
  ///     (for example when the reader of the output went away).
  ///   - blocking: Called for each blocking number.
  ///   - identification: Called for each identification entry.
  /// - Throws: ``SimulatedDeviceError/noSuchExtension(_:)``,
  ///   ``SimulatedDeviceError/storage(_:)`` for an unreadable or corrupt
  ///   store, or what the closures throw.
  public func forEachMergedEntry(
    inExtensionsWithIdentifiers identifiers: [String],
    while shouldContinue: () -> Bool = { true },
    blocking: (CXCallDirectoryPhoneNumber) throws -> Void,
    identification: (IdentificationEntry) throws -> Void
  ) throws {
    var cursors: [_MergeCursor] = []
    for identifier in identifiers {
      cursors.append(_MergeCursor(_PrefetchedStore(reader: try openStore(identifier))))
    }
    try storage { () throws(_DeviceStorageError) in
      for index in cursors.indices { try cursors[index].startBlocking() }
    }
    while shouldContinue() {
      guard let chosen = _MergeCursor.lowest(cursors, \.blockingHead), let number = cursors[chosen].blockingHead
      else { break }
      try blocking(number)
      try storage { () throws(_DeviceStorageError) in try cursors[chosen].advanceBlocking() }
    }
    guard shouldContinue() else { return }
    try storage { () throws(_DeviceStorageError) in
      for index in cursors.indices { try cursors[index].startIdentification() }
    }
    while shouldContinue() {
      guard let chosen = _MergeCursor.lowest(cursors, { $0.identificationHead?.number }),
        let entry = cursors[chosen].identificationHead
      else { break }
      try identification(entry)
      try storage { () throws(_DeviceStorageError) in try cursors[chosen].advanceIdentification() }
    }
  }
}
