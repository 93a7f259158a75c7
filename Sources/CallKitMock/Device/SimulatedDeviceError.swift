/// An error of the simulated device's management API (install, settings,
/// dump). Reload failures are ``CXErrorCodeCallDirectoryManagerError``s.
public enum SimulatedDeviceError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The identifier is empty, too long or has characters other than ASCII
  /// letters, digits, `.`, `-` and `_`.
  case invalidIdentifier(String)
  /// An extension with this identifier is already installed.
  case alreadyInstalled(String)
  /// No extension with this identifier is installed.
  case noSuchExtension(String)
  /// A request for this extension is running or its requests are reserved
  /// (``SimulatedDevice/reserveExtension(withIdentifier:)``), so it cannot
  /// be uninstalled or reserved.
  case extensionBusy(String)
  /// A setting is out of range.
  case invalidSettings(String)
  /// A file of the device could not be read or written, or is corrupt.
  case storage(String)
  /// The directory (this path) holds no device: it or its `device.json`
  /// is missing (``SimulatedDevice/init(existingDirectoryURL:)``).
  case noDevice(String)

  /// A lowercase message.
  public var description: String {
    switch self {
    case .invalidIdentifier(let identifier):
      "invalid extension identifier '\(identifier)'"
    case .alreadyInstalled(let identifier):
      "extension '\(identifier)' is already installed"
    case .noSuchExtension(let identifier):
      "no extension '\(identifier)' is installed"
    case .extensionBusy(let identifier):
      "extension '\(identifier)' is loading"
    case .invalidSettings(let message):
      "invalid settings: \(message)"
    case .storage(let message):
      "device storage error: \(message)"
    case .noDevice(let path):
      "no device at '\(path)' (it has no device.json)"
    }
  }
}
