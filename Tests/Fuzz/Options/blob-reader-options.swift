/// The option byte of the blob-reader harness (byte 0; the rest is the
/// blob): bit 0 reseals the checksums (`BlobResealing`), bit 1 recomputes
/// the content digest in `verify()`, bits 2–3 pick one of the four reads.
struct BlobReaderOptions: Equatable {
  /// The reads bits 2–3 pick.
  enum Read: UInt8, CaseIterable {
    case verify, sections, lookups, labelsAndWholeBlob
  }

  var reseals: Bool
  var recomputesDigest: Bool
  var read: Read

  init(reseals: Bool = false, recomputesDigest: Bool = false, read: Read) {
    self.reseals = reseals
    self.recomputesDigest = recomputesDigest
    self.read = read
  }

  init(_ input: inout FuzzInput) {
    let byte = input.takeByte()
    self.init(reseals: byte & 1 != 0, recomputesDigest: byte & 2 != 0, read: Read(rawValue: (byte >> 2) & 3) ?? .verify)
  }

  /// The option byte that decodes to these options.
  var bytes: [UInt8] { [(reseals ? 1 : 0) | (recomputesDigest ? 2 : 0) | read.rawValue << 2] }
}
