import Foundation

/// Runs a provider in the calling process: its context feeds the request
/// session directly.
enum _InProcessHost {
  static func run(
    session: _RequestSession,
    makeProvider: () -> CXCallDirectoryProvider,
    containerURL: URL,
    injected: CXErrorCodeCallDirectoryManagerError.Code?
  ) -> _HostOutcome {
    let sink = _InProcessSink(session: session, injected: injected)
    let context = CXCallDirectoryExtensionContext(sink: sink, containerURL: containerURL)
    let provider = makeProvider()
    provider.beginRequest(with: context)
    let timeout = session.settings.requestTimeout
    if !sink.waitForEnd(until: Date(timeIntervalSinceNow: timeout)) {
      sink.interrupt("the request did not end within \(timeout) seconds")
    }
    return sink.outcome()
  }
}

/// The in-process sink: a lock around the session.
final class _InProcessSink: _ContextSink, @unchecked Sendable {
  private let condition = NSCondition()
  private let session: _RequestSession
  private let injected: CXErrorCodeCallDirectoryManagerError.Code?
  private var hasEnded = false
  private var committed: _EntryStore.Header?

  init(session: _RequestSession, injected: CXErrorCodeCallDirectoryManagerError.Code?) {
    self.session = session
    self.injected = injected
  }

  func readIncremental() -> Bool {
    condition.lock()
    defer { condition.unlock() }
    return session.readIncremental()
  }

  func record(_ operation: CallDirectoryOperation) {
    condition.lock()
    defer { condition.unlock() }
    if !hasEnded { session.apply(operation) }
  }

  func complete() -> _RequestEnd {
    condition.lock()
    defer {
      condition.broadcast()
      condition.unlock()
    }
    guard !hasEnded else {
      return .failed(CXErrorCodeCallDirectoryManagerError(.loadingInterrupted, reason: "the request had already ended"))
    }
    hasEnded = true
    session.apply(.complete)
    switch session.commit(injecting: injected) {
    case .success(let header):
      committed = header
      return .committed
    case .failure(let error):
      return .failed(error)
    }
  }

  func cancel(_ error: any Error) {
    condition.lock()
    defer {
      condition.broadcast()
      condition.unlock()
    }
    guard !hasEnded else { return }
    hasEnded = true
    let identity = _identity(of: error)
    session.apply(.cancel(domain: identity.domain, code: identity.code))
    session.cancel(error)
  }

  /// Waits until the request ends; `false` at the deadline.
  func waitForEnd(until deadline: Date) -> Bool {
    condition.lock()
    defer { condition.unlock() }
    while !hasEnded {
      if !condition.wait(until: deadline) { return hasEnded }
    }
    return true
  }

  /// Ends a request that is still running with `loadingInterrupted`.
  func interrupt(_ reason: String) {
    condition.lock()
    defer { condition.unlock() }
    guard !hasEnded else { return }
    hasEnded = true
    session.fail(.loadingInterrupted, reason)
  }

  func outcome() -> _HostOutcome {
    condition.lock()
    defer { condition.unlock() }
    return _HostOutcome(session: session, committed: committed)
  }
}
