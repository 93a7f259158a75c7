@testable import CommandLineKit

/// Direct access to the argument parser, bypassing the command tree.
enum ToolParse {
  /// Parses `tokens` against `specs` as the arguments of a command named `probe`.
  static func parse(_ specs: [ArgumentSpec], _ tokens: [String]) throws -> ParsedArguments {
    let parser = _ArgumentParser(specs: specs, acceptsVersion: false)
    guard case .parsed(let values, let flags) = try parser.parse(tokens[...]) else {
      throw UsageError.invalid("unexpected help or version request")
    }
    return ParsedArguments(commandPath: ["probe"], specs: specs, values: values, flags: flags)
  }
}
