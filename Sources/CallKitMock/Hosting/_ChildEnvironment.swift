/// The environment variables through which the system hands a request to an
/// extension process.
enum _ChildEnvironment {
  /// The descriptor the child writes records to.
  static let dataDescriptor = "CALLKITMOCK_DATA_FD"
  /// The descriptor the child reads the system's reply from.
  static let controlDescriptor = "CALLKITMOCK_CONTROL_FD"
  /// `1` when the system holds a store for the extension.
  static let incremental = "CALLKITMOCK_INCREMENTAL"
  /// The extension's identifier.
  static let identifier = "CALLKITMOCK_EXTENSION_IDENTIFIER"
  /// The extension's app-group container.
  static let container = "CALLKITMOCK_CONTAINER"
  /// The descriptors' numbers in the child.
  static let dataDescriptorNumber: Int32 = 3
  static let controlDescriptorNumber: Int32 = 4
}
