import CallDirectoryCompiler

/// Fuzzes `BuildConfig.parse(_:baseDirectory:)` on any bytes: it must
/// return a config or throw a `ConfigError`, whose description is built too.
///
/// Input: the config text (`BuildConfigInput`).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  var input = FuzzInput(data, size)
  let text = BuildConfigInput(&input).text
  do {
    let config = try BuildConfig.parse(text, baseDirectory: "/fuzz/config")
    _ = config.sources.map(\.path)
  } catch {
    _ = error.description
  }
  return 0
}
