/// Every `kind` a `--json` error object may hold: one vocabulary for all
/// commands (`schemas/error.schema.json` lists the same names).
///
/// A failure's kind names its exit status (the first eight) unless the
/// failing command names it more precisely: `build` by what refused or
/// stopped the build (``BuildError/kind``, the guards' own
/// `BuildRefusal.Kind`), `device sync` by the step that failed
/// (``SyncError/syncKind``, or `device`).
enum FailureKind: String, CaseIterable, Sendable {
  // The exit statuses (`ExitCode.jsonKind`).
  case failure, usage, data, noInput, `internal`, cantCreate, io, tryAgain
  // `build`: its guards (`BuildRefusal.Kind`) …
  case rejectRatio, sourceRemoval, sourceEmpty, sourceVanished, listRemoval
  // … and what else stops a build.
  case config, source, wrongRegion, capacity, dataset, store, locked, signingKey, blob
  // `device sync`.
  case manifest, signature, rollback, expired, file, network, storage, state, busy, device
}
