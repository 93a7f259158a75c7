/// A positional argument, declared as a property of a ``ParsableArguments``
/// type; positional arguments are matched in the order they are declared.
///
///     @Argument(help: "A calldir blob.")
///     var file: String                        // required
///     @Argument(valueName: "id", help: "The extension.")
///     var extensionID: String = "default"     // may be left out
///     @Argument(help: "Numbers to look up.")
///     var numbers: [String]                   // zero or more
@propertyWrapper
public struct Argument<Value> {
  private let slot: _Slot<Value>
  private let name: String?
  private let makeSpec: @Sendable (String) -> ArgumentSpec
  private let read: _Conversion.Reader<Value>

  /// The parsed value (or the default).
  public var wrappedValue: Value { slot.read("argument") }

  private init(
    initial: Value?, name: String?, valueName: String?, arity: ArgumentSpec.Arity, defaultValue: String? = nil,
    completion: ArgumentSpec.Completion?, help: String, read: @escaping _Conversion.Reader<Value>
  ) {
    slot = _Slot(initial)
    self.name = name
    makeSpec = { name in
      .positional(
        name, valueName: valueName, arity: arity, defaultValue: defaultValue, completion: completion, help: help)
    }
    self.read = read
  }
}

extension Argument: Sendable where Value: Sendable {}

extension Argument: _ArgumentContainer {
  func _declare(label: String, in declarations: inout _Declarations) {
    declarations.add(makeSpec(name ?? _Declarations.name(fromLabel: label)), storingIn: slot, read: read)
  }
}

extension Argument where Value: ExpressibleByArgument {
  /// An argument that must be given.
  ///
  /// - Parameters:
  ///   - name: The argument's name (for declaration checks); by default the property's.
  ///   - valueName: The help placeholder (`file` → `<file>`); by default the name.
  ///   - completion: What shells complete; by default what `valueName` implies.
  ///   - help: A one-line description.
  public init(
    name: String? = nil, valueName: String? = nil, completion: ArgumentSpec.Completion? = nil, help: String
  ) {
    self.init(
      initial: nil, name: name, valueName: valueName, arity: .required, completion: completion, help: help,
      read: _Conversion.last(_Conversion.converter(Value.self), isRequired: true))
  }

  /// An argument that may be left out, with a default shown in help.
  ///
  /// - Parameters: as for the required argument.
  public init(
    wrappedValue: Value, name: String? = nil, valueName: String? = nil, completion: ArgumentSpec.Completion? = nil,
    help: String
  ) {
    self.init(
      initial: wrappedValue, name: name, valueName: valueName, arity: .optional,
      defaultValue: wrappedValue.argumentDescription, completion: completion, help: help,
      read: _Conversion.last(_Conversion.converter(Value.self), isRequired: false))
  }
}

extension Argument {
  /// An argument that may be left out (the property is then `nil`).
  ///
  /// - Parameters: as for the required argument.
  public init<Wrapped: ExpressibleByArgument>(
    name: String? = nil, valueName: String? = nil, completion: ArgumentSpec.Completion? = nil, help: String
  ) where Value == Wrapped? {
    self.init(
      initial: .some(nil), name: name, valueName: valueName, arity: .optional, completion: completion, help: help,
      read: _Conversion.optional(_Conversion.converter(Wrapped.self)))
  }

  /// The rest of the positional words; it must be the last argument.
  ///
  /// - Parameters:
  ///   - atLeastOne: Whether leaving it out is a usage error.
  ///   - others: as for the required argument.
  public init<Element: ExpressibleByArgument>(
    name: String? = nil, valueName: String? = nil, atLeastOne: Bool = false,
    completion: ArgumentSpec.Completion? = nil, help: String
  ) where Value == [Element] {
    self.init(
      initial: [], name: name, valueName: valueName, arity: atLeastOne ? .oneOrMore : .zeroOrMore,
      completion: completion, help: help,
      read: _Conversion.all(_Conversion.converter(Element.self), isRequired: atLeastOne))
  }
}
