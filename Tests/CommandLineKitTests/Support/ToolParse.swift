@testable import CommandLineKit

/// Direct access to the argument parser and the typed declarations,
/// bypassing the command tree.
enum ToolParse {
  /// Parses `tokens` against the properties of `type`, stores the values
  /// and validates, as the tool does for a command.
  static func parse<T: ParsableArguments>(_ type: T.Type, _ tokens: [String]) throws -> T {
    let value = T()
    let declarations = _Declarations(of: value)
    let parser = _ArgumentParser(specs: declarations.specs, acceptsVersion: false)
    guard case .parsed(let values, let flags) = try parser.parse(tokens[...]) else {
      throw UsageError.invalid("unexpected help or version request")
    }
    try declarations.assign(ParsedArguments(values: values, flags: flags))
    try value.validate()
    return value
  }

  /// The specs the properties of `type` declare, in order.
  static func specs<T: ParsableArguments>(_ type: T.Type) -> [ArgumentSpec] {
    _Declarations(of: T()).specs
  }
}
