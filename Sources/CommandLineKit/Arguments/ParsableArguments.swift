/// A type whose stored properties declare command-line arguments: a
/// runnable command, or a group of options several commands share.
///
/// Declare each argument once, as a property: ``Argument`` (positional),
/// ``Option`` (takes a value), ``Flag`` (on or off) or ``OptionGroup`` (a
/// group's arguments, in place). The long name is the property's name in
/// kebab case (`maxErrors` → `--max-errors`) unless `name:` says otherwise;
/// the value is converted to the property's type (``ExpressibleByArgument``),
/// so a command reads `maxErrors`, never a string key.
///
///     struct Limits: ParsableArguments {
///       @Option(valueName: "n", help: "At most this many entries.", range: 0...)
///       var maxEntries: Int = 2_000_000
///
///       init() {}
///     }
///
/// The tool creates the value with ``init()`` (every property at its
/// declaration), reads the declarations by reflection, parses the command
/// line against them, stores each value in its property, then calls
/// ``validate()``.
public protocol ParsableArguments {
  /// The declarations, before parsing.
  init()

  /// Checks the parsed values together; throw ``UsageError/invalid(_:)``
  /// for a usage error. Groups are checked before the command that has them.
  /// The default does nothing.
  func validate() throws
}

extension ParsableArguments {
  /// Does nothing.
  public func validate() throws {}
}
