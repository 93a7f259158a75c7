/// The option byte of the dataset-validator harness (byte 0; the rest is
/// the input): bits 0–1 how many violations to report (`reportLimits`),
/// bit 2 a 64-byte line limit, bit 3 reports control characters, bit 4
/// recomputes a full snapshot's digest, bit 5 reseals a blob's checksums.
struct DatasetValidatorOptions: Equatable {
  static let reportLimits: [Int?] = [nil, 0, 1, 20]

  var maxReported: Int?
  var shortLines: Bool
  var reportsControlCharacters: Bool
  var recomputesDigest: Bool
  var reseals: Bool

  init(
    maxReported: Int? = nil, shortLines: Bool = false, reportsControlCharacters: Bool = false,
    recomputesDigest: Bool = false, reseals: Bool = false
  ) {
    self.maxReported = maxReported
    self.shortLines = shortLines
    self.reportsControlCharacters = reportsControlCharacters
    self.recomputesDigest = recomputesDigest
    self.reseals = reseals
  }

  init(_ input: inout FuzzInput) {
    let byte = input.takeByte()
    self.init(
      maxReported: Self.reportLimits[Int(byte & 3)], shortLines: byte & 4 != 0, reportsControlCharacters: byte & 8 != 0,
      recomputesDigest: byte & 16 != 0, reseals: byte & 32 != 0)
  }

  /// The line limit the validator gets.
  var maxLineLength: Int { shortLines ? 64 : 1 << 20 }

  /// The option byte that decodes to these options.
  var bytes: [UInt8] {
    let limit = UInt8(Self.reportLimits.firstIndex(of: maxReported) ?? 0)
    return [
      limit | (shortLines ? 4 : 0) | (reportsControlCharacters ? 8 : 0) | (recomputesDigest ? 16 : 0) | (reseals ? 32 : 0)
    ]
  }
}
