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
