import Testing

@testable import PhoneNumbers

/// Every way into the normalizer (the String API, the byte API, the byte
/// fast path) must give exactly what the general path gives, which the
/// oracle corpus pins to libphonenumber.
@Suite struct FastPathAgreementTests {
  let normalizer = PhoneNumberNormalizer()

  /// Every way to normalize `input` agrees with the general path.
  func checkAgreement(_ input: String, _ region: RegionMetadata?, sourceLocation: SourceLocation = #_sourceLocation) {
    let expected = PackedOutcome.result(normalizer.generalPackedOutcome(input, region: region))
    let viaString = normalizer.normalize(input, region: region)
    let bytes = Array(input.utf8)
    let (viaBytes, fast) = bytes.withUnsafeBufferPointer { buffer in
      (normalizer.normalize(utf8: buffer, region: region), normalizer.fastPackedOutcome(utf8: buffer, region: region))
    }
    let label = "\(input.debugDescription) / \(region?.regionCode ?? "none")"
    #expect(viaString == expected, "string API: \(label)", sourceLocation: sourceLocation)
    #expect(viaBytes == expected, "byte API: \(label)", sourceLocation: sourceLocation)
    if fast != PackedOutcome.notHandled {
      #expect(PackedOutcome.result(fast) == expected, "fast path: \(label)", sourceLocation: sourceLocation)
    }
    if let exact = bytes.withUnsafeBufferPointer({ normalizer.exactE164(utf8: $0) }) {
      #expect(.success(exact) == expected, "exact E.164 path: \(label)", sourceLocation: sourceLocation)
    }
  }

  @Test func eightDigitWordsAreTestedAndReadByteByByte() {
    func word(_ bytes: [UInt8]) -> UInt64 {
      bytes.enumerated().reduce(UInt64(0)) { $0 | UInt64($1.element) << UInt64(8 * $1.offset) }
    }
    let digits = Array("31415926".utf8)
    #expect(PhoneNumberNormalizer.areEightDigits(word(digits)))
    #expect(PhoneNumberNormalizer.eightDigitValue(word(digits)) == 31_415_926)
    #expect(PhoneNumberNormalizer.eightDigitValue(word(Array("99999999".utf8))) == 99_999_999)
    #expect(PhoneNumberNormalizer.eightDigitValue(word(Array("00000001".utf8))) == 1)
    // Every byte value in every position: a digit only for "0"..."9".
    for position in 0..<8 {
      for byte in 0...255 {
        var bytes = digits
        bytes[position] = UInt8(byte)
        #expect(PhoneNumberNormalizer.areEightDigits(word(bytes)) == (0x30...0x39).contains(byte), "\(byte) at \(position)")
      }
    }
  }

  /// `+` and digits for every calling code, national numbers of every
  /// length starting with every digit (national prefixes included), in
  /// every region the plan's codes name and with none.
  @Test func exactE164PathAgreesForEveryCallingCode() {
    var state: UInt64 = 0x2545_F491_4F6C_DD1D
    func nextDigit() -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int(state >> 33) % 10
    }
    var answered = 0
    var asked = 0
    for code in 1..<1000 where normalizer.plan.isCallingCode(code) {
      for length in 0...15 {
        for first in 0..<10 {
          var national = length > 0 ? String(first) : ""
          while national.count < length { national += String(nextDigit()) }
          let input = "+\(code)\(national)"
          for region in [nil, normalizer.plan.region("US"), normalizer.plan.region("DE")] { checkAgreement(input, region) }
          asked += 1
          if Array(input.utf8).withUnsafeBufferPointer({ normalizer.exactE164(utf8: $0) }) != nil { answered += 1 }
        }
      }
    }
    // Most lengths of most codes are impossible (about a sixth answer); a
    // tenth is a floor that still catches a path that stopped answering.
    #expect(answered > asked / 10)
    for text in ["+", "+1", "+12", "+0123456789", "+1 2025550123", "+12025550123 ", "++12025550123", "+1202555012a"] {
      #expect(Array(text.utf8).withUnsafeBufferPointer({ normalizer.exactE164(utf8: $0) }) == nil, "\(text)")
    }
    #expect(Array("+12025550123".utf8).withUnsafeBufferPointer({ normalizer.exactE164(utf8: $0) }) == 12_025_550_123)
  }

  @Test func agreesOnTheCorpus() throws {
    for item in try CorpusCase.load() {
      let region = item.region == "ZZ" ? nil : normalizer.plan.region(item.region)
      checkAgreement(item.input, region)
      // The corpus numbers read against other regions as well.
      for code in ["US", "GB", "AR", "BR", "RU"] { checkAgreement(item.input, normalizer.plan.region(code)) }
    }
  }

  /// Numbers with an extension after them, in every form libphonenumber
  /// strips (labels, `x`, `#`, `~`, commas, `- 503#`, `;ext=`), with every
  /// digit count around the forms' limits, and what must not be stripped
  /// so: too few digits before it, a byte past the last digit that breaks
  /// the number, a `/` before an `x`, a label inside the number, an
  /// extension that does not end the text. The fast path must take the
  /// plain ones.
  @Test func agreesOnNumbersWithExtensions() {
    let numbers = [
      "212-555-0100", "(212) 555-0100", "+1 212 555 0100", "2125550100", "+44 20 7946 0958", "020 7946 0958",
      "030 1234567", "+49 30 1234567", "011 44 20 7946 0958", "555-0100", "12", "123", "+1", "212-555-0100-",
      "212-555-0100 -", "212-555-0100.", "212-555-0100!", "212-555-0100+", "212/555-0100", "=\"2125550100\"",
      "Tel: 212-555-0100", "1-800-FLOWERS", "212 555 0100 (",
    ]
    let labels = [
      " ext. ", " ext ", " EXT.", "ext", " ext: ", " extn ", " extension ", " Extension-", " extensión ", " anexo ",
      " x", " X ", " x. ", " #", "#", " ~", " int ", " ;ext=", ";ext=", ";", " ;", ",,", ", ,", ",", ",,,", "- ",
      " -", "\t ext\t", " доб ", " ｘ",
    ]
    let extensions = ["1", "45", "503#", "123456", "1234567", "123456789", "1234567890", "123456789012345",
      "1234567890123456", "12345678901234567890", "123456789012345678901", "12#", "5 ", "5a", ""]
    var handled = 0
    var asked = 0
    for number in numbers {
      for label in labels {
        for digits in extensions {
          let input = number + label + digits
          for region in [normalizer.plan.region("US"), normalizer.plan.region("GB"), nil] {
            checkAgreement(input, region)
            asked += 1
            let fast = Array(input.utf8).withUnsafeBufferPointer { normalizer.fastPackedOutcome(utf8: $0, region: region) }
            if fast != PackedOutcome.notHandled { handled += 1 }
          }
        }
      }
    }
    #expect(handled > asked / 4)
  }

  @Test func agreesOnGeneratedInputs() {
    var generator = InputGenerator(seed: 20_260_101, plan: normalizer.plan)
    var handled = 0
    let count = 40_000
    for _ in 0..<count {
      let (input, region) = generator.next()
      checkAgreement(input, region)
      let fast = Array(input.utf8).withUnsafeBufferPointer { normalizer.fastPackedOutcome(utf8: $0, region: region) }
      if fast != PackedOutcome.notHandled { handled += 1 }
    }
    // About a third of the generated inputs are plain ASCII numbers: the fast
    // path must take them, or it has silently stopped working.
    #expect(handled > count / 4)
  }

  @Test func byteAPIReadsIllFormedUTF8AsItsRepairedText() {
    let us = normalizer.plan.region("US")
    let samples: [[UInt8]] = [
      [0x32, 0x31, 0x32, 0xFF, 0x35, 0x35, 0x35, 0x30, 0x31, 0x30, 0x30],
      Array("+44 20 7946 0018".utf8) + [0xC3],
      [0xE2, 0x80] + Array("212 555 0100".utf8),
      Array("(212) 555".utf8) + [0xED, 0xA0, 0x80] + Array("-0100".utf8),
      [0xEF, 0xBC, 0x8B] + Array("1 212 555 0100".utf8),  // full-width plus
    ]
    for bytes in samples {
      let text = String(decoding: bytes, as: UTF8.self)
      for region in [us, nil, normalizer.plan.region("GB")] {
        let expected = normalizer.normalize(text, region: region)
        let actual = bytes.withUnsafeBufferPointer { normalizer.normalize(utf8: $0, region: region) }
        #expect(actual == expected, "\(bytes)")
      }
    }
  }

  @Test(arguments: [
    "(202) 274-8779", "202-274-8779", "202.274.8779", "2022748779", "1-202-274-8779", "+1 202 274 8779",
    "+12022748779", "011 44 20 7946 0018", "+44 (0)20 7946 0018", "=\"2125550100\"", "Tel: +1 212 555 0100",
    "", "  ", "N/A", "12", "+1", "+ +1 212 555 0100", "*67 212 555 0100", "212_555_0100", "0000000000", "tel:+1-212-555-0100",
    "212 555 0100 ext 12", "212-555-0100,,9", "212-555-0100 #77", "(212) 555-0100 x 5",
  ])
  func plainInputsTakeTheFastPath(_ input: String) {
    let us = normalizer.plan.region("US")
    let fast = Array(input.utf8).withUnsafeBufferPointer { normalizer.fastPackedOutcome(utf8: $0, region: us) }
    #expect(fast != PackedOutcome.notHandled)
    checkAgreement(input, us)
  }

  @Test(arguments: [
    "1-800-FLOWERS", "tel:+1-212-555-0100;isub=1", "212-555-0100;ext=1", "1-800-FLOWERS ext 12",
    "２１２ ５５５ ０１００", "212\u{A0}555\u{A0}0100", "212~555~0100", "212/555-0100 x 5", "12 ext 5",
  ])
  func otherInputsAreHandedOver(_ input: String) {
    let us = normalizer.plan.region("US")
    let fast = Array(input.utf8).withUnsafeBufferPointer { normalizer.fastPackedOutcome(utf8: $0, region: us) }
    #expect(fast == PackedOutcome.notHandled)
    checkAgreement(input, us)
  }
}

/// Deterministic phone-number-like inputs: numbers in the formats lists use,
/// with prefixes, punctuation, extensions, letters, other scripts' digits,
/// `tel:` URIs and junk, each with a default region (or none).
struct InputGenerator {
  var random: AgreementRandom
  let plan: NumberingPlan
  let regions: [RegionMetadata?]

  init(seed: UInt64, plan: NumberingPlan) {
    random = AgreementRandom(seed: seed)
    self.plan = plan
    var regions: [RegionMetadata?] = [nil]
    for code in ["US", "US", "US", "GB", "DE", "FR", "IT", "AR", "BR", "AU", "RU", "MX", "AG", "CN", "CO", "IN", "JP"] {
      regions.append(plan.region(code))
    }
    regions += plan.regionCodes.map { plan.region($0) }
    self.regions = regions
  }

  mutating func int(_ bound: Int) -> Int { Int(random.next() % UInt64(bound)) }
  mutating func pick<T>(_ items: [T]) -> T { items[int(items.count)] }
  mutating func digits(_ count: Int) -> String { String((0..<count).map { _ in Character(String(int(10))) }) }

  static let prefixes = [
    "", "", "", "", "+", "+", "+1 ", "1 ", "1-", "0", "00", "011 ", "8 10 ", "0011 ", "++", "+0", "(", "Tel: ",
    "=\"", "0 ", "+54 9 ", "+7 8 ", "+39 0", "+44 (0)", "810",
  ]
  static let separators = [" ", " ", "-", "-", ".", "", "", "", "/", "(", ")", "[", "]", "*", "~", "_", "\t", "\u{A0}", "\u{2011}", "+"]
  static let suffixes = [
    "", "", "", "", "", "", " ext 12", " x5", " ext. 305", ";ext=1", ",,9", " #77", "#", "-12#", " (cell)", ".0", " / x12",
    ",", ";", " ", "\"", "_", "x", " ext", ";isub=12", " доб 7",
  ]
  static let scripts: [[Character]] = [
    Array("０１２３４５６７８９"), Array("٠١٢٣٤٥٦٧٨٩"), Array("۰۱۲۳۴۵۶۷۸۹"), Array("०१२३४५६७८९"),
  ]

  mutating func number() -> String {
    var text = pick(Self.prefixes)
    let groups = 1 + int(5)
    for group in 0..<groups {
      if group > 0 && int(3) != 0 { text += pick(Self.separators) }
      text += digits(1 + int(5))
    }
    return text + pick(Self.suffixes)
  }

  mutating func next() -> (String, RegionMetadata?) {
    let region = pick(regions)
    var text: String
    switch int(20) {
    case 0:
      text = String((0..<int(20)).map { _ in pick(Array("0123456789 +-().x#;,abcEXT*~\u{A0}")) })
    case 1:
      text = pick(["tel:", ""]) + digits(3 + int(9)) + pick([
        ";phone-context=+44", ";phone-context=example.com", ";phone-context=", ";phone-context=+", ";isub=12",
        ";foo=bar", ";phone-context=+1-2", ";phone-context=a-b.c1",
      ])
    case 2:
      text = pick(["1-800-", "0800 ", "+1 800 ", "1 (888) "]) + pick(["FLOWERS", "GOT-JUNK", "CALL-NOW", "MICROSOFT", "ab", "x1234"])
    case 3:
      let script = pick(Self.scripts)
      text = String(number().map { $0.isASCII && $0.isNumber ? script[Int($0.asciiValue! - 48)] : $0 })
    case 4:
      // A real-looking number of a random calling code.
      let code = pick(plan.callingCodes)
      text = "+\(code) " + digits(4 + int(9))
    case 5:
      text = digits(int(30))
    default:
      text = number()
    }
    return (text, region)
  }
}

/// SplitMix64, local to these tests.
struct AgreementRandom {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
