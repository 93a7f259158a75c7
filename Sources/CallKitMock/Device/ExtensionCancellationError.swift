import Foundation

/// The error a child extension process passed to
/// `cancelRequest(withError:)`, rebuilt in the system process from its domain,
/// code and description (an in-process extension's error arrives unchanged).
public struct ExtensionCancellationError: Error, Hashable, Sendable, CustomStringConvertible, CustomNSError {
  /// The original error's domain (for example `CallDirectoryHandler`).
  public var domain: String
  /// The original error's code.
  public var code: Int
  /// The original error's description.
  public var message: String

  /// Creates the error.
  public init(domain: String, code: Int, message: String) {
    self.domain = domain
    self.code = code
    self.message = message
  }

  /// `extension cancelled the request: <message> (<domain> <code>)`.
  public var description: String {
    "extension cancelled the request: \(message) (\(domain) \(code))"
  }

  /// The bridged domain, fixed for the type (Swift's `CustomNSError` has a
  /// static domain); the original domain is ``domain``.
  public static var errorDomain: String { "CallKitMock.ExtensionCancellationError" }

  /// The original code.
  public var errorCode: Int { code }

  /// The original domain and message.
  public var errorUserInfo: [String: Any] {
    [NSLocalizedDescriptionKey: message, "domain": domain]
  }
}
