import CallKitMock
import CommandLineKit

/// The limits the `device load` and `device sync` commands give the
/// extensions they load: `--memory-budget`, `--max-entries`, `--timeout`.
struct ExtensionLimits {
  static let defaultMemoryBudget = "16M"
  static let defaultMaxEntries = 2_000_000
  static let defaultTimeout = 120

  /// The options' declarations.
  static let arguments: [ArgumentSpec] = [
    .option(
      "memory-budget", valueName: "size", defaultValue: defaultMemoryBudget,
      help: "Memory the extension process may add above its footprint at launch (peak RSS)."),
    .option(
      "max-entries", valueName: "n", defaultValue: String(defaultMaxEntries),
      help: "The extension's maximum allowed entries (blocking plus identification), which its store may not reach."),
    .option(
      "timeout", valueName: "seconds", defaultValue: String(defaultTimeout),
      help: "How long one request may run before the system interrupts it."),
  ]

  let memoryBudget: Int
  let maxEntries: Int
  let timeout: Int

  init(arguments: ParsedArguments) throws {
    memoryBudget = try arguments.size("memory-budget") ?? 0
    maxEntries = try arguments.int("max-entries") ?? Self.defaultMaxEntries
    timeout = try arguments.int("timeout") ?? Self.defaultTimeout
  }

  func validate() throws {
    guard memoryBudget > 0 else { throw UsageError.invalid("--memory-budget must be positive") }
    guard maxEntries >= 0 else { throw UsageError.invalid("--max-entries must not be negative") }
    guard timeout > 0 else { throw UsageError.invalid("--timeout must be a positive number of seconds") }
  }

  /// The extensions' settings.
  var settings: ExtensionSettings {
    ExtensionSettings(maximumEntryCount: maxEntries, memoryBudgetBytes: memoryBudget, requestTimeout: Double(timeout))
  }
}
