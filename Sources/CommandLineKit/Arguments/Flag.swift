/// A boolean flag, `--name`, declared as a property of a
/// ``ParsableArguments`` type: `true` when given.
///
///     @Flag(help: "Compute everything and publish nothing.")
///     var dryRun: Bool                        // --dry-run
///     @Flag(.json, help: "Print the result as one JSON object.")
///     var json: Bool                          // a shared flag
@propertyWrapper
public struct Flag: Sendable {
  private let slot = _Slot<Bool>(false)
  private let name: String?
  private let short: Character?
  private let help: String

  /// Whether the flag was given.
  public var wrappedValue: Bool { slot.read("flag") }

  /// A flag.
  ///
  /// - Parameters:
  ///   - name: The long name; by default the property's name in kebab case.
  ///   - short: A one-letter alias, written `-c`.
  ///   - help: A one-line description.
  public init(name: String? = nil, short: Character? = nil, help: String) {
    self.name = name
    self.short = short
    self.help = help
  }

  /// A shared flag, with this command's help if it says more than the shared one.
  public init(_ shared: FlagDeclaration, help: String? = nil) {
    self.init(name: shared.name, short: shared.short, help: help ?? shared.help)
  }
}

extension Flag: _ArgumentContainer {
  func _declare(label: String, in declarations: inout _Declarations) {
    let spec = ArgumentSpec.flag(name ?? _Declarations.name(fromLabel: label), short: short, help: help)
    let slot = self.slot
    declarations.add(_BoundArgument(spec: spec) { parsed in slot.value = parsed.flag(spec.name) })
  }
}
