import CallDirectorySync
import CalldirDevice
import CalldirSystem
import CommandLineKit

/// What `calldir device sync` did, as it prints it.
struct SyncOutcome: JSONEncodable {
  /// The verified manifest's plan, and the state before.
  let planned: PlannedSync
  /// The staged files; nil when the device was up to date.
  let staged: StagedSync?
  /// Each loaded extension's request, by index.
  let results: [Int: ExtensionLoadResult]
  /// The state recorded (or kept, when up to date).
  let state: SyncState?

  private var plan: SyncPlan { staged?.plan ?? planned.plan }
  private var manifest: Manifest { plan.manifest.manifest }
  /// The dataset's rollback floor once the sync is recorded (a downgrade
  /// leaves it where it was).
  private var rollbackFloor: Int { max(planned.rollbackFloor ?? manifest.version, manifest.version) }

  /// The staged load of extension `index`.
  private func load(_ index: Int) -> StagedLoad? {
    staged?.loads.first { $0.index == index }
  }

  /// The entries extension `item`'s reload added or removed (``ReloadCost``):
  /// the request's blob when it ran, else what the plan says (none for an
  /// extension up to date or unchanged); nil when unknown (a delta the
  /// manifest gives no counts for, not loaded).
  private func reloadEntries(_ item: Manifest.Extension, _ step: SyncPlan.Step) -> Int? {
    if let load = results[item.index]?.load { return load.reloadEntries }
    return step.reloadEntries(of: item)
  }

  /// The entries every reload of the sync added or removed.
  private var totalReloadEntries: Int? {
    var total = 0
    for (item, step) in plan.steps {
      guard let entries = reloadEntries(item, step) else { return nil }
      total = total &+ entries
    }
    return total
  }

  /// Estimated seconds on a phone, to the millisecond.
  private static func seconds(_ entries: Int?) -> JSONValue {
    entries.map { .double((ReloadCost.seconds(entries: $0) * 1000).rounded() / 1000) } ?? .null
  }

  /// `{"dataset", "version", "previous", "published", "expires", "upToDate",
  /// "periodicFull", "downgrade", "rollbackFloor", "incrementalSyncs", "extensions": [{"index",
  /// "strategy", "from", "bytes", "path", "downloaded", "resumedAt",
  /// "reused", "discardedPartial", "missingDelta", "unusableDelta",
  /// "blocking", "identification", "peakMemoryBytes", "durationSeconds",
  /// "reloadEntries", "reloadSeconds"}], "retired", "downloaded",
  /// "reloadEntries", "reloadSeconds"}` (schemas/output/device-sync.schema.json).
  var json: JSONValue {
    func optional(_ value: Int?) -> JSONValue { value.map { .int(Int64($0)) } ?? .null }
    func optional(_ value: Int64?) -> JSONValue { value.map { .int($0) } ?? .null }
    let extensions: [JSONValue] = plan.steps.map { item, step in
      let staged = load(item.index)
      let report = results[item.index]?.report
      let (strategy, file): (String, Manifest.File?) =
        switch step {
        case .upToDate: ("upToDate", nil)
        case .unchanged: ("unchanged", nil)
        case .delta(let delta): ("delta", delta.file)
        case .full(let file): ("full", file)
        }
      let entries = reloadEntries(item, step)
      return [
        "index": .int(Int64(item.index)),
        "strategy": .string(strategy),
        "from": optional(planned.previous?.extensions[item.index]),
        "bytes": .int(file?.bytes ?? 0),
        "path": file.map { .string($0.path) } ?? .null,
        "downloaded": .int(staged?.staged?.downloadedBytes ?? 0),
        "resumedAt": optional(staged?.staged?.resumedAt),
        "reused": .bool(staged?.staged?.wasAlreadyStaged ?? false),
        "discardedPartial": optional(staged?.staged?.discardedPartial),
        "missingDelta": optional(staged?.missingDelta?.from),
        "unusableDelta": optional(staged?.unusableDelta?.delta.from),
        "blocking": .int(Int64(item.counts.blocking)),
        "identification": .int(Int64(item.counts.identification)),
        "peakMemoryBytes": optional(report?.childPeakResidentBytes),
        "durationSeconds": report.map { .double(($0.duration * 1000).rounded() / 1000) } ?? .null,
        "reloadEntries": optional(entries),
        "reloadSeconds": Self.seconds(entries),
      ]
    }
    let total = totalReloadEntries
    return [
      "dataset": .string(manifest.dataset),
      "version": .int(Int64(manifest.version)),
      "previous": optional(planned.previous?.version),
      "published": .string(manifest.published),
      "expires": manifest.expires.map { .string($0) } ?? .null,
      "upToDate": .bool(staged == nil),
      "periodicFull": .bool(plan.isPeriodicFull),
      "downgrade": .bool(plan.isDowngrade),
      "rollbackFloor": .int(Int64(rollbackFloor)),
      "incrementalSyncs": .int(Int64(state?.incrementalSyncs ?? 0)),
      "extensions": .array(extensions),
      "retired": .array(plan.retired.map { .int(Int64($0)) }),
      "downloaded": .int(staged?.downloadedBytes ?? 0),
      "reloadEntries": optional(total),
      "reloadSeconds": Self.seconds(total),
    ]
  }

  /// One line for the sync, then one per extension.
  func describe(to output: any OutputSink) {
    // A store built without a `dataset` in its config has an empty name.
    let dataset = manifest.dataset.isEmpty ? "dataset (unnamed)" : manifest.dataset
    guard let staged else {
      output.writeLine("\(dataset): already up to date (version \(manifest.version))")
      return
    }
    let from = planned.previous.map { "from version \($0.version)" } ?? "first sync"
    let periodic = plan.isPeriodicFull ? ", full snapshots after \(manifest.fullEvery) incremental syncs" : ""
    let downgrade =
      plan.isDowngrade
      ? ", a downgrade allowed by --allow-downgrade; rollback floor \(rollbackFloor)" : ""
    let reloaded = totalReloadEntries.map {
      ", \($0) \($0 == 1 ? "entry" : "entries") reloaded (about \(Self.secondsText($0)) on a phone)"
    }
    output.writeLine(
      "\(dataset): synced to version \(manifest.version) (\(from)\(periodic)\(downgrade)), "
        + "\(staged.downloadedBytes) bytes downloaded" + (reloaded ?? ""))
    for (item, step) in plan.steps {
      var line = "  extension \(item.index): "
      switch step {
      case .upToDate:
        output.writeLine(line + "up to date")
        continue
      case .unchanged:
        let held = planned.previous?.extensions[item.index].map { " since version \($0)" } ?? ""
        output.writeLine(line + "unchanged\(held) (the content digest the manifest names), no reload")
        continue
      case .delta(let delta):
        line += "delta \(delta.from) → \(manifest.version), \(delta.file.bytes) bytes"
      case .full(let file):
        line += "full snapshot, \(file.bytes) bytes"
      }
      if let download = load(item.index) {
        if let missing = download.missingDelta {
          line += " (the source has no delta from version \(missing.from))"
        }
        if let unusable = download.unusableDelta {
          line += " (the extension cannot apply the delta from version \(unusable.delta.from): \(unusable.reason))"
        }
        if download.staged?.wasAlreadyStaged == true {
          line += ", staged by an earlier sync"
        } else if let resumed = download.staged?.resumedAt {
          line += ", resumed at byte \(resumed)"
        } else if let discarded = download.staged?.discardedPartial {
          line += ", downloaded again (the \(discarded) bytes an earlier sync left did not verify)"
        }
      }
      line += "; \(item.counts.blocking) blocking, \(item.counts.identification) identification"
      if let entries = reloadEntries(item, step) {
        line += "; \(entries) \(entries == 1 ? "entry" : "entries") reloaded"
      }
      if let peak = results[item.index]?.report.childPeakResidentBytes {
        line += "; extension peak RSS \(peak >> 10) KiB"
      }
      output.writeLine(line)
    }
    for index in plan.retired {
      output.writeLine("  extension \(index): retired, its entries removed")
    }
  }

  /// `0.013 s`, `13.0 s`: estimated seconds on a phone, to the millisecond
  /// below ten seconds.
  private static func secondsText(_ entries: Int) -> String {
    let seconds = ReloadCost.seconds(entries: entries)
    if seconds >= 10 { return TextTable.oneDecimal(seconds) + " s" }
    let milliseconds = Int((seconds * 1000).rounded())
    let fraction = String(milliseconds % 1000)
    return "\(milliseconds / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction) s"
  }
}
