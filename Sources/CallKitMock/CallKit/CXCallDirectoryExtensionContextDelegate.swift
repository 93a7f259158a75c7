/// Receives failures of a Call Directory request, mirroring CallKit's
/// `CXCallDirectoryExtensionContextDelegate`.
public protocol CXCallDirectoryExtensionContextDelegate: AnyObject {
  /// Tells the delegate that the system dropped the request.
  ///
  /// The simulated system calls it from `completeRequest(completionHandler:)`
  /// when validation or the commit failed, before the completion handler, on
  /// the thread that completed the request. It is not called for
  /// `cancelRequest(withError:)`, which the extension itself asked for.
  ///
  /// - Parameters:
  ///   - extensionContext: The context whose request failed.
  ///   - error: A ``CXErrorCodeCallDirectoryManagerError``.
  func requestFailed(for extensionContext: CXCallDirectoryExtensionContext, withError error: any Error)
}
