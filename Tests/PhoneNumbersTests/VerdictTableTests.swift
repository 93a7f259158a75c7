import Testing

@testable import PhoneNumbers

/// The verdict table (a calling code's verdicts decided by the first four
/// digits) must give what walking the regions' automata gives, and the
/// types parsed region by region what parsing the whole table gives.
@Suite struct VerdictTableTests {
  let plan = NumberingPlan.standard

  /// Every code's table against the walk: every prefix for the busiest
  /// codes, a sample of prefixes for the others, with random tails.
  @Test func tableAgreesWithTheWalk() {
    let classifier = plan.classifier
    var random = AgreementRandom(seed: 2_026)
    var answered = 0
    var compared = 0
    for code in plan.callingCodes {
      guard let group = classifier.groups[code], let table = group.verdicts else { continue }
      let everyPrefix = [1, 7, 33, 39, 44, 49, 61, 86, 91, 262, 599].contains(code)
      let prefixes = everyPrefix ? Array(0..<VerdictTable.entryCount) : (0..<300).map { _ in
        Int(random.next() % UInt64(VerdictTable.entryCount))
      }
      for prefix in prefixes {
        var digits = [UInt8(prefix / 1000), UInt8(prefix / 100 % 10), UInt8(prefix / 10 % 10), UInt8(prefix % 10)]
        while digits.count < table.length { digits.append(UInt8(random.next() % 10)) }
        let viaTable = digits.withUnsafeBufferPointer { classifier.lookup(callingCode: code, nationalNumber: $0) }
        let walked = digits.withUnsafeBufferPointer {
          classifier.walkedValidity(
            nationalNumber: $0, cores: group.cores, regions: group.classifiers.count, candidates: group.candidates)
        }
        guard case .verdict(let verdict) = viaTable else {
          Issue.record("no verdict for +\(code) \(digits)")
          continue
        }
        #expect(verdict == walked, "+\(code) \(digits)")
        compared += 1
        if table.entries[prefix] != 0 { answered += 1 }
      }
    }
    // Most prefixes of most codes are decided by their first four digits;
    // a third is a floor that still catches a table that stopped answering.
    #expect(answered > compared / 3)
  }

  /// A band (a code's numbers as a range of values) answers as the
  /// classifier does, and not at all for numbers of other lengths.
  @Test func bandAgreesWithTheClassifier() {
    let classifier = plan.classifier
    var random = AgreementRandom(seed: 7)
    var answered = 0
    for code in [1, 7, 33, 39, 44, 49, 61, 86, 91, 262, 599] {
      guard let lookup = classifier.verdictLookup(callingCode: code) else { continue }
      let band = VerdictBand(callingCode: code, lookup: lookup)
      for _ in 0..<2_000 {
        // The table's length, one digit fewer, one more.
        let length = lookup.length + Int(random.next() % 3) - 1
        var national: Int64 = 0
        var scale: Int64 = 1
        for _ in 0..<length {
          national = national * 10 + Int64(random.next() % 10)
          scale *= 10
        }
        let number = Int64(code) * scale + national
        let word = band.word(number)
        guard length == lookup.length else {
          #expect(word == 0, "+\(code) \(national)")
          continue
        }
        guard word != 0 else { continue }
        answered += 1
        #expect(NumberValidity(word: word) == classifier.validity(of: number), "+\(code) \(national)")
        // The same through the public band a build's region check holds.
        #expect(classifier.verdictBand(callingCode: code).validity(of: number) == classifier.validity(of: number))
      }
    }
    #expect(answered > 5_000)
    #expect(VerdictBand().word(12_025_550_123) == 0)
  }

  @Test func typesParsedLazilyAreTheTypesParsedWhole() throws {
    let whole = try NumberingPlan.typeDescriptions(
      NumberingPlan.embeddedTypesTable,
      regions: Dictionary(uniqueKeysWithValues: plan.regionsByCallingCode.values.joined().map { region in
        (region.regionCode == "001" ? "001+\(region.callingCode)" : region.regionCode, region)
      }))
    #expect(whole.count > 200)
    for (key, descriptions) in whole {
      let lazy = plan.typeDescriptions(forKey: key)
      #expect(lazy.map(\.type) == descriptions.map(\.type), "\(key)")
      #expect(lazy.map(\.lengthBits) == descriptions.map(\.lengthBits), "\(key)")
      #expect(lazy.map(\.pattern.source) == descriptions.map(\.pattern.source), "\(key)")
    }
    #expect(plan.typeDescriptions(forKey: "XX").isEmpty)
  }
}
