import Foundation

/// How a request ended, as the extension side sees it.
enum _RequestEnd: Sendable {
  /// The system committed the entries.
  case committed
  /// The system dropped the request; the error goes to the delegate.
  case failed(CXErrorCodeCallDirectoryManagerError)
  /// The extension process lost the system after sending `complete`, so it
  /// cannot know whether the entries were committed; the completion
  /// handler is not called (as when iOS kills an extension), so that the
  /// provider records no outcome it does not know.
  case unknown
}

/// Where a ``CXCallDirectoryExtensionContext`` sends the calls it receives:
/// straight into the system's request session (in-process host) or over a
/// pipe to the system process (child-process host).
protocol _ContextSink: AnyObject, Sendable {
  /// Answers `isIncremental` and records that it was read.
  func readIncremental() -> Bool
  /// Records one add or remove call.
  func record(_ operation: CallDirectoryOperation)
  /// Ends the request successfully from the extension's side and waits for
  /// the system's verdict.
  func complete() -> _RequestEnd
  /// Ends the request with the extension's own error.
  func cancel(_ error: any Error)
}
