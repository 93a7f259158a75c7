import FormatFixtures
import Testing

@testable import PhoneNumbers

/// The reader that remembers how numbers were read answers every input
/// exactly as the normalizer does, result and `writtenNationally` alike,
/// in every region and whatever came before; and the shapes it remembers
/// hold for every digit string they claim.
@Suite struct FormattedNumberReaderTests {
  let normalizer = PhoneNumberNormalizer()

  func check(_ inputs: [String], region: RegionMetadata?, sourceLocation: SourceLocation = #_sourceLocation) {
    let reader = FormattedNumberReader(normalizer, region: region)
    for input in inputs {
      let bytes = Array(input.utf8)
      var readerNational = false
      var normalizerNational = false
      let (remembered, expected) = bytes.withUnsafeBufferPointer { buffer in
        (
          reader.normalize(utf8: buffer, writtenNationally: &readerNational),
          normalizer.normalize(utf8: buffer, region: region, writtenNationally: &normalizerNational)
        )
      }
      let label = "\(input.debugDescription) / \(region?.regionCode ?? "none")"
      #expect(remembered == expected, "\(label)", sourceLocation: sourceLocation)
      #expect(readerNational == normalizerNational, "writtenNationally: \(label)", sourceLocation: sourceLocation)
    }
  }

  /// Digits `pattern` matches at its start, as text ("" without one).
  func sample(_ pattern: DigitPattern?, _ generator: inout SplitMix64) -> String {
    pattern?.sampleMatch(using: &generator).map { $0.map(String.init).joined() } ?? ""
  }

  /// Numbers of every region in the forms lists hold them (national, with
  /// the national prefix, with the calling code with and without `+`,
  /// after the international prefix, with separators), each followed by
  /// itself with one digit changed at each place and by neighbours that
  /// share all but their last digits, so that remembered shapes are both
  /// hit and nearly hit.
  @Test func agreesWithTheNormalizerInEveryRegion() {
    var generator = SplitMix64(seed: 11)
    func digits(_ count: Int) -> String {
      String((0..<count).map { _ in Character(String(generator.next(below: 10))) })
    }
    func formatted(_ number: String) -> String {
      var text = ""
      for (index, character) in number.enumerated() {
        if index > 0 && generator.next(below: 4) == 0 { text += [" ", "-", ") ", " ("][Int(generator.next(below: 4))] }
        text.append(character)
      }
      return text
    }
    for code in normalizer.plan.regionCodes {
      guard let region = normalizer.plan.region(code) else { continue }
      let callingCode = String(region.callingCode)
      var inputs: [String] = []
      for _ in 0..<6 {
        // Prefixes the region's patterns match (the pattern itself when it
        // is plain digits).
        let nationalPrefix = sample(region.nationalPrefixForParsing, &generator)
        let internationalPrefix = sample(region.internationalPrefix, &generator)
        let national = digits(Int(generator.next(below: 9)) + 4)
        let forms = [
          national, nationalPrefix + national, callingCode + national, "+" + callingCode + national,
          "+" + callingCode + nationalPrefix + national, internationalPrefix + callingCode + national,
          callingCode + nationalPrefix + national,
        ]
        for form in forms {
          inputs.append(form)
          inputs.append(formatted(form))
          for position in form.indices {
            guard form[position] != "+" else { continue }
            var changed = form
            changed.replaceSubrange(position...position, with: String(generator.next(below: 10)))
            inputs.append(changed)
            inputs.append(form)
          }
          let stem = form.dropLast(min(3, form.count - 1))
          for _ in 0..<8 { inputs.append(stem + digits(form.count - stem.count)) }
          inputs.append(form + digits(1))
          inputs.append(String(form.dropLast()))
        }
      }
      check(inputs, region: region)
      var shuffled = inputs
      shuffled.shuffle(using: &generator)
      check(shuffled, region: region)
    }
  }

  /// Without a region only numbers with `+` can be read.
  @Test func agreesWithoutARegion() {
    check(["+1 212 555 0100", "212 555 0100", "+44 20 7946 0018", "+44 (0) 20 7946 0018", "+442079460018", "+1 212 555 0199"], region: nil)
  }

  /// The libphonenumber oracle corpus, one reader per region, read twice
  /// (the second time from what the first taught it).
  @Test func agreesOnTheOracleCorpus() throws {
    let cases = try CorpusCase.load()
    let byRegion = Dictionary(grouping: cases, by: \.region)
    for (code, group) in byRegion.sorted(by: { $0.key < $1.key }) {
      let region = code == "ZZ" ? nil : normalizer.plan.region(code)
      let inputs = group.map(\.input)
      check(inputs + inputs, region: region)
    }
  }

  /// Every shape holds for every digit string it claims: digit strings of
  /// the same length, `+` and first deciding digits, with their other
  /// digits random, resolve to the calling code and their digits from
  /// `skip` on, written nationally as the shape says.
  @Test func shapesHoldForEveryDigitStringAlikeInTheirDecidingDigits() {
    var generator = SplitMix64(seed: 12)
    var shapes = 0
    var strippingShapes = 0
    for code in normalizer.plan.regionCodes {
      guard let region = normalizer.plan.region(code) else { continue }
      for _ in 0..<24 {
        let prefixes = [[], Array(String(region.callingCode).utf8).map { $0 - 0x30 }] + [
          region.nationalPrefixForParsing?.sampleMatch(using: &generator),
          region.internationalPrefix?.sampleMatch(using: &generator),
        ].compactMap { $0 }
        let prefix = prefixes[Int(generator.next(below: UInt64(prefixes.count)))]
        let count = prefix.count + Int(generator.next(below: 12)) + 2
        let number = prefix + (prefix.count..<count).map { _ in UInt8(generator.next(below: 10)) }
        let startsWithPlus = generator.next(below: 3) == 0
        guard let shape = number.withUnsafeBufferPointer({
          normalizer.resolutionShape($0, startsWithPlus: startsWithPlus, region: region)
        }) else { continue }
        shapes += 1
        if shape.national && shape.skip > 0 { strippingShapes += 1 }
        for _ in 0..<16 {
          var alike = number
          for index in min(shape.deciding, count)..<count { alike[index] = UInt8(generator.next(below: 10)) }
          var national = false
          let resolved = alike.withUnsafeBufferPointer {
            normalizer.resolve($0, startsWithPlus: startsWithPlus, region: region, national: &national)
          }
          let expected = alike[shape.skip...].reduce(Int64(shape.callingCode)) { $0 * 10 + Int64($1) }
          #expect(resolved == expected, "\(alike) + \(startsWithPlus) / \(code): \(shape)")
          #expect(national == shape.national, "\(alike) / \(code)")
        }
      }
    }
    // Most regions read most such numbers by a shape, national numbers
    // written with a national prefix too.
    #expect(shapes > 400)
    #expect(strippingShapes > 100)
  }

  /// National numbers written with the national prefix are remembered,
  /// where the prefix is plain digits (FR's `0`) and where it is a pattern
  /// (GB's `0|180020`, AU's `(183[12])|0`): one shape for each list here.
  @Test func remembersNationalNumbersWrittenWithTheNationalPrefix() throws {
    let lists = [
      ("FR", ["01 23 45 67 89", "01 98 76 54 32"]), ("GB", ["020 7946 0018", "020 3946 0999"]),
      ("AU", ["(02) 9374 4000", "(02) 8123 4567"]),
    ]
    for (code, inputs) in lists {
      let region = try #require(normalizer.plan.region(code))
      let reader = FormattedNumberReader(normalizer, region: region)
      for input in inputs {
        var national = false
        let read = Array(input.utf8).withUnsafeBufferPointer { reader.normalize(utf8: $0, writtenNationally: &national) }
        let expected = Array(input.utf8).withUnsafeBufferPointer {
          normalizer.normalize(utf8: $0, region: region, writtenNationally: &national)
        }
        #expect(read == expected, "\(code) \(input)")
      }
      #expect(reader.rememberedShapes == 1, "\(code)")
    }
  }

  /// Shapes alike but for their last deciding digit are kept as one, and
  /// only those: after `+44` a third digit that is not the national prefix
  /// `0` decides; `+44 0…` is read otherwise, and so are other lengths.
  @Test func mergesShapesAlikeButForTheirLastDecidingDigit() throws {
    let region = try #require(normalizer.plan.region("DE"))
    let reader = FormattedNumberReader(normalizer, region: region)
    let inputs = [
      "+44 20 7946 0018", "+44 161 496 0000", "+44 7700 900123", "+44 20 7946 0019", "+44 0161 496 0001",
      "+44 161 496 0002", "+44 020 7946 0020", "+44 7700 900124", "+44 1632 960000",
    ]
    for input in inputs {
      var national = false
      var expectedNational = false
      let read = Array(input.utf8).withUnsafeBufferPointer { reader.normalize(utf8: $0, writtenNationally: &national) }
      let expected = Array(input.utf8).withUnsafeBufferPointer {
        normalizer.normalize(utf8: $0, region: region, writtenNationally: &expectedNational)
      }
      #expect(read == expected, "\(input)")
      #expect(national == expectedNational, "\(input)")
    }
    // At 12 digits: `+44` and a third digit neither 0 nor 1 (2 and 7 taught,
    // kept as one), and `+44 1` and a fourth digit not 8 (GB's national
    // prefix is `0|180020`). At 13: `+44 0`.
    #expect(reader.rememberedShapes == 3)

    let merging = FormattedNumberReader(normalizer, region: region)
    func digits(_ text: String) -> [UInt8] { text.utf8.map { $0 - 0x30 } }
    for input in ["+44 20 7946 0018", "+44 7700 900123", "+44 161 496 0000", "+44 0161 496 0001"] {
      var national = false
      _ = Array(input.utf8).withUnsafeBufferPointer { merging.normalize(utf8: $0, writtenNationally: &national) }
    }
    #expect(merging.recalls(digits("442079460099"), startsWithPlus: true))
    #expect(merging.recalls(digits("447911123456"), startsWithPlus: true))
    #expect(merging.recalls(digits("441614960001"), startsWithPlus: true))
    #expect(merging.recalls(digits("4402079460099"), startsWithPlus: true))
    // Not taught: a third digit 3, the national prefix at 12 digits, no `+`.
    #expect(!merging.recalls(digits("443069990000"), startsWithPlus: true))
    #expect(!merging.recalls(digits("440161496000"), startsWithPlus: true))
    #expect(!merging.recalls(digits("442079460099"), startsWithPlus: false))
  }

  /// Lists of one region hit remembered shapes.
  @Test func remembersTheShapesOfAList() throws {
    let region = try #require(normalizer.plan.region("US"))
    let reader = FormattedNumberReader(normalizer, region: region)
    // Dialled from the US with its international prefix, too.
    for input in ["(212) 555-0100", "212-555-0101", "+1 212 555 0102", "12125550103", "011 44 20 7946 0958"] {
      var national = false
      _ = Array(input.utf8).withUnsafeBufferPointer { reader.normalize(utf8: $0, writtenNationally: &national) }
    }
    #expect(reader.rememberedShapes == 4)
    #expect(reader.reads(for: normalizer, region: region))
    #expect(!reader.reads(for: normalizer, region: normalizer.plan.region("CA")))
    #expect(!reader.reads(for: normalizer, region: nil))
  }
}
