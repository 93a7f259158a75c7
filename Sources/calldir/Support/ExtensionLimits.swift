import CallKitMock
import CommandLineKit

/// The limits the `device load` and `device sync` commands give the
/// extensions they load: `--memory-budget`, `--max-entries`, `--timeout`.
struct ExtensionLimits: ParsableArguments {
  static let defaultMaxEntries = 2_000_000
  static let defaultTimeout = 120

  @Option(valueName: "size", help: "Memory the extension process may add above its footprint at launch (peak RSS).")
  var memoryBudget: ByteSize = "16M"
  @Option(
    valueName: "n",
    help: "The extension's maximum allowed entries (blocking plus identification), which its store may not reach.",
    range: 0..., outOfRange: { _ in "--max-entries must not be negative" })
  var maxEntries = ExtensionLimits.defaultMaxEntries
  @Option(
    valueName: "seconds", help: "How long one request may run before the system interrupts it.",
    range: 1..., outOfRange: { _ in "--timeout must be a positive number of seconds" })
  var timeout = ExtensionLimits.defaultTimeout

  func validate() throws {
    guard memoryBudget.bytes > 0 else { throw UsageError.invalid("--memory-budget must be positive") }
  }

  /// The extensions' settings.
  var settings: ExtensionSettings {
    ExtensionSettings(
      maximumEntryCount: maxEntries, memoryBudgetBytes: memoryBudget.bytes, requestTimeout: Double(timeout))
  }
}
