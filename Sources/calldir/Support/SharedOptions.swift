import CommandLineKit

/// The options several commands share, each declared once here; a command
/// may give its own help where it says more (`(created when missing)`).
extension OptionDeclaration {
  /// `--store <dir>`: the store a command reads or writes.
  static let store = OptionDeclaration(name: "store", valueName: "dir", help: "The store directory.")
  /// `--device <dir>`: a simulated device's directory.
  static let device = OptionDeclaration(name: "device", valueName: "dir", help: "The simulated device's directory.")
  /// `--region <cc>`: the region of numbers written without a country
  /// code, checked by ``RegionArgument/resolve(_:plan:)``.
  static let region = OptionDeclaration(
    name: "region", valueName: "cc", help: "Region (ISO 3166 code) for numbers without a country code; ZZ for none.")
}

extension FlagDeclaration {
  /// `--no-wait`: exit 75 at once instead of waiting for the store's lock.
  static let noWait = FlagDeclaration(name: "no-wait", help: "Exit 75 at once when a build holds the store.")
  /// `--allow-downgrade`: accept an older version than the one held.
  static let allowDowngrade = FlagDeclaration(
    name: "allow-downgrade", help: "Accept a version older than the one the device holds.")
}
