/// A group of arguments several commands share, declared in place: its
/// arguments appear where the group's property is, and its
/// ``ParsableArguments/validate()`` runs before the command's.
///
///     struct ExtensionLimits: ParsableArguments {
///       @Option(valueName: "seconds", help: "How long one request may run.", range: 1...)
///       var timeout: Int = 120
///       init() {}
///     }
///
///     @OptionGroup var limits: ExtensionLimits
@propertyWrapper
public struct OptionGroup<Group: ParsableArguments> {
  /// The group, with its parsed values.
  public var wrappedValue: Group

  /// The group's declarations.
  public init() {
    wrappedValue = Group()
  }
}

extension OptionGroup: Sendable where Group: Sendable {}

extension OptionGroup: _ArgumentContainer {
  func _declare(label: String, in declarations: inout _Declarations) {
    declarations.addGroup(wrappedValue)
  }
}
