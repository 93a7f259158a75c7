import CalldirSystem
import Foundation

extension SimulatedDevice {
  /// Runs one Call Directory request for an extension, as
  /// `CXCallDirectoryManager.reloadExtension` does on iOS, and reports it.
  ///
  /// The request is atomic: the provider's calls are validated and staged on
  /// disk as they arrive, and only a request that ends with
  /// `completeRequest` and passes every check replaces the store (by a
  /// streaming merge into a new file, `fsync`, `rename` and `fsync` of the
  /// directory; the extension's record is updated just before the
  /// `rename`). Any failure leaves the store byte-identical: should the
  /// sync of the directory after the rename fail, the old store is put
  /// back, and when even that fails (a disk that stays full) the request
  /// is reported committed, with ``ReloadReport/durabilityError``, since
  /// its entries are what the store holds. Blocks the calling thread until
  /// the request ends.
  ///
  /// Errors (``ReloadReport/error``): ``CXErrorCodeCallDirectoryManagerError``
  /// with `noExtensionFound` (unknown identifier, or an in-process extension
  /// without a registered provider), `extensionDisabled`, `currentlyLoading`
  /// (another request runs, or the extension is reserved),
  /// `entriesOutOfOrder`, `duplicateEntries`, `maximumEntriesExceeded`,
  /// `unexpectedIncrementalRemoval`, `loadingInterrupted` (the extension
  /// process died, exceeded its memory budget or its time limit), `unknown`
  /// (the device's own storage failed: ``ReloadReport/deviceError`` says
  /// how); or the error the extension passed to `cancelRequest(withError:)`.
  ///
  /// - Parameter identifier: The extension's identifier.
  /// - Returns: The report; ``ReloadReport/error`` is `nil` on success.
  public func reloadExtension(withIdentifier identifier: String) -> ReloadReport {
    let start = Date()
    // As on iOS, an unknown or disabled extension fails at once.
    if case .failure(let refusal) = reloadableRecord(identifier) {
      return _failedReload(identifier, startedAt: start, refusal.error, deviceError: refusal.deviceError)
    }
    let reservation: ExtensionReservation
    do {
      reservation = try reserveExtension(withIdentifier: identifier)
    } catch .extensionBusy {
      return _failedReload(
        identifier, startedAt: start,
        CXErrorCodeCallDirectoryManagerError(.currentlyLoading, reason: "extension '\(identifier)' is already loading"))
    } catch {
      return _failedReload(
        identifier, startedAt: start, CXErrorCodeCallDirectoryManagerError(.unknown, reason: error.description),
        deviceError: error)
    }
    defer { reservation.release() }
    return _reload(identifier, startedAt: start)
  }

  /// Runs the request; the caller holds the extension's reservation.
  func _reload(_ identifier: String, startedAt start: Date) -> ReloadReport {
    let record: _ExtensionRecord
    switch reloadableRecord(identifier) {
    case .success(let found): record = found
    case .failure(let refusal):
      return _failedReload(identifier, startedAt: start, refusal.error, deviceError: refusal.deviceError)
    }
    let previous: _EntryStore.Header?
    do {
      previous = try storage { () throws(_DeviceStorageError) in try _EntryStore.readHeaderIfPresent(storePath(identifier)) }
    } catch {
      return _failedReload(
        identifier, startedAt: start, CXErrorCodeCallDirectoryManagerError(.unknown, reason: error.description),
        deviceError: error)
    }

    let outcome = runRequest(record: record, startedAt: start)
    if let error = outcome.error {
      // The success record is written with the commit; a failure is
      // recorded here (best effort: the store is unchanged either way).
      try? updateRecord(identifier) { stored in
        stored.reloadCount += 1
        stored.lastReloadDate = start
        stored.injectedFailure = nil
        stored.lastError = _identity(of: error)
      }
    }
    let counts = outcome.committed ?? previous
    return ReloadReport(
      identifier: identifier, error: outcome.error, deviceError: outcome.deviceError,
      durabilityError: outcome.durabilityError, wasIncremental: outcome.wasIncremental,
      statistics: outcome.statistics, trace: outcome.trace,
      blockingEntryCount: Int(counts?.blockingCount ?? 0),
      identificationEntryCount: Int(counts?.identificationCount ?? 0),
      childBaselineResidentBytes: outcome.baselineResidentBytes, childPeakResidentBytes: outcome.peakResidentBytes,
      duration: Date().timeIntervalSince(start))
  }

  /// A report of a request that did not run; the counts are the store's.
  func _failedReload(
    _ identifier: String, startedAt start: Date, _ error: CXErrorCodeCallDirectoryManagerError,
    deviceError: SimulatedDeviceError? = nil
  ) -> ReloadReport {
    let header = Self.isValid(identifier) ? try? _EntryStore.readHeaderIfPresent(storePath(identifier)) : nil
    return ReloadReport(
      identifier: identifier, error: error, deviceError: deviceError, wasIncremental: false,
      statistics: RequestStatistics(), trace: [], blockingEntryCount: Int(header?.blockingCount ?? 0),
      identificationEntryCount: Int(header?.identificationCount ?? 0), childBaselineResidentBytes: nil,
      childPeakResidentBytes: nil, duration: Date().timeIntervalSince(start))
  }

  /// The record of an extension that can be reloaded, or why it cannot:
  /// it is not installed or disabled, or its record cannot be read.
  private func reloadableRecord(_ identifier: String) -> Result<_ExtensionRecord, _ReloadRefusal> {
    do {
      let record = try self.record(identifier)
      guard record.isEnabled else {
        return .failure(
          _ReloadRefusal(
            error: CXErrorCodeCallDirectoryManagerError(.extensionDisabled, reason: "extension '\(identifier)' is disabled")))
      }
      return .success(record)
    } catch .noSuchExtension {
      return .failure(
        _ReloadRefusal(
          error: CXErrorCodeCallDirectoryManagerError(.noExtensionFound, reason: "no extension '\(identifier)' is installed")))
    } catch {
      return .failure(
        _ReloadRefusal(error: CXErrorCodeCallDirectoryManagerError(.unknown, reason: error.description), deviceError: error))
    }
  }

  /// Prepares the staging area and runs the request in the right host.
  private func runRequest(record: _ExtensionRecord, startedAt start: Date) -> _HostOutcome {
    let identifier = record.identifier
    let staging: _StagingArea
    let session: _RequestSession
    do throws(_DeviceStorageError) {
      staging = try _StagingArea.create(inExtensionAt: extensionPath(identifier))
      try _io { () throws(FileError) in try FileSystem.createDirectory(containerPath(identifier)) }
      session = try _RequestSession(
        staging: staging, storePath: storePath(identifier), settings: record.settings,
        beforePublishing: { () throws(SimulatedDeviceError) in
          try self.updateRecord(identifier) { stored in
            stored.reloadCount += 1
            stored.lastReloadDate = start
            stored.injectedFailure = nil
            stored.lastError = nil
            stored.lastSuccessfulLoadDate = Date()
          }
        })
    } catch {
      return _HostOutcome(failure: .device("cannot prepare the request", error.deviceError))
    }
    defer { staging.remove() }
    let injected = record.injectedFailure.map { CXErrorCodeCallDirectoryManagerError.Code(rawValue: $0) ?? .unknown }
    let container = URL(fileURLWithPath: containerPath(identifier), isDirectory: true)

    switch record.launch {
    case .inProcess:
      guard let makeProvider = provider(for: identifier) else {
        return _HostOutcome(
          failure: .system(
            CXErrorCodeCallDirectoryManagerError(
              .noExtensionFound, reason: "no in-process provider is registered for '\(identifier)'")))
      }
      return _InProcessHost.run(
        session: session, makeProvider: makeProvider, containerURL: container, injected: injected)
    case .childProcess(let executablePath, let arguments):
      return _ChildProcessHost.run(
        session: session, executablePath: executablePath, arguments: arguments, identifier: identifier,
        containerURL: container, injected: injected)
    }
  }
}

/// Why a reload did not start.
struct _ReloadRefusal: Error {
  var error: CXErrorCodeCallDirectoryManagerError
  var deviceError: SimulatedDeviceError?
}

/// What a host reports about a finished request.
struct _HostOutcome {
  var error: (any Error)?
  var deviceError: SimulatedDeviceError?
  var committed: _EntryStore.Header?
  /// A committed request's store that is not durable.
  var durabilityError: SimulatedDeviceError?
  var wasIncremental = false
  var statistics = RequestStatistics()
  var trace: [CallDirectoryOperation] = []
  var baselineResidentBytes: Int?
  var peakResidentBytes: Int?

  /// A request that failed before it reached a provider.
  init(failure: _Failure) {
    error = failure.error
    deviceError = failure.deviceError
  }

  /// A request that ran; `committed` is the new store's header.
  init(session: _RequestSession, committed: _EntryStore.Header?) {
    self.committed = committed
    durabilityError = session.durabilityError
    if committed == nil {
      error = session.failure?.error ?? CXErrorCodeCallDirectoryManagerError(.unknown)
      deviceError = session.failure?.deviceError
    }
    wasIncremental = session.isConfirmedIncremental
    statistics = session.statistics
    trace = session.trace
  }
}
