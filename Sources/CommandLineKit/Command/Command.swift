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
/// Its arguments are its properties (``ParsableArguments``): the tool
/// creates the command with ``ParsableArguments/init()``, parses the
/// command line against the properties' declarations, stores the values,
/// then calls ``ParsableArguments/validate()`` and ``run(context:)``.
///
///     struct Load: RunnableCommand {
///       static let configuration = CommandConfiguration(
///         name: "load",
///         abstract: "Load a compiled dataset into the device store.")
///
///       @Argument(atLeastOne: true, help: "Compiled dataset files.")
///       var file: [String]
///       @Option(valueName: "cc", help: "Default region for numbers without a country code.")
///       var region = "ZZ"
///       @Flag(.json, help: "Print results as JSON lines.")
///       var json: Bool
///
///       func run(context: CommandContext) throws {
///         for file in file { context.standardOutput.write(file + "\n") }
///       }
///     }
public protocol RunnableCommand: Command, ParsableArguments {
  /// Does the command's work.
  ///
  /// Write results to `context.standardOutput`. Throw a
  /// ``CommandLineError`` to choose the exit code, or ``ExitCode`` to exit
  /// silently with a status.
  func run(context: CommandContext) throws
}
