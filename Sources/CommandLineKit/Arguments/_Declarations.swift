/// A stored property that declares arguments: the property wrappers.
protocol _ArgumentContainer {
  /// Adds the declared arguments; `label` is the property's name as
  /// reflection reports it (`_maxErrors`).
  func _declare(label: String, in declarations: inout _Declarations)
}

/// One declared argument: how the parser and help see it, and how its value
/// gets into the property.
struct _BoundArgument {
  let spec: ArgumentSpec
  let assign: (ParsedArguments) throws(UsageError) -> Void
}

/// The arguments a ``ParsableArguments`` value declares, found by reflection
/// in the order of its stored properties (a group's where the group is).
struct _Declarations {
  private(set) var arguments: [_BoundArgument] = []
  private(set) var groups: [any ParsableArguments] = []

  init(of value: any ParsableArguments) {
    collect(value)
  }

  /// The declarations of a command type; a command that is not runnable declares none.
  static func specs(of command: any Command.Type) -> [ArgumentSpec] {
    guard let runnable = command as? any RunnableCommand.Type else { return [] }
    return _Declarations(of: runnable.init()).specs
  }

  var specs: [ArgumentSpec] { arguments.map(\.spec) }

  mutating func add(_ argument: _BoundArgument) {
    arguments.append(argument)
  }

  /// Declares `spec`, whose parsed value `read` converts and stores in
  /// `slot` (an argument or option; left at its default when absent).
  mutating func add<Value>(_ spec: ArgumentSpec, storingIn slot: _Slot<Value>, read: @escaping _Conversion.Reader<Value>) {
    add(_BoundArgument(spec: spec) { (parsed) throws(UsageError) in
      if let value = try read(parsed, spec) { slot.value = value }
    })
  }

  mutating func addGroup(_ group: any ParsableArguments) {
    groups.append(group)
    collect(group)
  }

  /// Stores every parsed value in its property, then checks the groups.
  func assign(_ parsed: ParsedArguments) throws {
    for argument in arguments { try argument.assign(parsed) }
    for group in groups { try group.validate() }
  }

  private mutating func collect(_ value: Any) {
    for child in Mirror(reflecting: value).children {
      guard let container = child.value as? any _ArgumentContainer else { continue }
      container._declare(label: child.label ?? "", in: &self)
    }
  }

  /// The long name a property's label implies: `_maxErrors` → `max-errors`.
  static func name(fromLabel label: String) -> String {
    var name = ""
    for character in label.drop(while: { $0 == "_" }) {
      if character.isUppercase {
        if !name.isEmpty { name += "-" }
        name += character.lowercased()
      } else {
        name.append(character)
      }
    }
    return name
  }
}

/// Where a property wrapper keeps its value: set once by parsing, before
/// the command runs, read after.
final class _Slot<Value>: @unchecked Sendable {
  var value: Value?

  init(_ value: Value?) {
    self.value = value
  }

  /// The value; reading it before parsing is a programming error.
  func read(_ kind: String) -> Value {
    guard let value else { preconditionFailure("\(kind) read before the command line was parsed") }
    return value
  }
}
