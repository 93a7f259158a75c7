/// An option that takes a value, `--name value` or `--name=value`,
/// declared as a property of a ``ParsableArguments`` type.
///
/// The property's type says how the option behaves:
///
///     @Option(valueName: "file", help: "The build config.")
///     var config: String                      // required
///     @Option(valueName: "n", help: "Report at most this many.")
///     var maxErrors: Int = 20                 // default, shown in help
///     @Option(valueName: "file", help: "A signing key.")
///     var signingKey: String?                 // may be left out
///     @Option(valueName: "file", help: "A list to leave out.")
///     var exclude: [String]                   // may be given several times
///
/// Values convert with ``ExpressibleByArgument`` (integers, sizes,
/// enumerations, whose values help lists), or with a `transform` that
/// throws ``UsageError`` for a word it refuses. An integer option may
/// declare a `range`.
@propertyWrapper
public struct Option<Value> {
  private let slot: _Slot<Value>
  private let name: String?
  private let makeSpec: @Sendable (String) -> ArgumentSpec
  private let read: _Conversion.Reader<Value>

  /// The parsed value (or the default).
  public var wrappedValue: Value { slot.read("option") }

  init(
    initial: Value?, text: _OptionText, defaultValue: String? = nil, isRequired: Bool, isRepeatable: Bool = false,
    allowedValues: [String] = [], read: @escaping _Conversion.Reader<Value>
  ) {
    slot = _Slot(initial)
    name = text.name
    makeSpec = { name in
      var spec = ArgumentSpec.option(
        name, short: text.short, valueName: text.valueName, defaultValue: defaultValue, isRequired: isRequired,
        isRepeatable: isRepeatable, completion: text.completion ?? (allowedValues.isEmpty ? nil : .values(allowedValues)),
        help: text.help)
      spec.allowedValues = allowedValues
      return spec
    }
    self.read = read
  }
}

extension Option: Sendable where Value: Sendable {}

extension Option: _ArgumentContainer {
  func _declare(label: String, in declarations: inout _Declarations) {
    declarations.add(makeSpec(name ?? _Declarations.name(fromLabel: label)), storingIn: slot, read: read)
  }
}

/// The words of an option's declaration that every form shares.
struct _OptionText: Sendable {
  var name: String?
  var short: Character?
  var valueName: String?
  var completion: ArgumentSpec.Completion?
  var help: String
}

extension Option where Value: ExpressibleByArgument {
  /// An option with a default, used when it is left out and shown in help.
  ///
  /// - Parameters:
  ///   - wrappedValue: The default.
  ///   - name: The long name; by default the property's name in kebab case.
  ///   - short: A one-letter alias, written `-c`.
  ///   - valueName: The help placeholder (`n` → `<n>`); by default the name.
  ///   - completion: What shells complete; by default the listed values,
  ///     else what `valueName` implies (``ArgumentSpec/Completion/init(valueName:)``).
  ///   - help: A one-line description.
  public init(
    wrappedValue: Value, name: String? = nil, short: Character? = nil, valueName: String? = nil,
    completion: ArgumentSpec.Completion? = nil, help: String
  ) {
    self.init(
      initial: wrappedValue,
      text: _OptionText(name: name, short: short, valueName: valueName, completion: completion, help: help),
      defaultValue: wrappedValue.argumentDescription, isRequired: false, allowedValues: Value.allValueStrings,
      read: _Conversion.last(_Conversion.converter(Value.self), isRequired: false))
  }

  /// An option that must be given.
  ///
  /// - Parameters: as for the option with a default.
  public init(
    name: String? = nil, short: Character? = nil, valueName: String? = nil,
    completion: ArgumentSpec.Completion? = nil, help: String
  ) {
    self.init(
      initial: nil,
      text: _OptionText(name: name, short: short, valueName: valueName, completion: completion, help: help),
      isRequired: true, allowedValues: Value.allValueStrings,
      read: _Conversion.last(_Conversion.converter(Value.self), isRequired: true))
  }

  /// A shared option with a default, with this command's help if it says
  /// more than the shared one.
  public init(wrappedValue: Value, _ shared: OptionDeclaration, help: String? = nil) {
    self.init(
      initial: wrappedValue, text: shared.text(help: help), defaultValue: wrappedValue.argumentDescription,
      isRequired: false, allowedValues: Value.allValueStrings,
      read: _Conversion.last(_Conversion.converter(Value.self), isRequired: false))
  }

  /// A shared option that must be given, with this command's help if it
  /// says more than the shared one.
  public init(_ shared: OptionDeclaration, help: String? = nil) {
    self.init(
      initial: nil, text: shared.text(help: help), isRequired: true, allowedValues: Value.allValueStrings,
      read: _Conversion.last(_Conversion.converter(Value.self), isRequired: true))
  }
}

extension Option where Value: ExpressibleByArgument & Comparable {
  /// An option with a default whose value must lie in `range`.
  ///
  /// - Parameters:
  ///   - range: The values accepted.
  ///   - outOfRange: The message of a value outside `range`; by default
  ///     `invalid value '0' for '--name <n>': expected an integer between 1 and 10`.
  ///   - others: as for the option with a default.
  public init(
    wrappedValue: Value, name: String? = nil, short: Character? = nil, valueName: String? = nil,
    completion: ArgumentSpec.Completion? = nil, help: String, range: ClosedRange<Value>,
    outOfRange: (@Sendable (Value) -> String)? = nil
  ) {
    self.init(
      wrappedValue: wrappedValue,
      text: _OptionText(name: name, short: short, valueName: valueName, completion: completion, help: help),
      range: _ValueRange(range, message: outOfRange))
  }

  /// An option with a default whose value must be at least `range.lowerBound`.
  ///
  /// - Parameters: as for the closed range.
  public init(
    wrappedValue: Value, name: String? = nil, short: Character? = nil, valueName: String? = nil,
    completion: ArgumentSpec.Completion? = nil, help: String, range: PartialRangeFrom<Value>,
    outOfRange: (@Sendable (Value) -> String)? = nil
  ) {
    self.init(
      wrappedValue: wrappedValue,
      text: _OptionText(name: name, short: short, valueName: valueName, completion: completion, help: help),
      range: _ValueRange(range, message: outOfRange))
  }

  private init(wrappedValue: Value, text: _OptionText, range: _ValueRange<Value>) {
    self.init(
      initial: wrappedValue, text: text, defaultValue: wrappedValue.argumentDescription, isRequired: false,
      allowedValues: Value.allValueStrings,
      read: _Conversion.last(_Conversion.checked(_Conversion.converter(Value.self), range), isRequired: false))
  }
}

extension Option {
  /// An option that may be left out (the property is then `nil`).
  ///
  /// - Parameters: as for the option with a default.
  public init<Wrapped: ExpressibleByArgument>(
    name: String? = nil, short: Character? = nil, valueName: String? = nil,
    completion: ArgumentSpec.Completion? = nil, help: String
  ) where Value == Wrapped? {
    self.init(
      initial: .some(nil),
      text: _OptionText(name: name, short: short, valueName: valueName, completion: completion, help: help),
      isRequired: false, allowedValues: Wrapped.allValueStrings,
      read: _Conversion.optional(_Conversion.converter(Wrapped.self)))
  }

  /// A shared option that may be left out, with this command's help if it
  /// says more than the shared one.
  public init<Wrapped: ExpressibleByArgument>(_ shared: OptionDeclaration, help: String? = nil)
  where Value == Wrapped? {
    self.init(
      initial: .some(nil), text: shared.text(help: help), isRequired: false, allowedValues: Wrapped.allValueStrings,
      read: _Conversion.optional(_Conversion.converter(Wrapped.self)))
  }

  /// An option that may be left out, whose word `transform` converts.
  ///
  /// - Parameters:
  ///   - transform: The value a word spells; it throws ``UsageError`` (such
  ///     as ``UsageError/invalid(_:)``) for a word it refuses.
  ///   - others: as for the option with a default.
  public init<Wrapped>(
    name: String? = nil, short: Character? = nil, valueName: String? = nil,
    completion: ArgumentSpec.Completion? = nil, help: String,
    transform: @escaping @Sendable (String) throws -> Wrapped
  ) where Value == Wrapped? {
    self.init(
      initial: .some(nil),
      text: _OptionText(name: name, short: short, valueName: valueName, completion: completion, help: help),
      isRequired: false, read: _Conversion.optional(_Conversion.converter(transform)))
  }

  /// An option that must be given, whose word `transform` converts.
  ///
  /// - Parameters: as for the optional option with a transform.
  @_disfavoredOverload
  public init(
    name: String? = nil, short: Character? = nil, valueName: String? = nil,
    completion: ArgumentSpec.Completion? = nil, help: String,
    transform: @escaping @Sendable (String) throws -> Value
  ) {
    self.init(
      initial: nil,
      text: _OptionText(name: name, short: short, valueName: valueName, completion: completion, help: help),
      isRequired: true, read: _Conversion.last(_Conversion.converter(transform), isRequired: true))
  }

  /// An option that may be given several times; the property holds every
  /// value in command-line order (none when it is left out).
  ///
  /// - Parameters: as for the option with a default.
  public init<Element: ExpressibleByArgument>(
    name: String? = nil, short: Character? = nil, valueName: String? = nil,
    completion: ArgumentSpec.Completion? = nil, help: String
  ) where Value == [Element] {
    self.init(
      initial: [],
      text: _OptionText(name: name, short: short, valueName: valueName, completion: completion, help: help),
      isRequired: false, isRepeatable: true, allowedValues: Element.allValueStrings,
      read: _Conversion.all(_Conversion.converter(Element.self), isRequired: false))
  }
}
