import CalldirSystem

/// Runs a command tree against a list of arguments.
///
/// The executable's whole `main.swift` is usually one line:
///
///     CommandLineTool.main(Calldir.self)
///
/// Tests call ``run(root:arguments:standardOutput:standardError:)`` with
/// ``MemorySink`` values and check the returned ``ExitCode``.
public enum CommandLineTool {
  /// Parses `arguments`, runs the selected command and reports the outcome.
  ///
  /// - Help (`--help`, `-h`, `help <subcommand…>`) and `--version` go to
  ///   `standardOutput` and return ``ExitCode/success``.
  /// - A command group invoked without a subcommand prints its help to
  ///   `standardError` and returns ``ExitCode/usage``.
  /// - Usage errors print `error: …`, `usage: …` and a pointer to `--help`
  ///   to `standardError` and return ``ExitCode/usage``.
  /// - A thrown ``CommandLineError`` prints `error: <message>` and returns
  ///   its exit code; a thrown ``ExitCode`` returns silently; any other error
  ///   prints `error: <description>` and returns ``ExitCode/software``.
  /// - Standard output is flushed before returning; a failed write returns
  ///   ``ExitCode/ioError``.
  ///
  /// - Parameters:
  ///   - root: The root command type; its name is the tool name.
  ///   - arguments: The command-line arguments without the program path.
  ///   - standardOutput: Where help, versions and results go.
  ///   - standardError: Where errors and progress go.
  /// - Returns: The status the process should exit with.
  public static func run(
    root: any Command.Type,
    arguments: [String],
    standardOutput: any OutputSink,
    standardError: any OutputSink
  ) -> ExitCode {
    var path: [any Command.Type] = [root]
    let report = _Reporter(standardOutput: standardOutput, standardError: standardError)
    let width = _HelpGenerator.width(for: standardOutput)
    do {
      try checkDeclaration(path)
      if let generated = try generatedDocument(root, arguments) {
        standardOutput.write(generated)
        return report.finish(.success)
      }
      var tokens = arguments[...]
      // Walk down the tree while the current command has subcommands.
      while let current = path.last, !current.configuration.subcommands.isEmpty {
        let isRunnable = current is any RunnableCommand.Type
        guard let token = tokens.first else {
          if isRunnable { break }
          standardError.write(_HelpGenerator.help(path, width: _HelpGenerator.width(for: standardError)))
          return report.finish(.usage)
        }
        if token == "--help" || token == "-h" {
          standardOutput.write(_HelpGenerator.help(path, width: width))
          return report.finish(.success)
        }
        if path.count == 1, token == "--version", let version = current.configuration.version {
          standardOutput.write(version + "\n")
          return report.finish(.success)
        }
        if path.count == 1, token == "help" {
          let target = try resolveHelpTarget(path, tokens.dropFirst())
          standardOutput.write(_HelpGenerator.help(target, width: width))
          return report.finish(.success)
        }
        if let next = current.configuration.subcommands.first(where: { $0.configuration.name == token }) {
          path.append(next)
          try checkDeclaration(path)
          tokens = tokens.dropFirst()
          continue
        }
        if isRunnable { break }
        throw unknownWord(token, in: path)
      }
      return try execute(path, tokens, report)
    } catch {
      return report.fail(error, path: path)
    }
  }

  /// Runs the tool with the process's arguments and exits.
  ///
  /// Installs the fault-injection rules of the environment, if any
  /// (``FaultInjection/installFromEnvironment()``; a release build, which
  /// has no fault injection, says on standard error that it ignores
  /// them), ignores `SIGPIPE` (so a
  /// closed pipe ends output quietly), writes to buffered standard output
  /// and unbuffered standard error, flushes, and calls `exit(3)` with the
  /// resulting ``ExitCode``.
  ///
  /// - Parameters:
  ///   - root: The root command type.
  ///   - arguments: The arguments without the program path; defaults to the process's.
  public static func main(_ root: any Command.Type, arguments: [String]? = nil) -> Never {
    CurrentProcess.ignoreBrokenPipes()
    FaultInjection.installFromEnvironment()
    let standardOutput = FileDescriptorSink.standardOutput()
    let standardError = FileDescriptorSink.standardError()
    let code = run(
      root: root,
      arguments: arguments ?? Array(CommandLine.arguments.dropFirst()),
      standardOutput: standardOutput,
      standardError: standardError)
    CurrentProcess.exit(code.rawValue)
  }

  /// The root option that prints a shell's completion script
  /// (`--generate-completion-script bash|zsh|fish`), spelled as
  /// swift-argument-parser spells it.
  public static let completionScriptOption = "--generate-completion-script"
  /// The root option that prints the manual page (roff).
  public static let manualOption = "--generate-manual"

  /// The shells ``completionScript(root:shell:)`` writes for.
  public enum Shell: String, Sendable, CaseIterable {
    case bash, zsh, fish
  }

  /// The completion script of a command tree for `shell`: commands,
  /// subcommands, options, and files or directories where a value is a path
  /// (``ArgumentSpec/Completion``).
  public static func completionScript(root: any Command.Type, shell: Shell) -> String {
    switch shell {
    case .bash: _CompletionGenerator.bash(root)
    case .zsh: _CompletionGenerator.zsh(root)
    case .fish: _CompletionGenerator.fish(root)
    }
  }

  /// The manual page (roff, section 1) of a command tree: the root's
  /// overview and every visible command's usage, options, exit statuses and
  /// examples.
  ///
  /// - Parameter date: The page's date (`YYYY-MM-DD`), fixed so that the
  ///   same declarations give the same bytes.
  public static func manual(root: any Command.Type, date: String? = nil) -> String {
    _ManualGenerator.manual(root, date: date)
  }

  /// One Markdown reference page per visible command of the tree, the root
  /// first: `(fileName, text)`, file names such as `calldir-device-load.md`.
  public static func referencePages(root: any Command.Type) -> [(fileName: String, text: String)] {
    _MarkdownGenerator.pages(root)
  }

  /// The answer to the root's generator options, or `nil` when the command
  /// line is not one of them.
  private static func generatedDocument(_ root: any Command.Type, _ arguments: [String]) throws -> String? {
    guard let first = arguments.first else { return nil }
    var option = first
    var value: String? = arguments.dropFirst().first
    var consumed = 2
    if let equals = first.firstIndex(of: "="), first.hasPrefix("--") {
      option = String(first[..<equals])
      value = String(first[first.index(after: equals)...])
      consumed = 1
    }
    switch option {
    case completionScriptOption:
      guard let value else { throw UsageError.missingValue(option: completionScriptOption) }
      guard let shell = Shell(rawValue: value) else {
        throw UsageError.invalid(
          "\(completionScriptOption) takes one of bash, zsh, fish, not '\(value)'")
      }
      if arguments.count > consumed { throw UsageError.unexpectedArgument(arguments[consumed]) }
      return completionScript(root: root, shell: shell)
    case manualOption:
      if first.contains("=") { throw UsageError.unexpectedValue(option: manualOption, value: value ?? "") }
      if arguments.count > 1 { throw UsageError.unexpectedArgument(arguments[1]) }
      return manual(root: root)
    default:
      return nil
    }
  }

  private static func execute(
    _ path: [any Command.Type],
    _ tokens: ArraySlice<String>,
    _ report: _Reporter
  ) throws -> ExitCode {
    guard let command = path.last as? any RunnableCommand.Type else {
      throw _DeclarationError(command: _HelpGenerator.commandName(path), problem: "it is not runnable")
    }
    let configuration = command.configuration
    let instance = command.init()
    let declarations = _Declarations(of: instance)
    let parser = _ArgumentParser(
      specs: declarations.specs,
      acceptsVersion: path.count == 1 && configuration.version != nil)
    let answersInJSON = wantsJSON(declarations.specs, tokens)
    do {
      let outcome = try parser.parse(tokens)
      guard case .parsed(let values, let flags) = outcome else { return answer(outcome, path, report) }
      try declarations.assign(ParsedArguments(values: values, flags: flags))
      try instance.validate()
    } catch {
      if answersInJSON { report.standardOutput.writeJSONLine(errorJSON(error)) }
      throw error
    }
    let output = _WriteTrackingSink(report.standardOutput)
    let context = CommandContext(
      standardOutput: output, standardError: report.standardError, commandPath: path.map { $0.configuration.name })
    do {
      try instance.run(context: context)
    } catch {
      // A command that failed before printing its own document.
      if !output.hasWritten, !(error is ExitCode), answersInJSON {
        report.standardOutput.writeJSONLine(errorJSON(error))
      }
      throw error
    }
    return report.finish(.success)
  }

  /// Help or the version, which a command's own parser answers.
  private static func answer(_ outcome: _ArgumentParser.Outcome, _ path: [any Command.Type], _ report: _Reporter)
    -> ExitCode
  {
    switch outcome {
    case .help:
      report.standardOutput.write(_HelpGenerator.help(path, width: _HelpGenerator.width(for: report.standardOutput)))
    case .version:
      report.standardOutput.write((path.last?.configuration.version ?? "") + "\n")
    case .parsed:
      break
    }
    return report.finish(.success)
  }

  /// Whether the command has the `--json` flag (``FlagDeclaration/json``) and was run with it: then a
  /// failure it did not answer with a document of its own is answered with
  /// ``errorJSON(_:)`` on standard output, so that a script reading the
  /// output always gets one document.
  private static func wantsJSON(_ specs: [ArgumentSpec], _ tokens: ArraySlice<String>) -> Bool {
    let json = FlagDeclaration.json.name
    return specs.contains(where: { $0.kind == .flag && $0.name == json })
      && tokens.prefix(while: { $0 != "--" }).contains("--" + json)
  }

  /// The failure's ``CommandLineError/jsonEnvelope``; an error that is not
  /// a ``CommandLineError`` is an internal one.
  private static func errorJSON(_ error: any Error) -> JSONValue {
    ((error as? any CommandLineError) ?? CommandFailure(.software, String(describing: error))).jsonEnvelope
  }

  private static func resolveHelpTarget(
    _ root: [any Command.Type],
    _ names: ArraySlice<String>
  ) throws -> [any Command.Type] {
    var path = root
    for name in names where name != "--help" && name != "-h" {
      guard let current = path.last else { break }
      if current.configuration.subcommands.isEmpty { throw UsageError.unexpectedArgument(name) }
      guard let next = current.configuration.subcommands.first(where: { $0.configuration.name == name }) else {
        throw _LocatedUsageError(error: unknownWord(name, in: path), path: path)
      }
      path.append(next)
    }
    return path
  }

  private static func unknownWord(_ token: String, in path: [any Command.Type]) -> UsageError {
    guard let current = path.last else { return .unexpectedArgument(token) }
    if token.hasPrefix("-"), token != "-" {
      var candidates = ["--help"]
      if path.count == 1, current.configuration.version != nil { candidates.insert("--version", at: 0) }
      let suggestion = token.hasPrefix("--") ? _Suggestions.bestMatch(for: token, among: candidates) : nil
      return .unknownOption(token, suggestion: suggestion)
    }
    var names = current.configuration.subcommands.filter { !$0.configuration.isHidden }.map { $0.configuration.name }
    if path.count == 1 { names.append("help") }
    return .unknownSubcommand(token, suggestion: _Suggestions.bestMatch(for: token, among: names))
  }

  private static func checkDeclaration(_ path: [any Command.Type]) throws {
    guard let command = path.last else { return }
    let problems = _DeclarationChecker.problems(
      in: command.configuration, arguments: _Declarations.specs(of: command), isRoot: path.count == 1,
      isRunnable: command is any RunnableCommand.Type)
    if let first = problems.first {
      throw _DeclarationError(command: _HelpGenerator.commandName(path), problem: first)
    }
  }
}
