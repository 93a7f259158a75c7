/// The option bytes of the provider-loader harness (the rest is the blob):
/// byte 0 bit 0 reseals the checksums, bit 1 replaces rather than completes
/// a full snapshot, bit 2 verifies the content digest; byte 1 is the batch
/// size (1 + byte % 64).
struct ProviderLoaderOptions: Equatable {
  var reseals: Bool
  var replaces: Bool
  var verifiesDigest: Bool
  var batchSize: Int

  init(reseals: Bool = false, replaces: Bool = false, verifiesDigest: Bool = false, batchSize: Int) {
    self.reseals = reseals
    self.replaces = replaces
    self.verifiesDigest = verifiesDigest
    self.batchSize = batchSize
  }

  init(_ input: inout FuzzInput) {
    let byte = input.takeByte()
    self.init(
      reseals: byte & 1 != 0, replaces: byte & 2 != 0, verifiesDigest: byte & 4 != 0,
      batchSize: 1 + Int(input.takeByte() % 64))
  }

  /// The option bytes that decode to these options (a batch size of 1...64).
  var bytes: [UInt8] {
    [(reseals ? 1 : 0) | (replaces ? 2 : 0) | (verifiesDigest ? 4 : 0), UInt8((batchSize - 1) & 63)]
  }
}
