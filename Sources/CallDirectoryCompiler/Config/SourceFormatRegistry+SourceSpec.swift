import CallDirectorySources

extension SourceFormatRegistry {
  /// Builds the reader for a configured source.
  ///
  /// - Throws: ``ConfigError`` when the format is not registered or an
  ///   option is unusable (a spec from ``BuildConfig`` parsed with this
  ///   registry has already passed these checks).
  public func makeReader(
    for spec: SourceSpec
  ) throws(ConfigError) -> any SourceReader {
    guard let format = self[spec.format] else {
      throw .invalidValue(
        keyPath: "\(spec.keyPath).format",
        reason: "unknown format '\(spec.format)' "
          + "(expected one of: \(names.joined(separator: ", ")))")
    }
    do {
      return try format.makeReader(input: spec.input, options: spec.options)
    } catch {
      throw .invalidValue(
        keyPath: "\(spec.keyPath).\(error.key)", reason: error.reason)
    }
  }
}
