/// The words given on the command line for one command, by argument name:
/// what the parser found, before the typed declarations convert it.
struct ParsedArguments {
  private let values: [String: [String]]
  private let flags: Set<String>

  init(values: [String: [String]], flags: Set<String>) {
    self.values = values
    self.flags = flags
  }

  /// Every value given for the argument named `name`, in command-line order.
  func given(_ name: String) -> [String] {
    values[name] ?? []
  }

  /// Whether the flag named `name` was given.
  func flag(_ name: String) -> Bool {
    flags.contains(name)
  }
}
