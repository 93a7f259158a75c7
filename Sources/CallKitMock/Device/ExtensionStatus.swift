import Foundation

/// What the simulated system knows about one installed extension.
public struct ExtensionStatus: Hashable, Sendable {
  /// The extension's identifier.
  public var identifier: String
  /// Whether the extension is enabled.
  public var isEnabled: Bool
  /// How the provider is run.
  public var launch: ExtensionLaunch
  /// The extension's limits and policies.
  public var settings: ExtensionSettings
  /// Whether a request has committed entries (the next request may then be
  /// incremental).
  public var hasStore: Bool
  /// Blocking entries in the store.
  public var blockingEntryCount: Int
  /// Identification entries in the store.
  public var identificationEntryCount: Int
  /// Reload requests made, successful or not.
  public var reloadCount: Int
  /// When the last reload was requested.
  public var lastReloadDate: Date?
  /// When a request last committed.
  public var lastSuccessfulLoadDate: Date?
  /// The last reload's error, or `nil` when it succeeded.
  public var lastError: LastError?

  /// A reload error as remembered by the device.
  public struct LastError: Hashable, Sendable, CustomStringConvertible {
    /// The error's domain (CallKit's for system failures, the extension's for
    /// `cancelRequest(withError:)`).
    public var domain: String
    /// The error's code.
    public var code: Int
    /// The error's description.
    public var message: String

    /// Creates a remembered error.
    public init(domain: String, code: Int, message: String) {
      self.domain = domain
      self.code = code
      self.message = message
    }

    /// The message.
    public var description: String { message }
  }
}
