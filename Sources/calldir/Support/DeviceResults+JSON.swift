import CallDirectoryProvider
import CallDirectorySync
import CallKitMock
import CalldirDevice
import CalldirSystem
import CommandLineKit
import Foundation

/// A device's rollback floors, `[{"dataset", "version"}]` by dataset, as
/// `device status --json` and `device reset --json` print them.
struct RollbackFloors: JSONEncodable {
  /// The highest version accepted, by dataset.
  let floors: [String: Int]

  var json: JSONValue {
    .array(floors.sorted { $0.key < $1.key }.map { ["dataset": $0.key.json, "version": $0.value.json] })
  }
}

/// What `calldir device load --json` prints: each extension's request, and
/// the failure none of them carries (schemas/output/device-load.schema.json).
struct DeviceLoadOutcome: JSONEncodable {
  /// The requests made, in order.
  let results: [ExtensionLoadResult]
  /// What stopped the load, if anything.
  let failure: (any Error)?

  var json: JSONValue {
    var document: [(key: String, value: JSONValue)] = [(key: "extensions", value: results.json)]
    // A failure no extension's result carries (the device's own I/O).
    if let failure = failure as? any CommandLineError, !results.contains(where: { $0.report.error != nil }),
      case .object(let envelope) = failure.jsonEnvelope
    {
      document += envelope
    }
    return .object(document)
  }
}

extension ExtensionLoadResult: JSONEncodable {
  /// One extension's request in `device load --json`.
  public var json: JSONValue {
    let statistics = report.statistics
    return [
      "identifier": load.identifier.json,
      "file": load.file.json,
      "strategy": load.plan.strategy.rawValue.json,
      "incremental": report.wasIncremental.json,
      "version": state.loaded.map { Int64(truncatingIfNeeded: $0.version) }.json,
      "digest": state.loaded.map(\.digest.hex).json,
      "blocking": report.blockingEntryCount.json,
      "identification": report.identificationEntryCount.json,
      "calls": [
        "blockingRemoves": statistics.blockingRemoves.json,
        "identificationRemoves": statistics.identificationRemoves.json,
        "blockingAdds": statistics.blockingAdds.json,
        "identificationAdds": statistics.identificationAdds.json,
        "removeAll": (statistics.removeAllBlockingCalls + statistics.removeAllIdentificationCalls > 0).json,
      ],
      "peakMemoryBytes": report.childPeakResidentBytes.json,
      "baselineMemoryBytes": report.childBaselineResidentBytes.json,
      "durationSeconds": .double((report.duration * 1000).rounded() / 1000),
      "error": Self.json(report.error),
    ]
  }

  /// A failed request's error: CallKit's domain and code, a cancelled
  /// extension's, or the message alone; `null` when the request succeeded.
  private static func json(_ failure: (any Error)?) -> JSONValue {
    guard let failure else { return .null }
    if let system = failure as? CXErrorCodeCallDirectoryManagerError {
      return [
        "domain": CXErrorCodeCallDirectoryManagerError.errorDomain.json,
        "code": system.code.name.json, "rawValue": system.code.rawValue.json,
        "message": (system.reason ?? "").json,
      ]
    }
    if let cancelled = failure as? ExtensionCancellationError {
      return ["domain": cancelled.domain.json, "rawValue": cancelled.code.json, "message": cancelled.message.json]
    }
    return ["message": String(describing: failure).json]
  }
}

/// What `calldir device status --json` prints: the last sync, each
/// installed extension, and the rollback floors
/// (schemas/output/device-status.schema.json).
struct DeviceStatusReport: JSONEncodable {
  /// One installed extension: what the device says and what its provider holds.
  struct Extension: JSONEncodable {
    let status: ExtensionStatus
    let state: ProviderState

    var json: JSONValue {
      [
        "identifier": status.identifier.json,
        "enabled": status.isEnabled.json,
        "version": state.loaded.map { Int64(truncatingIfNeeded: $0.version) }.json,
        "digest": state.loaded.map(\.digest.hex).json,
        "pendingVersion": state.pending.map { Int64(truncatingIfNeeded: $0.version) }.json,
        "blocking": status.blockingEntryCount.json,
        "identification": status.identificationEntryCount.json,
        "reloadCount": status.reloadCount.json,
        "lastLoad": Self.json(status.lastReloadDate),
        "lastSuccessfulLoad": Self.json(status.lastSuccessfulLoadDate),
        "lastError": status.lastError.map { error in
          ["domain": error.domain.json, "code": error.code.json, "message": error.message.json] as JSONValue
        } ?? .null,
      ]
    }

    /// A date as ISO 8601 (UTC), or `null`.
    private static func json(_ date: Date?) -> JSONValue {
      date.map { $0.formatted(.iso8601) }.json
    }
  }

  /// The recorded sync; nil when the device never synced.
  let sync: SyncState?
  let extensions: [Extension]
  /// The rollback floors; nil when they cannot be read.
  let floors: RollbackFloors?

  var json: JSONValue {
    ["sync": sync.map(Self.json) ?? .null, "extensions": extensions.json, "rollbackFloors": floors.json]
  }

  private static func json(_ sync: SyncState) -> JSONValue {
    [
      "dataset": sync.dataset.json,
      "version": sync.version.json,
      "published": sync.published.json,
      "incrementalSyncs": sync.incrementalSyncs.json,
      "extensions": .array(sync.extensions.sorted { $0.key < $1.key }.map { ["index": $0.key.json, "version": $0.value.json] }),
    ]
  }
}

/// What `calldir device reset --json` prints
/// (schemas/output/device-reset.schema.json).
struct DeviceResetOutcome: JSONEncodable {
  /// The extensions uninstalled.
  let removedExtensions: [String]
  /// Whether a recorded sync was forgotten.
  let forgotSync: Bool
  /// The rollback floors kept; nil when they cannot be read.
  let floors: RollbackFloors?

  var json: JSONValue {
    ["removedExtensions": removedExtensions.json, "forgotSync": forgotSync.json, "rollbackFloors": floors.json]
  }
}
