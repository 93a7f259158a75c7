/// The entry calls of a Call Directory request, with CallKit's exact method
/// names, so that real CallKit's `CXCallDirectoryExtensionContext` and
/// CallKitMock's mirror of it both satisfy the protocol without adapters.
///
/// Numbers are `CXCallDirectoryPhoneNumber` values (`Int64`). The provider
/// streams into any value of this type; tests may use a recording sink.
///
/// On iOS (iOS 11 or later, for `isIncremental` and the removes), the
/// conformance is one line in the extension target:
///
///     import CallKit
///     import CallDirectoryProvider
///
///     extension CXCallDirectoryExtensionContext: CallDirectoryRequestContext {}
public protocol CallDirectoryEntrySink: AnyObject {
  /// Whether the system holds entries from an earlier request, so this
  /// request may be incremental.
  ///
  /// Read it **before** any add or remove: a `true` read then confirms
  /// incremental loading (removes become legal and the request applies on
  /// top of the stored entries). The loader reads it exactly once, first.
  var isIncremental: Bool { get }

  /// Adds a number to block; numbers must rise strictly within the request.
  func addBlockingEntry(withNextSequentialPhoneNumber phoneNumber: Int64)

  /// Adds a number to identify with `label`; numbers must rise strictly
  /// within the request (independently of blocking entries).
  func addIdentificationEntry(withNextSequentialPhoneNumber phoneNumber: Int64, label: String)

  /// Removes a blocked number (incremental requests only).
  func removeBlockingEntry(withPhoneNumber phoneNumber: Int64)

  /// Removes every identification entry of a number (incremental requests only).
  func removeIdentificationEntry(withPhoneNumber phoneNumber: Int64)

  /// Removes every blocking entry (incremental requests only).
  func removeAllBlockingEntries()

  /// Removes every identification entry (incremental requests only).
  func removeAllIdentificationEntries()
}

/// A whole Call Directory request: the entry calls plus CallKit's two ways
/// of ending it.
///
/// `completeRequest(completionHandler:)` is CallKit's own method;
/// `cancelRequest(withError:)` is inherited from `NSExtensionContext`.
/// Both CallKit's context and CallKitMock's satisfy this protocol as is.
public protocol CallDirectoryRequestContext: CallDirectoryEntrySink {
  /// Ends the request; the system validates and commits the entries.
  ///
  /// - Parameter completionHandler: Called once with CallKit's `expired`
  ///   flag: `false` when the entries were committed, `true` when they were
  ///   not added.
  func completeRequest(completionHandler: ((Bool) -> Void)?)

  /// Cancels the request; the system commits nothing and reports `error`
  /// to the app's `reloadExtension` completion.
  func cancelRequest(withError error: any Error)
}
