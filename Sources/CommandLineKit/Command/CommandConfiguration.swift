/// The static description of a command: its name and help. Its arguments
/// are its properties (``ParsableArguments``).
public struct CommandConfiguration: Sendable {
  /// The word that selects this command, e.g. `load`; for the root, the tool name.
  public var name: String
  /// A one-line, sentence-case summary ending with a period.
  public var abstract: String
  /// Longer help shown under the abstract, or `nil`: paragraphs separated
  /// by a blank line, each wrapped to the screen; a line that starts with
  /// two spaces is shown as it is (a command line, a table row).
  public var discussion: String?
  /// The version printed by `--version`; only meaningful on the root command.
  public var version: String?
  /// Child commands, in the order they appear in help.
  public var subcommands: [any Command.Type]
  /// Left out of help and suggestions (for internal entry points); still runs.
  public var isHidden: Bool
  /// The exit statuses the command ends with, shown under `EXIT STATUS:`.
  public var exitStatuses: [ExitStatusHelp]
  /// Example invocations, shown under `EXAMPLES:`.
  public var examples: [CommandExample]
  /// Pages of the documentation that say more, linked from the reference pages.
  public var seeAlso: [DocumentLink]

  /// Creates a command configuration.
  ///
  /// - Parameters:
  ///   - name: The word that selects the command; for the root, the tool name.
  ///   - abstract: A one-line summary ending with a period.
  ///   - discussion: Optional longer help.
  ///   - version: The version string for `--version` (root only).
  ///   - subcommands: Child commands.
  ///   - isHidden: Whether help and "did you mean" leave the command out.
  ///   - exitStatuses: The exit statuses the command documents.
  ///   - examples: Example invocations.
  ///   - seeAlso: Pages of the documentation that say more.
  public init(
    name: String,
    abstract: String,
    discussion: String? = nil,
    version: String? = nil,
    subcommands: [any Command.Type] = [],
    isHidden: Bool = false,
    exitStatuses: [ExitStatusHelp] = [],
    examples: [CommandExample] = [],
    seeAlso: [DocumentLink] = []
  ) {
    self.name = name
    self.abstract = abstract
    self.discussion = discussion
    self.version = version
    self.subcommands = subcommands
    self.isHidden = isHidden
    self.exitStatuses = exitStatuses
    self.examples = examples
    self.seeAlso = seeAlso
  }
}
