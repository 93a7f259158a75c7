import Testing

@testable import PhoneNumbers

/// The word-at-a-time lane for short formatted lines must answer for the
/// shapes lists are written in, and give exactly what the general path
/// gives, on every mix of digits, `+` and separators of 8 to 16 bytes.
@Suite struct ShortFormattedLaneTests {
  let normalizer = PhoneNumberNormalizer()

  /// The lane's outcome for `text`, and the general path's.
  func outcomes(_ text: String, _ region: RegionMetadata?) -> (lane: Int64, general: Int64) {
    let lane = Array(text.utf8).withUnsafeBufferPointer {
      PhoneNumberNormalizer.shortFormattedPackedOutcome(utf8: $0, hasRegion: region != nil) { digits, startsWithPlus in
        normalizer.resolve(digits, startsWithPlus: startsWithPlus, region: region)
      }
    }
    return (lane, normalizer.generalPackedOutcome(text, region: region))
  }

  @Test(arguments: ["(212) 555-1234", "212-555-1234", "+1 212 555 1234", "12125551234", "212.555.1234", "+442079460018"])
  func commonShapesTakeTheLane(_ text: String) {
    let (lane, general) = outcomes(text, normalizer.plan.region("US"))
    #expect(lane != PackedOutcome.notHandled)
    #expect(lane == general)
  }

  @Test func agreesWithTheGeneralPathOnGeneratedShapes() {
    var random = AgreementRandom(seed: 31_337)
    let alphabet = Array("0123456789+ ()*-./")
    let regions: [RegionMetadata?] = [nil] + ["US", "GB", "DE", "FR", "AR", "BR", "RU", "IT", "AU", "IN", "MX", "AG", "CN", "JP"]
      .map { normalizer.plan.region($0) }
    var answered = 0
    let count = 60_000
    for index in 0..<count {
      let length = 8 + Int(random.next() % 9)
      var text: String
      if index % 2 == 0 {
        // Digits with a few separators, sometimes a leading +.
        text = random.next() % 3 == 0 ? "+" : ""
        while text.count < length {
          let next = random.next() % 5 == 0 ? alphabet[10 + Int(random.next() % 8)] : alphabet[Int(random.next() % 10)]
          text.append(next)
        }
      } else {
        text = String((0..<length).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] })
      }
      let region = regions[Int(random.next() % UInt64(regions.count))]
      let (lane, general) = outcomes(text, region)
      if lane != PackedOutcome.notHandled {
        answered += 1
        #expect(lane == general, "\(text.debugDescription) / \(region?.regionCode ?? "none")")
      }
    }
    // Half the inputs are digit runs the lane must take.
    #expect(answered > count / 3)
  }

  @Test func byteClassesMatchTheByteLoop() {
    for byte in 0...255 {
      let word = UInt64(byte) | 0x3030_3030_3030_3000
      let classes = PhoneNumberNormalizer.byteClasses(word)
      let isDigit = (0x30...0x39).contains(byte)
      let isSeparator = [0x20, 0x28, 0x29, 0x2A, 0x2D, 0x2E, 0x2F].contains(byte)
      #expect((classes.digits & 1 != 0) == isDigit, "\(byte)")
      #expect((classes.pluses & 1 != 0) == (byte == 0x2B), "\(byte)")
      #expect(classes.allowed == (isDigit || isSeparator || byte == 0x2B), "\(byte)")
      #expect(classes.digits >> 1 == 0x7F, "\(byte)")
    }
  }
}
