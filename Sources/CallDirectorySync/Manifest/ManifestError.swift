/// Why a manifest, its signature or a file it names is not to be trusted.
public enum ManifestError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The manifest is not a valid manifest.
  case malformed(String)
  /// The signature file is not one line of base64 of 64 bytes.
  case malformedSignature(String)
  /// The source has the manifest but no signature file.
  case missingSignature(source: String)
  /// The signature does not verify with the public key.
  case badSignature
  /// The manifest is of another dataset than the device holds.
  case wrongDataset(expected: String, found: String)
  /// The manifest is older than what the device holds (a replay or a rollback).
  case rollback(installed: Int, offered: Int)
  /// The manifest is older than the highest version the device ever
  /// accepted of its dataset (its rollback floor, ``RollbackFloorStore``):
  /// a replay, after the sync state was lost or the device reset.
  case belowRollbackFloor(dataset: String, floor: Int, offered: Int)
  /// The manifest's `expires` has passed by the device's clock: the source
  /// keeps serving an old copy (a mirror that stopped updating, or a
  /// freeze attack), so what it offers may not be the store's latest.
  case expired(expires: String, now: String)
  /// A downloaded file is not the one the manifest names.
  case fileMismatch(path: String, problem: String)

  public var description: String {
    switch self {
    case .malformed(let problem): "malformed manifest: \(problem)"
    case .malformedSignature(let problem): "malformed manifest signature: \(problem)"
    case .missingSignature(let source):
      "\(source) has no manifest.json.sig: the store's manifest is not signed (a build without a signing key); "
        + "nothing was installed"
    case .badSignature: "the manifest's signature does not verify with the public key; nothing was installed"
    case .wrongDataset(let expected, let found):
      "the manifest is of dataset '\(found)', the device holds '\(expected)'; nothing was installed"
    case .rollback(let installed, let offered):
      "the manifest offers version \(offered), older than the installed version \(installed) (a replay or a rollback); "
        + "nothing was installed"
    case .belowRollbackFloor(let dataset, let floor, let offered):
      "the manifest offers version \(offered) of '\(dataset)', older than version \(floor), the newest this device "
        + "has accepted of it (a replay or a rollback); nothing was installed"
    case .expired(let expires, let now):
      "the manifest expired at \(expires) (the device's clock says \(now)): the source serves a stale copy, "
        + "a mirror that stopped updating or a freeze attack; nothing was installed"
    case .fileMismatch(let path, let problem): "\(path) is not the file the manifest names: \(problem)"
    }
  }
}
