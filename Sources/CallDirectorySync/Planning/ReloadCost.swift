/// What a reload costs the phone: the entries its request adds or
/// removes. CallKit reloads an extension at about 9 µs an entry (1.8M
/// entries in 15–16 s on an iPhone 14), whatever the bytes downloaded, so
/// entries are the one measure the sync plans with (``SyncPlanner``) and
/// that `calldir build --json` and `calldir device sync --json` report:
///
/// - a full snapshot: every entry it holds (``Manifest/Extension/entries``);
/// - a delta: its adds plus its removes (``Manifest/Delta/entries``; a
///   changed label counts twice, a remove and an add);
/// - an extension that already holds the manifest's content: nothing, and
///   no request at all.
public enum ReloadCost {
  /// Seconds a phone takes per entry it adds or removes, measured on an
  /// iPhone 14, iOS 26 (15–16 s for 1.8M entries).
  public static let secondsPerEntry = 9e-6

  /// The estimated seconds a reload of `entries` takes on a phone.
  public static func seconds(entries: Int) -> Double {
    Double(entries) * secondsPerEntry
  }

  /// Whether a device loads `delta` rather than the full snapshot of
  /// `item`: when the delta adds and removes no more entries than the full
  /// snapshot holds, whatever either file's size (a small delta beats a
  /// full reload even when the full blob has fewer bytes). A delta whose
  /// counts the manifest does not give (one written before they existed)
  /// is loaded, as it always was.
  public static func prefersDelta(_ delta: Manifest.Delta, over item: Manifest.Extension) -> Bool {
    prefersDelta(entries: delta.entries, overFull: item.entries)
  }

  /// ``prefersDelta(_:over:)`` on the counts alone: a delta of `entries`
  /// (nil: unknown) against a full snapshot of `fullEntries`. The build
  /// publishes a delta only when a device would load it.
  public static func prefersDelta(entries: Int?, overFull fullEntries: Int) -> Bool {
    guard let entries else { return true }
    return entries <= fullEntries
  }
}
