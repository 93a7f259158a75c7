import CallDirectoryCompiler
import CallDirectoryFormat

/// Why `calldir build` published nothing.
public enum BuildError: Error, CustomStringConvertible {
  case config(ConfigError)
  case compile(CompileError)
  case store(StoreError)
  /// The manifest's signing key (`--signing-key`, `signingKey`) cannot be used.
  case signingKey(SigningKeyError)
  /// Writing or reading a blob failed.
  case blob(path: String, error: BlobError)
  /// Guards refused the build (see ``BuildGuards``); the rejects report it
  /// computed was kept at `rejectsPath` (inside the store, under
  /// `refused/`), and its conflicts at `conflictsPath`.
  case refused([BuildRefusal], rejectsPath: String?, conflictsPath: String?)
  /// A date the build would write (the manifest's `published` or
  /// `expires`, from `--as-of` and `manifestLifetimeDays`) is past what a
  /// time stamp can hold (a four-digit year, ``UTCTime/latest``): a
  /// device would refuse the manifest as malformed.
  case dateOutOfRange(String)

  public var description: String {
    switch self {
    case .config(let error): error.description
    case .compile(let error): error.description
    case .store(let error): error.description
    case .signingKey(let error): error.description
    case .blob(let path, let error): "\(path): \(error)"
    case .refused(let refusals, _, _): refusals.map(\.message).joined(separator: "\nerror: ")
    case .dateOutOfRange(let message): message
    }
  }

  /// A name for the kind of failure, for `--json` (`rejectRatio`,
  /// `sourceRemoval`, … for a refusal; `config`, `source`, `store`, `locked`,
  /// `signingKey`, `blob`, `usage` otherwise).
  public var kind: String {
    switch self {
    case .config: "config"
    case .compile(.config): "config"
    case .compile(.source): "source"
    case .compile(.unknownRegion): "config"
    case .compile(.wrongRegion): "wrongRegion"
    case .compile(.report), .compile(.spill): "store"
    case .store(.locked): "locked"
    case .store(.capacity): "capacity"
    case .store(.datasetChanged): "dataset"
    case .store: "store"
    case .signingKey: "signingKey"
    case .blob: "blob"
    case .refused(let refusals, _, _): refusals.first?.kind.rawValue ?? "refused"
    case .dateOutOfRange: "usage"
    }
  }

  /// The source at fault, as the config writes it, when there is one.
  public var source: String? {
    switch self {
    case .refused(let refusals, _, _): refusals.first?.source
    case .compile(.wrongRegion(let finding)): finding.source
    default: nil
    }
  }
}
