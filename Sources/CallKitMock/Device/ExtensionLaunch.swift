/// How the simulated system runs an extension's provider for a request.
public enum ExtensionLaunch: Hashable, Sendable {
  /// In the calling process, with a provider registered through
  /// ``SimulatedDevice/registerProvider(forExtensionWithIdentifier:_:)``.
  /// Same validation and store semantics, but no memory budget and no crash
  /// isolation. For unit tests and platforms without `posix_spawn`.
  case inProcess

  /// In a child process, spawned as `executablePath arguments…`, whose main
  /// calls ``CallDirectoryExtensionProcess/run(_:)``. The memory budget and
  /// the time limit are enforced and a crash only fails the request.
  case childProcess(executablePath: String, arguments: [String])
}
