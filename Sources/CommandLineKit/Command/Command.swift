/// A node of the command tree: a name, its help and its arguments.
///
/// A type that only adopts `Command` is a pure group (for example
/// `calldir device`): it must declare subcommands, and invoking it without one
/// prints its help to standard error and exits with ``ExitCode/usage``.
/// Commands that do work adopt ``RunnableCommand``.
///
///     enum Device: Command {
///       static let configuration = CommandConfiguration(
///         name: "device",
///         abstract: "Work with a device's Call Directory store.",
///         subcommands: [Load.self, Dump.self])
///     }
public protocol Command: SendableMetatype {
  /// The static description of this command.
  static var configuration: CommandConfiguration { get }
}

/// A command that is run with parsed arguments.
///
/// The tool parses the command line against
/// ``CommandConfiguration/arguments``, then calls ``init(arguments:)``,
/// ``validate()`` and ``run(context:)`` in that order.
///
///     struct Load: RunnableCommand {
///       static let configuration = CommandConfiguration(
///         name: "load",
///         abstract: "Load a compiled dataset into the device store.",
///         arguments: [
///           .positional("file", arity: .oneOrMore, help: "Compiled dataset files."),
///           .option("region", valueName: "cc", defaultValue: "ZZ",
///                   help: "Default region for numbers without a country code."),
///           .flag("json", help: "Print results as JSON lines."),
///         ])
///
///       var files: [String]
///       var region: String
///       var json: Bool
///
///       init(arguments: ParsedArguments) throws {
///         files = arguments.strings("file")
///         region = try arguments.requiredString("region")
///         json = arguments.flag("json")
///       }
///
///       func run(context: CommandContext) throws {
///         for file in files { context.standardOutput.write(file + "\n") }
///       }
///     }
public protocol RunnableCommand: Command {
  /// Reads the typed values this command needs.
  ///
  /// - Throws: Usually a ``UsageError`` from a typed accessor.
  init(arguments: ParsedArguments) throws

  /// Checks relationships between arguments before running.
  ///
  /// Throw ``UsageError/invalid(_:)`` to report a usage error with the
  /// command's usage line. The default implementation does nothing.
  func validate() throws

  /// Does the command's work.
  ///
  /// Write results to `context.standardOutput`. Throw a
  /// ``CommandLineError`` to choose the exit code, or ``ExitCode`` to exit
  /// silently with a status.
  func run(context: CommandContext) throws
}

extension RunnableCommand {
  /// Does nothing.
  public func validate() throws {}
}
