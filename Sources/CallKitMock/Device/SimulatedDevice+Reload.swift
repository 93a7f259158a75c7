import Foundation

extension SimulatedDevice {
  /// Runs one Call Directory request for an extension, as
  /// `CXCallDirectoryManager.reloadExtension` does on iOS, and reports it.
  ///
  /// The request is atomic: the provider's calls are validated and staged on
  /// disk as they arrive, and only a request that ends with
  /// `completeRequest` and passes every check replaces the store (by a
  /// streaming merge into a new file, `fsync` and `rename`). Any failure
  /// leaves the store byte-identical. Blocks the calling thread until the
  /// request ends.
  ///
  /// Errors (``ReloadReport/error``): ``CXErrorCodeCallDirectoryManagerError``
  /// with `noExtensionFound` (unknown identifier, or an in-process extension
  /// without a registered provider), `extensionDisabled`, `currentlyLoading`,
  /// `entriesOutOfOrder`, `duplicateEntries`, `maximumEntriesExceeded`,
  /// `unexpectedIncrementalRemoval`, `loadingInterrupted` (the extension
  /// process died, exceeded its memory budget or its time limit), `unknown`
  /// (the device's own storage failed); or the error the extension passed to
  /// `cancelRequest(withError:)`.
  ///
  /// - Parameter identifier: The extension's identifier.
  /// - Returns: The report; ``ReloadReport/error`` is `nil` on success.
  public func reloadExtension(withIdentifier identifier: String) -> ReloadReport {
    let start = Date()
    var report = ReloadReport(
      identifier: identifier, error: nil, wasIncremental: false, statistics: RequestStatistics(), trace: [],
      blockingEntryCount: 0, identificationEntryCount: 0, childBaselineResidentBytes: nil,
      childPeakResidentBytes: nil, duration: 0)
    func finish(_ error: (any Error)?) -> ReloadReport {
      report.error = error
      if let header = try? _EntryStore.readHeader(storePath(identifier)) {
        report.blockingEntryCount = Int(header.blockingCount)
        report.identificationEntryCount = Int(header.identificationCount)
      }
      report.duration = Date().timeIntervalSince(start)
      return report
    }
    func managerError(_ code: CXErrorCodeCallDirectoryManagerError.Code, _ reason: String) -> any Error {
      CXErrorCodeCallDirectoryManagerError(code, reason: reason)
    }

    guard let record = try? record(identifier) else {
      return finish(managerError(.noExtensionFound, "no extension '\(identifier)' is installed"))
    }
    guard record.isEnabled else {
      return finish(managerError(.extensionDisabled, "extension '\(identifier)' is disabled"))
    }
    let lock: _FileLock?
    do {
      lock = try _FileLock.tryAcquire(loadLockPath(identifier))
    } catch {
      return finish(managerError(.unknown, error.description))
    }
    guard let lock else {
      return finish(managerError(.currentlyLoading, "extension '\(identifier)' is already loading"))
    }
    defer { withExtendedLifetime(lock) {} }

    let outcome = runRequest(record: record)
    report.wasIncremental = outcome.wasIncremental
    report.statistics = outcome.statistics
    report.trace = outcome.trace
    report.childBaselineResidentBytes = outcome.baselineResidentBytes
    report.childPeakResidentBytes = outcome.peakResidentBytes

    try? updateRecord(identifier) { stored in
      stored.reloadCount += 1
      stored.lastReloadDate = start
      if record.injectedFailure != nil { stored.injectedFailure = nil }
      if let error = outcome.error {
        stored.lastError = _identity(of: error)
      } else {
        stored.lastError = nil
        stored.lastSuccessfulLoadDate = Date()
      }
    }
    return finish(outcome.error)
  }

  /// Prepares the staging area and runs the request in the right host.
  private func runRequest(record: _ExtensionRecord) -> _HostOutcome {
    let identifier = record.identifier
    let staging = stagingPath(identifier)
    let session: _RequestSession
    do {
      try _FileSystem.remove(staging)
      try _FileSystem.createDirectory(staging)
      try _FileSystem.createDirectory(containerPath(identifier))
      session = try _RequestSession(
        stagingDirectory: staging, storePath: storePath(identifier), settings: record.settings)
    } catch {
      return _HostOutcome(error: CXErrorCodeCallDirectoryManagerError(.unknown, reason: error.description))
    }
    defer { try? _FileSystem.remove(staging) }
    let injected = record.injectedFailure.map { CXErrorCodeCallDirectoryManagerError.Code(rawValue: $0) ?? .unknown }
    let container = URL(fileURLWithPath: containerPath(identifier), isDirectory: true)

    switch record.launch {
    case .inProcess:
      guard let makeProvider = provider(for: identifier) else {
        return _HostOutcome(
          error: CXErrorCodeCallDirectoryManagerError(
            .noExtensionFound, reason: "no in-process provider is registered for '\(identifier)'"))
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

/// What a host reports about a finished request.
struct _HostOutcome {
  var error: (any Error)?
  var wasIncremental = false
  var statistics = RequestStatistics()
  var trace: [CallDirectoryOperation] = []
  var baselineResidentBytes: Int?
  var peakResidentBytes: Int?

  init(error: (any Error)?) {
    self.error = error
  }

  init(session: _RequestSession, committed: Bool) {
    error = committed ? nil : (session.failure?.error ?? CXErrorCodeCallDirectoryManagerError(.unknown))
    wasIncremental = session.isConfirmedIncremental
    statistics = session.statistics
    trace = session.trace
  }
}
