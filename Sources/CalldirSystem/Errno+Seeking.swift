#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

extension Errno {
  /// The corresponding C error is `ESPIPE`: the file (a pipe, a FIFO, a
  /// terminal) cannot be read at an offset, only front to back.
  public static let illegalSeek = Errno(rawValue: ESPIPE)
}
