#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why a request failed, from the system's side.
enum _Failure {
  /// The system dropped the request.
  case system(CXErrorCodeCallDirectoryManagerError)
  /// The extension called `cancelRequest(withError:)`.
  case cancelled(any Error)

  var error: any Error {
    switch self {
    case .system(let error): error
    case .cancelled(let error): error
    }
  }
}

/// The system side of one request: validates every call as it arrives,
/// stages entries in temporary files, and at completion merges them with the
/// previous store into a new store file that replaces it atomically.
///
/// Not thread-safe; hosts serialize access.
final class _RequestSession {
  let storePath: String
  let isIncrementalAvailable: Bool
  let settings: ExtensionSettings
  private(set) var isConfirmedIncremental = false
  private(set) var failure: _Failure?
  private(set) var statistics = RequestStatistics()
  private(set) var trace: [CallDirectoryOperation] = []

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

  /// Creates the session and its staging files in `stagingDirectory`.
  init(
    stagingDirectory: String,
    storePath: String,
    settings: ExtensionSettings
  ) throws(_SystemError) {
    self.storePath = storePath
    self.settings = settings
    isIncrementalAvailable = _FileSystem.exists(storePath)
    blockingAdds = try _AddStaging(path: stagingDirectory + "/blocking-adds", hasLabels: false)
    identificationAdds = try _AddStaging(path: stagingDirectory + "/identification-adds", hasLabels: true)
    blockingRemoves = try _RemoveStaging(path: stagingDirectory + "/blocking-removes")
    identificationRemoves = try _RemoveStaging(path: stagingDirectory + "/identification-removes")
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
    do {
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
      fail(.unknown, "cannot stage the request: \(error)")
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

  /// Merges the request into a new store and swaps it in, or leaves the
  /// store untouched and returns the failure.
  ///
  /// - Parameter injected: A failure injected by the test, applied after the
  ///   request's own checks.
  /// - Returns: The committed store's counts.
  func commit(
    injecting injected: CXErrorCodeCallDirectoryManagerError.Code? = nil
  ) -> Result<_EntryStore.Header, CXErrorCodeCallDirectoryManagerError> {
    if let failure {
      if case .system(let error) = failure { return .failure(error) }
      return .failure(CXErrorCodeCallDirectoryManagerError(.unknown, reason: "request was cancelled"))
    }
    if let injected {
      return .failure(CXErrorCodeCallDirectoryManagerError(injected, reason: "failure injected by the test"))
    }
    let newPath = storePath + ".new"
    do {
      let header = try merge(into: newPath)
      try _FileSystem.replace(storePath, with: newPath)
      return .success(header)
    } catch let error as _MergeError {
      _ = unlink(newPath)
      let failure = error.managerError
      self.failure = .system(failure)
      return .failure(failure)
    } catch {
      _ = unlink(newPath)
      let failure = CXErrorCodeCallDirectoryManagerError(.unknown, reason: "cannot write the store: \(error)")
      self.failure = .system(failure)
      return .failure(failure)
    }
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
  /// staging as soon as they exceed the maximum.
  private func checkAddVolume() {
    let adds = blockingAdds.count + identificationAdds.count
    if !hasRemovesAfterAdds && adds > Int64(settings.maximumEntryCount) {
      fail(.maximumEntriesExceeded, "the request adds more than \(settings.maximumEntryCount) entries")
    }
  }

  private func note(_ operation: CallDirectoryOperation) {
    if trace.count < settings.traceLimit { trace.append(operation) }
  }

  // MARK: - Merge

  private func merge(into newPath: String) throws -> _EntryStore.Header {
    let old: _StoreReader? =
      isConfirmedIncremental && !(removedAllBlocking && removedAllIdentification)
      ? try _StoreReader(path: storePath) : nil
    let writer = try _StoreWriter(creating: newPath)
    let maximum = UInt64(settings.maximumEntryCount)
    let policy = settings.incrementalReAddPolicy

    try _mergeList(
      old: { () throws -> _Entry? in
        guard !self.removedAllBlocking, let number = try old?.nextBlocking() else { return nil }
        return _Entry(number: number, label: nil)
      },
      removes: try blockingRemoves.makeLookup(),
      adds: try blockingAdds.makeReader(),
      policy: policy,
      list: "blocking"
    ) { entry in
      guard writer.blockingCount + 1 <= maximum else { throw _MergeError.tooManyEntries(maximum) }
      try writer.appendBlocking(entry.number)
    }
    try _mergeList(
      old: { () throws -> _Entry? in
        guard !self.removedAllIdentification, let entry = try old?.nextIdentification() else { return nil }
        return _Entry(number: entry.number, label: entry.label)
      },
      removes: try identificationRemoves.makeLookup(),
      adds: try identificationAdds.makeReader(),
      policy: policy,
      list: "identification"
    ) { entry in
      guard writer.blockingCount + writer.identificationCount + 1 <= maximum else {
        throw _MergeError.tooManyEntries(maximum)
      }
      try writer.appendIdentification(entry.number, label: entry.label ?? [])
    }
    try writer.finish()
    return try _EntryStore.readHeader(newPath)
  }
}

/// Counts of the calls a request made.
public struct RequestStatistics: Hashable, Sendable {
  /// Reads of `isIncremental`.
  public var incrementalReads = 0
  /// `addBlockingEntry` calls.
  public var blockingAdds = 0
  /// `addIdentificationEntry` calls.
  public var identificationAdds = 0
  /// `removeBlockingEntry` calls.
  public var blockingRemoves = 0
  /// `removeIdentificationEntry` calls.
  public var identificationRemoves = 0
  /// `removeAllBlockingEntries` calls.
  public var removeAllBlockingCalls = 0
  /// `removeAllIdentificationEntries` calls.
  public var removeAllIdentificationCalls = 0

  /// Creates zero counts.
  public init() {}
}

/// A failure found while merging.
enum _MergeError: Error {
  case duplicate(list: String, number: Int64)
  case tooManyEntries(UInt64)

  var managerError: CXErrorCodeCallDirectoryManagerError {
    switch self {
    case .duplicate(let list, let number):
      CXErrorCodeCallDirectoryManagerError(
        .duplicateEntries, reason: "\(list) entry \(number) is already in the store")
    case .tooManyEntries(let maximum):
      CXErrorCodeCallDirectoryManagerError(
        .maximumEntriesExceeded, reason: "the store would hold more than \(maximum) entries")
    }
  }
}

/// Merges one list: the old entries (ascending), minus the request's removes,
/// plus its adds (ascending), in one pass.
///
/// An add is dropped when a later remove of the same number cancels it (a
/// remove records how many adds preceded it). An add of a number that stays
/// in the store is a duplicate under ``IncrementalReAddPolicy/reject`` and
/// replaces the stored entry under ``IncrementalReAddPolicy/replace``.
///
/// - Complexity: O(old + removes + adds), constant memory for sorted removes.
func _mergeList(
  old nextOld: () throws -> _Entry?,
  removes: _RemoveLookup,
  adds: _AddReader,
  policy: IncrementalReAddPolicy,
  list: String,
  emit: (_Entry) throws -> Void
) throws {
  var old = try nextOld()
  var add = try adds.next()
  var addIndex: Int64 = 0
  while old != nil || add != nil {
    if let current = old, add.map({ current.number < $0.number }) ?? true {
      if try removes.lookup(current.number) == nil { try emit(current) }
      old = try nextOld()
    } else if let current = add {
      let removedAfter = try removes.lookup(current.number)
      let isCancelled = (removedAfter ?? -1) > addIndex
      if let stored = old, stored.number == current.number {
        if !isCancelled && removedAfter == nil && policy == .reject {
          throw _MergeError.duplicate(list: list, number: current.number)
        }
        old = try nextOld()
      }
      if !isCancelled { try emit(current) }
      add = try adds.next()
      addIndex += 1
    }
  }
}
