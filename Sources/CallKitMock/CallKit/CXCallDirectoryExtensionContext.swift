import Foundation

/// The context of one Call Directory request, mirroring CallKit's
/// `CXCallDirectoryExtensionContext`.
///
/// The simulated system creates it and hands it to
/// ``CXCallDirectoryProvider/beginRequest(with:)``. Calls are recorded, not
/// checked: as on iOS, a wrong order, a duplicate or an unconfirmed remove is
/// reported when the request ends, through ``delegate`` and the manager's
/// `reloadExtension` completion, and the whole request is dropped.
///
/// The context may be used from any thread; calls are serialized. Calls made
/// after the request ended are ignored.
open class CXCallDirectoryExtensionContext: @unchecked Sendable {
  /// Receives ``CXCallDirectoryExtensionContextDelegate/requestFailed(for:withError:)``.
  public weak var delegate: (any CXCallDirectoryExtensionContextDelegate)?

  /// The extension's app-group container in the simulated device, where a
  /// provider keeps its own state (for example the dataset version it loaded).
  ///
  /// Mock only: a real extension gets it from
  /// `FileManager.containerURL(forSecurityApplicationGroupIdentifier:)`.
  public let simulatedAppGroupContainerURL: URL

  private let sink: any _ContextSink
  private let lock = NSLock()
  private var hasEnded = false

  init(sink: any _ContextSink, containerURL: URL) {
    self.sink = sink
    self.simulatedAppGroupContainerURL = containerURL
  }

  /// Whether the request may be incremental: `true` when the extension has
  /// loaded successfully before (the system holds a store for it).
  ///
  /// Reading it is recorded. Read before any add or remove, a `true` value
  /// confirms incremental loading: the request then applies on top of the
  /// stored entries and may remove entries. Otherwise the request is complete:
  /// it replaces the stored entries and must not remove any.
  public var isIncremental: Bool {
    sink.readIncremental()
  }

  /// Adds a number to block; numbers must rise strictly within the request.
  public func addBlockingEntry(withNextSequentialPhoneNumber phoneNumber: CXCallDirectoryPhoneNumber) {
    forward(.addBlocking(phoneNumber))
  }

  /// Adds a number to identify with a label; numbers must rise strictly
  /// within the request (checked separately from blocking entries).
  public func addIdentificationEntry(
    withNextSequentialPhoneNumber phoneNumber: CXCallDirectoryPhoneNumber,
    label: String
  ) {
    forward(.addIdentification(phoneNumber, label: label))
  }

  /// Removes a blocked number; only after confirming incremental loading.
  public func removeBlockingEntry(withPhoneNumber phoneNumber: CXCallDirectoryPhoneNumber) {
    forward(.removeBlocking(phoneNumber))
  }

  /// Removes every identification entry of a number; only after confirming
  /// incremental loading.
  public func removeIdentificationEntry(withPhoneNumber phoneNumber: CXCallDirectoryPhoneNumber) {
    forward(.removeIdentification(phoneNumber))
  }

  /// Removes all blocking entries; only after confirming incremental loading.
  public func removeAllBlockingEntries() {
    forward(.removeAllBlocking)
  }

  /// Removes all identification entries; only after confirming incremental
  /// loading.
  public func removeAllIdentificationEntries() {
    forward(.removeAllIdentification)
  }

  /// Ends the request; the system validates and commits its entries.
  ///
  /// Blocks until the system has committed or dropped the request. On a drop
  /// the delegate's `requestFailed` is called first. Then the completion
  /// handler runs on the calling thread with CallKit's `expired` flag:
  /// `false` when the entries were committed, `true` when they were not
  /// added (the request failed, timed out or had already ended). An
  /// extension process that loses the system after asking to complete
  /// cannot know which it was; as when iOS kills an extension, the
  /// completion handler is then not called.
  ///
  /// - Parameter completion: Called once with `expired`.
  public func completeRequest(completionHandler completion: ((Bool) -> Void)? = nil) {
    guard markEnded() else {
      completion?(true)
      return
    }
    switch sink.complete() {
    case .committed:
      completion?(false)
    case .failed(let error):
      delegate?.requestFailed(for: self, withError: error)
      completion?(true)
    case .unknown:
      break
    }
  }

  /// Ends the request and returns CallKit's `expired` flag: `false` when the
  /// entries were committed.
  public func completeRequest() async -> Bool {
    await withCheckedContinuation { continuation in
      completeRequest { expired in continuation.resume(returning: expired) }
    }
  }

  /// Cancels the request with the extension's own error; nothing is
  /// committed and the manager's `reloadExtension` reports `error`.
  ///
  /// - Parameter error: The error the request fails with.
  public func cancelRequest(withError error: any Error) {
    guard markEnded() else { return }
    sink.cancel(error)
  }

  private func forward(_ operation: CallDirectoryOperation) {
    lock.lock()
    defer { lock.unlock() }
    guard !hasEnded else { return }
    sink.record(operation)
  }

  private func markEnded() -> Bool {
    lock.lock()
    defer { lock.unlock() }
    if hasEnded { return false }
    hasEnded = true
    return true
  }
}
