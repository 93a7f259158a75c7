/// The principal class of a Call Directory extension, mirroring CallKit's
/// `CXCallDirectoryProvider`.
///
/// Subclass it and override ``beginRequest(with:)``; the simulated system
/// creates one provider per request, in process or in a child process (see
/// ``ExtensionLaunch``).
open class CXCallDirectoryProvider {
  /// Creates a provider.
  public init() {}

  /// Called once when the system loads the extension.
  ///
  /// Add or remove entries on `context`, then call
  /// `completeRequest(completionHandler:)` or `cancelRequest(withError:)`,
  /// from this method or later from any thread. The base implementation does
  /// nothing, so a request that is never ended runs into the extension's time
  /// limit and fails with
  /// ``CXErrorCodeCallDirectoryManagerError/Code/loadingInterrupted``.
  ///
  /// - Parameter context: The request's context.
  open func beginRequest(with context: CXCallDirectoryExtensionContext) {}
}
