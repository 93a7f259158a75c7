import Foundation

/// An error reported by the Call Directory system, mirroring CallKit's
/// `CXErrorCodeCallDirectoryManagerError`.
///
/// Compare errors by ``code``; two errors with the same code are equal even if
/// their ``reason`` differs. ``description`` prints `<case name> (<raw value>)`,
/// for example `entriesOutOfOrder (3)`; ``reason`` adds what the simulated
/// system saw (a lowercase sentence), which real CallKit does not provide.
///
///     do {
///       try manager.reloadExtensionSynchronously(withIdentifier: "ext")
///     } catch let error as CXErrorCodeCallDirectoryManagerError {
///       if error.code == .entriesOutOfOrder { … }
///     }
public struct CXErrorCodeCallDirectoryManagerError: Error, Hashable, Sendable {
  /// The error codes, with CallKit's raw values (`CXError.h`).
  public enum Code: Int, Sendable, CaseIterable, CustomStringConvertible {
    /// An unknown error occurred; the simulated system also uses it for its
    /// own failures (an unreadable store, a full disk).
    case unknown = 0
    /// There is no installed extension with that identifier.
    case noExtensionFound = 1
    /// The extension process died, was killed, exceeded its memory budget or
    /// its time limit before completing the request.
    case loadingInterrupted = 2
    /// An added number was lower than the previous one in the same list, or
    /// above ``CXCallDirectoryPhoneNumberMax``.
    case entriesOutOfOrder = 3
    /// An added number equalled the previous one in the same list (`0`
    /// counts, as Gogolook observed), or, under
    /// ``IncrementalReAddPolicy/reject``, was already in the store.
    case duplicateEntries = 4
    /// The store would hold more entries than the extension's maximum.
    case maximumEntriesExceeded = 5
    /// The extension is installed but disabled.
    case extensionDisabled = 6
    /// A request for the same extension is already running.
    case currentlyLoading = 7
    /// A remove was made in a request that had not confirmed incremental
    /// loading by reading `isIncremental == true` first.
    case unexpectedIncrementalRemoval = 8

    /// The case name, as in Swift (for example `entriesOutOfOrder`).
    public var name: String {
      switch self {
      case .unknown: "unknown"
      case .noExtensionFound: "noExtensionFound"
      case .loadingInterrupted: "loadingInterrupted"
      case .entriesOutOfOrder: "entriesOutOfOrder"
      case .duplicateEntries: "duplicateEntries"
      case .maximumEntriesExceeded: "maximumEntriesExceeded"
      case .extensionDisabled: "extensionDisabled"
      case .currentlyLoading: "currentlyLoading"
      case .unexpectedIncrementalRemoval: "unexpectedIncrementalRemoval"
      }
    }

    /// `<case name> (<raw value>)`, for example `entriesOutOfOrder (3)`.
    public var description: String { "\(name) (\(rawValue))" }
  }

  /// The error code.
  public let code: Code

  /// What the simulated system saw, as a lowercase sentence, or `nil`.
  public let reason: String?

  /// Creates an error with a code and an optional lowercase reason.
  public init(_ code: Code, reason: String? = nil) {
    self.code = code
    self.reason = reason
  }

  /// Creates an error from a raw code; unknown raw values (such as the
  /// undocumented `102` seen in the field) become ``Code/unknown``.
  public init(rawCode: Int, reason: String? = nil) {
    self.init(Code(rawValue: rawCode) ?? .unknown, reason: reason)
  }

  /// Errors are equal when their codes are.
  public static func == (lhs: Self, rhs: Self) -> Bool { lhs.code == rhs.code }

  /// Hashes the code only, consistent with ``==(_:_:)``.
  public func hash(into hasher: inout Hasher) { hasher.combine(code) }
}

extension CXErrorCodeCallDirectoryManagerError {
  /// ``Code/unknown``, for `catch CXErrorCodeCallDirectoryManagerError.unknown`.
  public static var unknown: Code { .unknown }
  /// ``Code/noExtensionFound``.
  public static var noExtensionFound: Code { .noExtensionFound }
  /// ``Code/loadingInterrupted``.
  public static var loadingInterrupted: Code { .loadingInterrupted }
  /// ``Code/entriesOutOfOrder``.
  public static var entriesOutOfOrder: Code { .entriesOutOfOrder }
  /// ``Code/duplicateEntries``.
  public static var duplicateEntries: Code { .duplicateEntries }
  /// ``Code/maximumEntriesExceeded``.
  public static var maximumEntriesExceeded: Code { .maximumEntriesExceeded }
  /// ``Code/extensionDisabled``.
  public static var extensionDisabled: Code { .extensionDisabled }
  /// ``Code/currentlyLoading``.
  public static var currentlyLoading: Code { .currentlyLoading }
  /// ``Code/unexpectedIncrementalRemoval``.
  public static var unexpectedIncrementalRemoval: Code { .unexpectedIncrementalRemoval }
}

/// Pattern-matches an error against a Call Directory code, as in
/// `catch CXErrorCodeCallDirectoryManagerError.entriesOutOfOrder`.
public func ~= (code: CXErrorCodeCallDirectoryManagerError.Code, error: any Error) -> Bool {
  (error as? CXErrorCodeCallDirectoryManagerError)?.code == code
}

extension CXErrorCodeCallDirectoryManagerError: CustomStringConvertible {
  /// `<case name> (<raw value>)`, followed by `: <reason>` when there is one.
  public var description: String {
    guard let reason else { return code.description }
    return "\(code.description): \(reason)"
  }
}

extension CXErrorCodeCallDirectoryManagerError: CustomNSError {
  /// The error domain, `com.apple.CallKit.error.calldirectorymanager`.
  public static var errorDomain: String { "com.apple.CallKit.error.calldirectorymanager" }

  /// The raw value of ``code``.
  public var errorCode: Int { code.rawValue }

  /// The ``description`` under `NSLocalizedDescriptionKey`.
  public var errorUserInfo: [String: Any] { [NSLocalizedDescriptionKey: description] }
}
