import CalldirSystem

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// How much memory a build may use for the numbers it collects.
public enum MemoryLimit {
  /// The share of the machine's memory a build takes by default.
  public static let defaultShare = 0.5
  /// What a build needs besides its collected numbers: the program, the
  /// numbering plan, reading and merging buffers.
  public static let reservedBytes = 40 << 20
  /// The smallest limit a build accepts.
  public static let minimumBytes = 64 << 20

  /// Half of the memory available to this process: physical memory, or a
  /// smaller cgroup limit when one is set.
  public static func defaultBytes() -> Int {
    let pages = sysconf(Int32(_SC_PHYS_PAGES))
    let pageSize = sysconf(Int32(_SC_PAGESIZE))
    var available = pages > 0 && pageSize > 0 ? pages * pageSize : 4 << 30
    for path in ["/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"] {
      if let bytes = try? FileSystem.contents(of: path, limit: 64),
        let limit = Int(String(decoding: bytes, as: UTF8.self).filter { !$0.isWhitespace }), limit > 0
      {
        available = min(available, limit)
      }
    }
    return Int(Double(available) * defaultShare)
  }

  /// Parses a size such as `4G`, `1.5GiB`, `800m` or `1048576` (bytes);
  /// K, M, G and T are powers of 1024. Nil when malformed or below one byte.
  public static func parse(_ text: String) -> Int? {
    var number = Substring(text.trimmingASCIIWhitespace())
    var unit = ""
    while let last = number.last, last.isLetter {
      unit.insert(last, at: unit.startIndex)
      number.removeLast()
    }
    var shifts: [String: Int] = ["": 0, "b": 0]
    for (letter, shift) in [("k", 10), ("m", 20), ("g", 30), ("t", 40)] {
      for suffix in ["", "b", "ib"] { shifts[letter + suffix] = shift }
    }
    guard let shift = shifts[unit.lowercased()], !number.isEmpty,
      number.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }), let value = Double(number)
    else { return nil }
    let bytes = (value * Double(1 << shift)).rounded(.down)
    guard bytes >= 1, bytes < 0x1p62 else { return nil }
    return Int(bytes)
  }
}
