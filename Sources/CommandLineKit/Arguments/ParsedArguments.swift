/// The values given on the command line for one command, with typed accessors.
///
/// Accessor names must match a name declared in the command's
/// ``CommandConfiguration/arguments``; asking for an undeclared name is a
/// programming error and traps. Values that fail to convert throw
/// ``UsageError/invalidValue(_:argument:expected:)``.
public struct ParsedArguments: Sendable {
  /// The names of the commands from the root to this one, e.g. `["calldir", "device", "load"]`.
  public let commandPath: [String]
  private let specs: [String: ArgumentSpec]
  private let values: [String: [String]]
  private let flags: Set<String>

  init(commandPath: [String], specs: [ArgumentSpec], values: [String: [String]], flags: Set<String>) {
    self.commandPath = commandPath
    var byName: [String: ArgumentSpec] = [:]
    for spec in specs { byName[spec.name] = spec }
    self.specs = byName
    self.values = values
    self.flags = flags
  }

  /// The value of an option or positional argument, or its default, or `nil`.
  ///
  /// For a repeatable option or variadic argument this is the last value.
  public func string(_ name: String) -> String? {
    let spec = lookup(name)
    return values[name]?.last ?? spec.defaultValue
  }

  /// All values of a repeatable option or variadic argument, in command-line order.
  ///
  /// Returns `[default]` when none were given and a default is declared.
  public func strings(_ name: String) -> [String] {
    let spec = lookup(name)
    if let given = values[name], !given.isEmpty { return given }
    return spec.defaultValue.map { [$0] } ?? []
  }

  /// Whether a flag was given.
  public func flag(_ name: String) -> Bool {
    let spec = lookup(name)
    precondition(spec.kind == .flag, "'\(name)' is not declared as a flag")
    return flags.contains(name)
  }

  /// Whether an option or positional argument was given explicitly (defaults do not count).
  public func isPresent(_ name: String) -> Bool {
    let spec = lookup(name)
    if spec.kind == .flag { return flags.contains(name) }
    return !(values[name] ?? []).isEmpty
  }

  /// The value of an argument as an integer, or `nil` when absent without a default.
  ///
  /// - Throws: ``UsageError/invalidValue(_:argument:expected:)`` when the value is not an integer.
  public func int(_ name: String) throws(UsageError) -> Int? {
    guard let raw = string(name) else { return nil }
    guard let value = Int(raw) else {
      throw .invalidValue(raw, argument: lookup(name)._displayName, expected: "an integer")
    }
    return value
  }

  /// The value of an argument as a byte count such as `512M`, `2G` or `100k`.
  ///
  /// Units are binary (`k` = 1024); see ``ByteSize/parse(_:)``.
  ///
  /// - Throws: ``UsageError/invalidValue(_:argument:expected:)`` when the value is not a size.
  public func size(_ name: String) throws(UsageError) -> Int? {
    guard let raw = string(name) else { return nil }
    guard let value = ByteSize.parse(raw) else {
      throw .invalidValue(raw, argument: lookup(name)._displayName, expected: "a size such as 512M, 2G or 100k")
    }
    return value
  }

  /// The value of an argument that must be present.
  ///
  /// Use this for options declared without a default whose absence is an
  /// error only in some situations; declare always-required options with
  /// `isRequired: true` instead.
  ///
  /// - Throws: ``UsageError/missingArgument(_:)`` when there is no value and no default.
  public func requiredString(_ name: String) throws(UsageError) -> String {
    guard let value = string(name) else { throw .missingArgument(lookup(name)._displayName) }
    return value
  }

  private func lookup(_ name: String) -> ArgumentSpec {
    guard let spec = specs[name] else {
      preconditionFailure("argument '\(name)' is not declared by '\(commandPath.joined(separator: " "))'")
    }
    return spec
  }
}
