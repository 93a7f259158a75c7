/// How a text's lines end where tools disagree: in LF (or CR LF), or in CR
/// alone (classic Mac OS text, Excel for Mac's "CSV (Macintosh)"), which
/// readers hand on as LF.
public enum LineEndings {
  /// How much of a text's start ``endInCarriageReturnsAlone(_:)`` looks at.
  public static let sampleBytes = 4096

  /// Whether a text that starts with `sample` (its first ``sampleBytes``,
  /// or all of it) ends its lines in CR alone: the sample holds a CR
  /// before another byte, and no LF.
  public static func endInCarriageReturnsAlone(_ sample: UnsafeBufferPointer<UInt8>) -> Bool {
    !sample.contains(0x0A) && sample.dropLast().contains(0x0D)
  }

  /// Turns each CR in `bytes` into LF.
  public static func replaceCarriageReturns(_ bytes: UnsafeMutableBufferPointer<UInt8>) {
    for index in bytes.indices where bytes[index] == 0x0D { bytes[index] = 0x0A }
  }
}
