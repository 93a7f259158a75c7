import CalldirSystem

/// Why a request failed, from the system's side.
enum _Failure {
  /// The system dropped the request.
  case system(CXErrorCodeCallDirectoryManagerError)
  /// The device's own files (or its pipe to the extension process) failed:
  /// what was being done, and the error.
  case device(String, SimulatedDeviceError)
  /// The extension called `cancelRequest(withError:)`.
  case cancelled(any Error)

  /// The error the manager reports.
  var error: any Error {
    switch self {
    case .system(let error): error
    case .device: managerError
    case .cancelled(let error): error
    }
  }

  /// The error as a CallKit error (`unknown` for a device failure or a
  /// cancellation).
  var managerError: CXErrorCodeCallDirectoryManagerError {
    switch self {
    case .system(let error): error
    case .device(let context, .storage(let message)): CXErrorCodeCallDirectoryManagerError(.unknown, reason: "\(context): \(message)")
    case .device(let context, let error): CXErrorCodeCallDirectoryManagerError(.unknown, reason: "\(context): \(error)")
    case .cancelled: CXErrorCodeCallDirectoryManagerError(.unknown, reason: "request was cancelled")
    }
  }

  /// The device's own failure, if that is what it was.
  var deviceError: SimulatedDeviceError? {
    if case .device(_, let error) = self { return error }
    return nil
  }
}

/// The system side of one request: validates every call as it arrives,
/// stages entries in its staging area, and at completion merges them with
/// the previous store into a new store file that replaces it atomically.
///
/// Not thread-safe; hosts serialize access. Runs only under the
/// extension's reservation.
final class _RequestSession {
  let storePath: String
  let isIncrementalAvailable: Bool
  let settings: ExtensionSettings
  private(set) var isConfirmedIncremental = false
  private(set) var failure: _Failure?
  /// Set when the request committed but the device could not make its new
  /// store durable (``_StoreWriter/PublishFailure/newStoreNotDurable(_:)``).
  private(set) var durabilityError: SimulatedDeviceError?
  private(set) var statistics = RequestStatistics()
  private(set) var trace: [CallDirectoryOperation] = []

  private let beforePublishing: () throws(SimulatedDeviceError) -> Void
  private var hasEntryOperations = false
  private var lastBlocking: Int64 = 0
  private var lastIdentification: Int64 = 0
  private var removedAllBlocking = false
  private var removedAllIdentification = false
  private var hasRemovesAfterAdds = false
  private let blockingAdds: _AddStaging
  private let identificationAdds: _AddStaging
  private let blockingRemoves: _RemoveStaging
  private let identificationRemoves: _RemoveStaging

  /// Creates the session and its staging files in `staging`.
  ///
  /// - Parameter beforePublishing: Runs once the new store is written and
  ///   synced, just before it replaces the old one (the device records the
  ///   successful load there, so that a failure to record it still leaves
  ///   the old entries); an error fails the request.
  init(
    staging: _StagingArea,
    storePath: String,
    settings: ExtensionSettings,
    beforePublishing: @escaping () throws(SimulatedDeviceError) -> Void
  ) throws(_DeviceStorageError) {
    self.storePath = storePath
    self.settings = settings
    self.beforePublishing = beforePublishing
    isIncrementalAvailable = FileSystem.exists(storePath)
    blockingAdds = try _AddStaging(path: staging.file("blocking-adds"), hasLabels: false)
    identificationAdds = try _AddStaging(path: staging.file("identification-adds"), hasLabels: true)
    blockingRemoves = try _RemoveStaging(path: staging.file("blocking-removes"))
    identificationRemoves = try _RemoveStaging(path: staging.file("identification-removes"))
  }

  /// Records a read of `isIncremental`; a `true` read before any add or
  /// remove confirms incremental loading.
  func readIncremental() -> Bool {
    note(.readIncremental(isIncrementalAvailable))
    statistics.incrementalReads += 1
    if isIncrementalAvailable && !hasEntryOperations { isConfirmedIncremental = true }
    return isIncrementalAvailable
  }

  /// Validates and stages one add or remove. After the first failure the
  /// rest of the request is only counted.
  func apply(_ operation: CallDirectoryOperation) {
    note(operation)
    do throws(_DeviceStorageError) {
      switch operation {
      case .readIncremental:
        _ = readIncremental()
      case .addBlocking(let number):
        hasEntryOperations = true
        statistics.blockingAdds += 1
        guard failure == nil else { return }
        guard check(number, after: lastBlocking, list: "blocking") else { return }
        lastBlocking = number
        try blockingAdds.append(number, label: nil)
        checkAddVolume()
      case .addIdentification(let number, let label):
        hasEntryOperations = true
        statistics.identificationAdds += 1
        guard failure == nil else { return }
        guard check(number, after: lastIdentification, list: "identification") else { return }
        let bytes = Array(label.utf8)
        guard bytes.count <= _EntryStore.maximumLabelLength else {
          fail(.unknown, "label of \(number) is longer than \(_EntryStore.maximumLabelLength) bytes")
          return
        }
        lastIdentification = number
        try identificationAdds.append(number, label: bytes)
        checkAddVolume()
      case .removeBlocking(let number):
        hasEntryOperations = true
        statistics.blockingRemoves += 1
        guard failure == nil, checkRemovalConfirmed("removeBlockingEntry(withPhoneNumber:)") else { return }
        if blockingAdds.count > 0 { hasRemovesAfterAdds = true }
        try blockingRemoves.append(number, addsBefore: blockingAdds.count)
      case .removeIdentification(let number):
        hasEntryOperations = true
        statistics.identificationRemoves += 1
        guard failure == nil, checkRemovalConfirmed("removeIdentificationEntry(withPhoneNumber:)") else { return }
        if identificationAdds.count > 0 { hasRemovesAfterAdds = true }
        try identificationRemoves.append(number, addsBefore: identificationAdds.count)
      case .removeAllBlocking:
        hasEntryOperations = true
        statistics.removeAllBlockingCalls += 1
        guard failure == nil, checkRemovalConfirmed("removeAllBlockingEntries()") else { return }
        removedAllBlocking = true
        try blockingAdds.truncate()
        try blockingRemoves.truncate()
      case .removeAllIdentification:
        hasEntryOperations = true
        statistics.removeAllIdentificationCalls += 1
        guard failure == nil, checkRemovalConfirmed("removeAllIdentificationEntries()") else { return }
        removedAllIdentification = true
        try identificationAdds.truncate()
        try identificationRemoves.truncate()
      case .complete, .cancel:
        break
      }
    } catch {
      failDevice("cannot stage the request", error.deviceError)
    }
  }

  /// Fails the request with the extension's own error.
  func cancel(_ error: any Error) {
    if failure == nil { failure = .cancelled(error) }
  }

  /// Fails the request with a system error, unless it already failed.
  func fail(_ code: CXErrorCodeCallDirectoryManagerError.Code, _ reason: String) {
    if failure == nil { failure = .system(CXErrorCodeCallDirectoryManagerError(code, reason: reason)) }
  }

  /// Fails the request because the device itself failed, unless it
  /// already failed.
  func failDevice(_ context: String, _ error: SimulatedDeviceError) {
    if failure == nil { failure = .device(context, error) }
  }

  /// Merges the request into a new store and swaps it in, or leaves the
  /// store untouched and returns the failure.
  ///
  /// - Parameter injected: A failure injected by the test, applied after the
  ///   request's own checks.
  /// - Returns: The committed store's counts.
  func commit(
    injecting injected: CXErrorCodeCallDirectoryManagerError.Code? = nil
  ) -> Result<_EntryStore.Header, CXErrorCodeCallDirectoryManagerError> {
    if let failure { return .failure(failure.managerError) }
    if let injected {
      return failedCommit(.system(CXErrorCodeCallDirectoryManagerError(injected, reason: "failure injected by the test")))
    }
    let writer: _StoreWriter
    do throws(_DeviceStorageError) {
      writer = try _StoreWriter(destination: storePath)
    } catch {
      return failedCommit(.device("cannot write the store", error.deviceError))
    }
    let header: _EntryStore.Header
    do throws(_MergeError) {
      header = try merge(into: writer)
    } catch {
      writer.discard()
      if case .storage(let storage) = error {
        return failedCommit(.device("cannot write the store", storage.deviceError))
      }
      return failedCommit(.system(error.managerError))
    }
    // Held open so that the old entries can be put back should the rename
    // succeed and the sync after it fail.
    let previous: FileDescriptor?
    do throws(FileError) {
      previous = FileSystem.exists(storePath) ? try FileDescriptor.open(storePath, .readOnly) : nil
    } catch {
      writer.discard()
      return failedCommit(.device("cannot write the store", _DeviceStorageError.file(error).deviceError))
    }
    defer { try? previous?.close() }
    do throws(SimulatedDeviceError) {
      try beforePublishing()
    } catch {
      writer.discard()
      return failedCommit(.device("cannot record the load", error))
    }
    do throws(_StoreWriter.PublishFailure) {
      try writer.publish(restoringOnFailure: previous)
    } catch {
      switch error {
      case .oldStoreKept(let storage):
        return failedCommit(.device("cannot write the store", storage.deviceError))
      case .newStoreNotDurable(let storage):
        // The store holds the new entries: the request committed, and
        // saying otherwise would have the extension record the old version
        // over them.
        durabilityError = .storage("the store's new entries are in place but not durable: \(storage)")
      }
    }
    return .success(header)
  }

  private func failedCommit(
    _ failure: _Failure
  ) -> Result<_EntryStore.Header, CXErrorCodeCallDirectoryManagerError> {
    self.failure = failure
    return .failure(failure.managerError)
  }

  // MARK: - Validation

  private func check(_ number: Int64, after last: Int64, list: String) -> Bool {
    if number == last {
      fail(.duplicateEntries, "\(list) entry \(number) repeats the previous entry")
      return false
    }
    if number < last {
      fail(.entriesOutOfOrder, "\(list) entry \(number) comes after \(last)")
      return false
    }
    if number > CXCallDirectoryPhoneNumberMax {
      fail(.entriesOutOfOrder, "\(list) entry \(number) is above CXCallDirectoryPhoneNumberMax")
      return false
    }
    return true
  }

  private func checkRemovalConfirmed(_ call: String) -> Bool {
    guard isConfirmedIncremental else {
      fail(.unexpectedIncrementalRemoval, "\(call) in a request that did not confirm incremental loading")
      return false
    }
    return true
  }

  /// Every staged add ends up in the store unless a later remove cancels it,
  /// so without such removes the adds alone bound the final count; stop
  /// staging as soon as they reach the maximum.
  private func checkAddVolume() {
    let adds = blockingAdds.count + identificationAdds.count
    if !hasRemovesAfterAdds && adds >= Int64(settings.maximumEntryCount) {
      fail(.maximumEntriesExceeded, "the request adds \(adds) entries, reaching the maximum of \(settings.maximumEntryCount)")
    }
  }

  private func note(_ operation: CallDirectoryOperation) {
    if trace.count < settings.traceLimit { trace.append(operation) }
  }

  // MARK: - Merge

  private func merge(into writer: _StoreWriter) throws(_MergeError) -> _EntryStore.Header {
    let readsOld = isConfirmedIncremental && !(removedAllBlocking && removedAllIdentification)
    let old: _StoreReader? = readsOld ? try _merging { () throws(_DeviceStorageError) in
      try _StoreReader(path: storePath)
    } : nil
    let maximum = UInt64(settings.maximumEntryCount)
    let policy = settings.incrementalReAddPolicy

    try _mergeList(
      old: { () throws(_MergeError) -> _Entry? in
        guard !self.removedAllBlocking, let old else { return nil }
        return try _merging { () throws(_DeviceStorageError) in try old.nextBlocking() }.map { _Entry(number: $0, label: nil) }
      },
      removes: try _merging { () throws(_DeviceStorageError) in try blockingRemoves.makeLookup() },
      adds: try _merging { () throws(_DeviceStorageError) in try blockingAdds.makeReader() },
      policy: policy,
      list: "blocking"
    ) { entry throws(_MergeError) in
      guard writer.blockingCount + 1 < maximum else { throw .tooManyEntries(maximum) }
      try _merging { () throws(_DeviceStorageError) in try writer.appendBlocking(entry.number) }
    }
    try _mergeList(
      old: { () throws(_MergeError) -> _Entry? in
        guard !self.removedAllIdentification, let old else { return nil }
        return try _merging { () throws(_DeviceStorageError) in try old.nextIdentification() }.map {
          _Entry(number: $0.number, label: $0.label)
        }
      },
      removes: try _merging { () throws(_DeviceStorageError) in try identificationRemoves.makeLookup() },
      adds: try _merging { () throws(_DeviceStorageError) in try identificationAdds.makeReader() },
      policy: policy,
      list: "identification"
    ) { entry throws(_MergeError) in
      guard writer.blockingCount + writer.identificationCount + 1 < maximum else {
        throw .tooManyEntries(maximum)
      }
      try _merging { () throws(_DeviceStorageError) in try writer.appendIdentification(entry.number, label: entry.label ?? []) }
    }
    return try _merging { () throws(_DeviceStorageError) in try writer.seal() }
  }
}
