import CallDirectorySync

/// Fuzzes what a device parses before it trusts a store: the manifest
/// (`Manifest(parsing:)`, strict), its check (`ManifestTrust`, with a
/// verifier that accepts every signature so that parsing is reached, and a
/// fixed clock, 2026-12-01T00:00:00Z, for `expires`), the
/// plan against a recorded state read from the same input
/// (`SyncStateStore.load`) and a rollback floor read from the same bytes
/// (`RollbackFloorStore.load`), and the plan's resulting state.
///
/// Whatever the parser accepts must serialize to bytes it parses back to
/// the same manifest; a plan must name only the manifest's files, leave
/// unreloaded only an extension that holds the manifest's content digest,
/// and its resulting state the manifest's dataset and version; a plan made without
/// allowing a downgrade is never one, and never goes below the floor
/// (unless to the state's own version).
///
/// Input: byte 0 is the length (0...255) of a sync state document that
/// follows; the rest is the manifest (`SyncManifestInput`).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  var input = FuzzInput(data, size)
  let parts = SyncManifestInput(&input)
  let stateBytes = parts.state
  let manifestBytes = parts.manifest

  let statePath = stateBytes.withUnsafeBufferPointer { ScratchFile.write($0, named: "state.json") }
  let state = try? SyncStateStore(path: statePath).load()
  let floors = (try? RollbackFloorStore(path: statePath).load()) ?? [:]

  guard let manifest = try? Manifest(parsing: manifestBytes) else { return 0 }
  let again = manifest.serialized()
  do {
    fuzzCheck(try Manifest(parsing: again) == manifest, "the serialized manifest parses to another one")
  } catch {
    fuzzCheck(false, "the serialized manifest does not parse: \(error)")
  }
  let trust = ManifestTrust(
    publicKey: [UInt8](repeating: 1, count: 32), verifier: AcceptingVerifier(), clock: { 1_796_083_200 })
  let signature = Array((String(repeating: "A", count: 86) + "==\n").utf8)
  let trusted: TrustedManifest
  do {
    trusted = try trust.verify(manifest: manifestBytes, signature: signature)
  } catch {
    if case .expired(let expires, _) = error {
      fuzzCheck(expires < "2026-12-01T00:00:00Z", "a manifest expiring at \(expires) is refused on 2026-12-01")
    }
    return 0
  }
  let floor = floors[manifest.dataset]
  if let allowed = try? SyncPlanner.plan(trusted, state: state, floor: floor, allowsDowngrade: true) {
    let below = manifest.version < (floor ?? 0) && manifest.version != state?.version
    fuzzCheck(
      allowed.isDowngrade == (below || manifest.version < (state?.version ?? 0)),
      "a downgrade is not reported as one, or the reverse")
  }
  guard let plan = try? SyncPlanner.plan(trusted, state: state, floor: floor) else { return 0 }
  fuzzCheck(!plan.isDowngrade, "a plan that allows no downgrade is one")
  fuzzCheck(
    manifest.version >= (floor ?? 0) || manifest.version == state?.version, "the plan goes below the rollback floor")
  let known = Set(manifest.extensions.flatMap { [$0.full] + $0.deltas.map(\.file) })
  for file in plan.files { fuzzCheck(known.contains(file), "the plan fetches \(file.path), which the manifest does not name") }
  for (item, step) in plan.steps where step == .unchanged {
    fuzzCheck(
      item.digest != nil && state?.held(item.index)?.digest == item.digest,
      "extension \(item.index) is left unreloaded without holding the manifest's content digest")
  }
  let next = plan.resultingState(after: state)
  fuzzCheck(next.dataset == manifest.dataset && next.version == manifest.version, "the resulting state is not the manifest's")
  return 0
}

/// Accepts every signature: the harness fuzzes parsing, not Ed25519.
struct AcceptingVerifier: SignatureVerifier {
  func isValidSignature(_ signature: [UInt8], of message: [UInt8], publicKey: [UInt8]) -> Bool { true }
}
