#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Large buffers backed by huge pages where the system offers them.
public enum HugePages {
  /// Below this, a buffer is left to the ordinary pages.
  static let size = 2 << 20

  /// Asks the kernel to back the whole 2 MiB pages inside the `byteCount`
  /// bytes at `base` with huge pages (Linux's `MADV_HUGEPAGE`; transparent
  /// huge pages in `madvise` mode give none otherwise): a buffer of
  /// hundreds of megabytes then faults in a page per 2 MiB instead of one
  /// per 4 KiB. Call it before the pages are first written. Advice only:
  /// without huge pages (other systems, `never` mode) nothing changes.
  public static func advise(_ base: UnsafeMutableRawPointer, byteCount: Int) {
    #if os(Linux)
      guard byteCount >= 2 * size else { return }
      let start = (Int(bitPattern: base) + size - 1) & ~(size - 1)
      let end = (Int(bitPattern: base) + byteCount) & ~(size - 1)
      guard end > start, let aligned = UnsafeMutableRawPointer(bitPattern: start) else { return }
      _ = madvise(aligned, end - start, MADV_HUGEPAGE)
    #endif
  }
}
