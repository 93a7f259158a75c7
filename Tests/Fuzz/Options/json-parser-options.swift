/// The option byte of the json-parser harness (byte 0; the rest is the
/// document): the nesting limit, 1...64 (byte + 1), or the parser's
/// default 512 for bytes from 64.
struct JSONParserOptions: Equatable {
  var maxDepth: Int

  init(maxDepth: Int) { self.maxDepth = maxDepth }

  init(_ input: inout FuzzInput) {
    let choice = Int(input.takeByte())
    maxDepth = choice < 64 ? choice + 1 : 512
  }

  /// The option byte that decodes to this limit (any limit past 64 is 512).
  var bytes: [UInt8] { [maxDepth <= 64 ? UInt8(max(maxDepth, 1) - 1) : 0xFF] }
}
