import PhoneNumbers

/// The option byte of the normalizer harness (byte 0; the rest is the
/// text): 0 for no default region, otherwise one of the plan's regions
/// (`regionCodes[(byte - 1) % count]`); an odd byte also asks the batch
/// for each number's national format.
struct NormalizerOptions: Equatable {
  /// The plan's regions, in the order the byte indexes them.
  static let regionCodes = NumberingPlan.standard.regionCodes

  /// The byte itself (the harness keeps a reader per byte).
  var choice: Int

  init(_ input: inout FuzzInput) { choice = Int(input.takeByte()) }

  /// The option byte for `regionCode` (nil: no default region), odd when
  /// `national` is true and even when it is false, where the plan's
  /// regions allow it (nil: the first byte for the region).
  init?(regionCode: String?, national: Bool? = nil) {
    guard let regionCode else {
      choice = 0
      return
    }
    guard let index = Self.regionCodes.firstIndex(of: regionCode) else { return nil }
    let candidates = Array(stride(from: index + 1, through: 255, by: Self.regionCodes.count))
    let parity = national.map { $0 ? 1 : 0 }
    let wanted = candidates.first(where: { parity == nil || $0 % 2 == parity })
    guard let byte = wanted ?? candidates.first else { return nil }
    choice = byte
  }

  /// The default region's code (nil: none).
  var regionCode: String? { choice == 0 ? nil : Self.regionCodes[(choice - 1) % Self.regionCodes.count] }

  /// Whether the batch prints national formats too.
  var national: Bool { choice % 2 == 1 }

  var bytes: [UInt8] { [UInt8(choice)] }
}
