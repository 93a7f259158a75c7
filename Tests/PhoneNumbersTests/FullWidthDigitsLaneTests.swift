import Testing

@testable import PhoneNumbers

/// Full-width digits and plus, transcoded to ASCII for the byte fast path,
/// must give exactly what the general path gives on the original text.
@Suite struct FullWidthDigitsLaneTests {
  let normalizer = PhoneNumberNormalizer()

  static let wide = Array("０１２３４５６７８９")

  /// `text` with its ASCII digits (and, when asked, its pluses) full-width.
  func widened(_ text: String, plus: Bool) -> String {
    String(text.map { character -> Character in
      if let value = character.asciiValue, (0x30...0x39).contains(value) { return Self.wide[Int(value - 0x30)] }
      if plus && character == "+" { return "＋" }
      return character
    })
  }

  func check(_ text: String, _ region: RegionMetadata?) -> Bool {
    let lane = Array(text.utf8).withUnsafeBufferPointer {
      normalizer.fullWidthPackedOutcome(utf8: $0, region: region, national: nil)
    }
    let general = normalizer.generalPackedOutcome(text, region: region)
    if lane != PackedOutcome.notHandled {
      #expect(lane == general, "\(text.debugDescription) / \(region?.regionCode ?? "none")")
    }
    let viaBytes = Array(text.utf8).withUnsafeBufferPointer { normalizer.normalize(utf8: $0, region: region) }
    #expect(viaBytes == PackedOutcome.result(general), "\(text.debugDescription)")
    return lane != PackedOutcome.notHandled
  }

  @Test(arguments: ["+1 212 555 0100", "(212) 555-0100", "212-555-0100", "12125550100", "+44 20 7946 0018", "Tel: +1 212 555 0100"])
  func commonShapesTakeTheLane(_ text: String) {
    let us = normalizer.plan.region("US")
    #expect(check(widened(text, plus: true), us))
    #expect(check(widened(text, plus: false), us))
  }

  @Test func agreesWithTheGeneralPathOnGeneratedInputs() {
    var generator = InputGenerator(seed: 8_086, plan: normalizer.plan)
    var random = AgreementRandom(seed: 5)
    var answered = 0
    let count = 20_000
    for _ in 0..<count {
      let (input, region) = generator.next()
      if check(widened(input, plus: random.next() % 2 == 0), region) { answered += 1 }
    }
    #expect(answered > count / 4)
    // Other full-width characters and ill-formed bytes are left alone.
    for text in ["＋１ ２１２－５５５－０１００", "２１２\u{A0}５５５", "ｘ１２３"] {
      let lane = Array(text.utf8).withUnsafeBufferPointer {
        normalizer.fullWidthPackedOutcome(utf8: $0, region: normalizer.plan.region("US"), national: nil)
      }
      #expect(lane == PackedOutcome.notHandled, "\(text)")
    }
  }
}
