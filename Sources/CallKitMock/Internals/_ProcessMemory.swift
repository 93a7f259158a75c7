#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A process's resident memory from `/proc/<pid>/status` (Linux only).
struct _ProcessMemory {
  /// `VmRSS`, in bytes.
  var residentBytes: Int
  /// `VmHWM`, the peak resident set, in bytes.
  var peakResidentBytes: Int

  /// Reads the counters of `pid`; `nil` when unavailable (not Linux, the
  /// process is gone or is a zombie).
  static func read(pid: pid_t) -> _ProcessMemory? {
    let fd = open("/proc/\(pid)/status", O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { _closeDescriptor(fd) }
    var bytes = [UInt8](repeating: 0, count: 8192)
    var count = 0
    while count < bytes.count {
      let got = bytes.withUnsafeMutableBytes { raw in Glibc.read(fd, raw.baseAddress! + count, raw.count - count) }
      if got < 0 && _currentErrno() == EINTR { continue }
      guard got > 0 else { break }
      count += got
    }
    var resident: Int?
    var peak: Int?
    for line in bytes[0..<count].split(separator: UInt8(ascii: "\n")) {
      if line.starts(with: Array("VmRSS:".utf8)) {
        resident = kilobytes(line)
      } else if line.starts(with: Array("VmHWM:".utf8)) {
        peak = kilobytes(line)
      }
    }
    guard let resident, let peak else { return nil }
    return _ProcessMemory(residentBytes: resident * 1024, peakResidentBytes: peak * 1024)
  }

  private static func kilobytes(_ line: ArraySlice<UInt8>) -> Int? {
    var value = 0
    var sawDigit = false
    for byte in line where byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
      value = value &* 10 &+ Int(byte - UInt8(ascii: "0"))
      sawDigit = true
    }
    return sawDigit ? value : nil
  }
}

/// Monotonic seconds.
func _monotonicSeconds() -> Double {
  var now = timespec()
  clock_gettime(CLOCK_MONOTONIC, &now)
  return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}
