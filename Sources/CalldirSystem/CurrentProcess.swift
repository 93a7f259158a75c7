#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Facts about the running process.
public enum CurrentProcess {
  /// The process identifier (for names of temporary files).
  public static var id: Int32 { getpid() }

  /// The working directory, absolute; `/` when it cannot be read.
  public static var workingDirectory: String {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    guard getcwd(&buffer, buffer.count) != nil else { return "/" }
    let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Makes writes to a closed pipe fail with `EPIPE` instead of killing
  /// the process.
  public static func ignoreBrokenPipes() {
    _ = signal(SIGPIPE, SIG_IGN)
  }

  /// Ends the process with `status`. The corresponding C call is `exit`.
  public static func exit(_ status: Int32) -> Never {
    #if canImport(Glibc)
      Glibc.exit(status)
    #elseif canImport(Musl)
      Musl.exit(status)
    #elseif canImport(Darwin)
      Darwin.exit(status)
    #endif
  }

  /// The value of an environment variable.
  public static func environment(_ name: String) -> String? {
    getenv(name).map { String(cString: $0) }
  }
}
