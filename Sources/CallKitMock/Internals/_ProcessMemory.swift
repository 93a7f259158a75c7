import CalldirSystem

/// A process's resident memory from `/proc/<pid>/status` (Linux only).
struct _ProcessMemory {
  /// `VmRSS`, in bytes.
  var residentBytes: Int
  /// `VmHWM`, the peak resident set, in bytes.
  var peakResidentBytes: Int

  /// Reads the counters of `pid`; `nil` when unavailable (not Linux, the
  /// process is gone or is a zombie, or the read failed).
  ///
  /// One `read`: procfs hands the whole (small) file to the first read of
  /// a large enough buffer, and the parent samples every few milliseconds.
  static func read(pid: Int32) -> _ProcessMemory? {
    guard let file = try? FileDescriptor.open("/proc/\(pid)/status", .readOnly) else { return nil }
    defer { try? file.close() }
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 8192, alignment: 1)
    defer { buffer.deallocate() }
    guard let count = try? file.read(into: buffer), count > 0 else { return nil }
    var resident: Int?
    var peak: Int?
    for line in buffer[0..<count].split(separator: UInt8(ascii: "\n")) {
      if line.starts(with: "VmRSS:".utf8) {
        resident = kilobytes(line)
      } else if line.starts(with: "VmHWM:".utf8) {
        peak = kilobytes(line)
      }
    }
    guard let resident, let peak else { return nil }
    return _ProcessMemory(residentBytes: resident * 1024, peakResidentBytes: peak * 1024)
  }

  private static func kilobytes(_ line: Slice<UnsafeMutableRawBufferPointer>) -> Int? {
    var value = 0
    var sawDigit = false
    for byte in line where byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
      value = value &* 10 &+ Int(byte - UInt8(ascii: "0"))
      sawDigit = true
    }
    return sawDigit ? value : nil
  }
}
