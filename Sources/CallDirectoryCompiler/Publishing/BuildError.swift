import CallDirectoryFormat

/// Why `calldir build` published nothing.
public enum BuildError: Error, CustomStringConvertible {
  case config(ConfigError)
  case compile(CompileError)
  case store(StoreError)
  /// Writing or reading a blob failed.
  case blob(path: String, error: BlobError)
  /// The new snapshot would drop too much of the previous one (`maxRemovalRatio`).
  case removalGuard(removed: Int, previous: Int, previousVersion: Int, limit: Double)

  public var description: String {
    switch self {
    case .config(let error): error.description
    case .compile(let error): error.description
    case .store(let error): error.description
    case .blob(let path, let error): "\(path): \(error)"
    case .removalGuard(let removed, let previous, let version, let limit):
      "the new snapshot drops \(removed) of the \(previous) entries of version \(version) "
        + "(\(Self.percent(removed, of: previous)), above maxRemovalRatio \(limit)); "
        + "nothing published (a truncated source?); use --force to publish anyway"
    }
  }

  private static func percent(_ part: Int, of whole: Int) -> String {
    guard whole > 0 else { return "0%" }
    let tenths = (part * 1000 + whole / 2) / whole
    return "\(tenths / 10).\(tenths % 10)%"
  }
}
