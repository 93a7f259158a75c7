/// One exit status a command documents: the code and what it means for
/// this command. Help prints them under `EXIT STATUS:`, the manual and
/// reference pages from the same declaration.
///
///     exitStatuses: [
///       .init(.success, "Published, or nothing changed."),
///       .init(.dataError, "A guard refused the build."),
///     ]
public struct ExitStatusHelp: Sendable, Hashable {
  /// The status.
  public var code: ExitCode
  /// A sentence (or a few) about when the command ends with it.
  public var meaning: String

  /// Creates an exit status description.
  ///
  /// - Parameters:
  ///   - code: The status.
  ///   - meaning: When the command ends with it.
  public init(_ code: ExitCode, _ meaning: String) {
    self.code = code
    self.meaning = meaning
  }
}

/// One example invocation: what it does and the command line, written
/// without a prompt (`calldir build --config c.json --store s`).
public struct CommandExample: Sendable, Hashable {
  /// What the example does, one sentence.
  public var purpose: String
  /// The command line.
  public var commandLine: String

  /// Creates an example.
  ///
  /// - Parameters:
  ///   - purpose: What the example does.
  ///   - commandLine: The command line, without a prompt.
  public init(_ purpose: String, _ commandLine: String) {
    self.purpose = purpose
    self.commandLine = commandLine
  }
}

/// A page of the tool's documentation that says more about a command: the
/// reference pages link it, the manual names it.
public struct DocumentLink: Sendable, Hashable {
  /// The page's title.
  public var title: String
  /// The page's path under the documentation folder (`docs/`), such as
  /// `guides/nightly-publishing.md`.
  public var path: String

  /// Creates a link.
  ///
  /// - Parameters:
  ///   - title: The page's title.
  ///   - path: The path under `docs/`.
  public init(_ title: String, _ path: String) {
    self.title = title
    self.path = path
  }
}
