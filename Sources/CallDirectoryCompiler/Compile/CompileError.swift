import CallDirectorySources
import CalldirSystem

/// Why a build could not produce a snapshot. Messages are lowercase.
public enum CompileError: Error, CustomStringConvertible {
  /// The config is invalid.
  case config(ConfigError)
  /// A source could not be read as a whole.
  case source(SourceError)
  /// A source names a region the numbering plan does not know;
  /// `suggestion` is the region it most likely means, if any.
  case unknownRegion(keyPath: String, region: String, suggestion: String?)
  /// A report (rejects, conflicts) could not be written.
  case report(FileError)
  /// Sorted numbers could not be spilled to (or read back from) a temporary file.
  case spill(FileError)
  /// A source's numbers written without a country code are mostly invalid
  /// for its region (the wrong-region guard, `maxInvalidRatio`).
  case wrongRegion(WrongRegionFinding)

  public var description: String {
    switch self {
    case .config(let error): error.description
    case .source(let error): error.description
    case .unknownRegion(let keyPath, let region, let suggestion):
      "\(keyPath): unknown region '\(region)' (expected an ISO 3166 code such as US, or ZZ)"
        + (suggestion.map { "; did you mean '\($0)'?" } ?? "")
    case .report(let error): "cannot write a report: \(error)"
    case .spill(let error): "cannot spill sorted numbers: \(error)"
    case .wrongRegion(let finding): finding.description
    }
  }
}
