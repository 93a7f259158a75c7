import CallDirectoryCompiler

/// Fuzzes `BuildConfig.parse(_:baseDirectory:)` on any bytes: it must
/// return a config or throw a `ConfigError`, whose description is built too.
///
/// Input: the config text.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let text = Array(UnsafeBufferPointer(start: data, count: size))
  do {
    let config = try BuildConfig.parse(text, baseDirectory: "/fuzz/config")
    _ = config.sources.map(\.path)
  } catch {
    _ = error.description
  }
  return 0
}

/// Builds the format registry and its presets before the first input: they
/// are process-wide constants, and LeakSanitizer, which cannot follow
/// Swift's bit-packed references, would report them as leaked by whichever
/// input happened to build them.
@_cdecl("LLVMFuzzerInitialize")
public func initialize(
  _ argc: UnsafeMutablePointer<CInt>,
  _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>
) -> CInt {
  _ = SourceFormatRegistry.standard.names.map { SourceFormatRegistry.standard[$0]?.preset }
  return 0
}
