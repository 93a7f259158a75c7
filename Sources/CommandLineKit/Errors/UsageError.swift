/// A mistake in how the command line was written.
///
/// Every case exits with ``ExitCode/usage`` (64) and is reported together with
/// the usage line of the command being parsed.
public enum UsageError: CommandLineError, Equatable, Sendable {
  /// An option that the command does not declare, with an optional close match.
  case unknownOption(String, suggestion: String?)
  /// A subcommand name that does not exist, with an optional close match.
  case unknownSubcommand(String, suggestion: String?)
  /// An option that needs a value was the last argument or was followed by another option.
  case missingValue(option: String)
  /// A required positional argument or option was not given.
  case missingArgument(String)
  /// A positional argument that the command does not expect.
  case unexpectedArgument(String)
  /// A flag was written with a value, as in `--json=yes`.
  case unexpectedValue(option: String, value: String)
  /// A value that could not be converted to the expected type.
  case invalidValue(String, argument: String, expected: String)
  /// A command-specific check failed; the message is printed as is.
  case invalid(String)

  /// Always ``ExitCode/usage``.
  public var exitCode: ExitCode { .usage }

  /// The lowercase message printed after `error: `.
  public var message: String {
    switch self {
    case .unknownOption(let name, let suggestion):
      return "unknown option '\(name)'" + Self.hint(suggestion)
    case .unknownSubcommand(let name, let suggestion):
      return "unknown subcommand '\(name)'" + Self.hint(suggestion)
    case .missingValue(let option):
      return "missing value for option '\(option)'"
    case .missingArgument(let argument):
      return "missing expected argument '\(argument)'"
    case .unexpectedArgument(let argument):
      return "unexpected argument '\(argument)'"
    case .unexpectedValue(let option, let value):
      return "option '\(option)' does not take a value (got '\(value)')"
    case .invalidValue(let value, let argument, let expected):
      return "invalid value '\(value)' for '\(argument)': expected \(expected)"
    case .invalid(let message):
      return message
    }
  }

  private static func hint(_ suggestion: String?) -> String {
    guard let suggestion else { return "" }
    return "; did you mean '\(suggestion)'?"
  }
}

extension UsageError: CustomStringConvertible {
  /// The same text as ``message``.
  public var description: String { message }
}
