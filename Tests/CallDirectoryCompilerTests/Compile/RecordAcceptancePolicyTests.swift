import PhoneNumbers
import UnicodeText
import Testing

@testable import CallDirectoryCompiler
@testable import CallDirectorySources

/// The one place a source's records, ranges and range rows are judged
/// (``RecordAcceptance/Policy``): every verdict, for every list kind.
@Suite struct RecordAcceptancePolicyTests {
  static let normalizer = PhoneNumberNormalizer()

  static func policy(
    _ list: SourceList, region: String = "US", rules: NumberRules = NumberRules(), maxRangeSize: Int64 = 1000,
    cellKeys: CellKeys = .all
  ) -> RecordAcceptance.Policy {
    var spec = SourceSpec(index: 0, path: "list.txt", format: "lines", list: list, region: region)
    spec.numberRules = rules
    return RecordAcceptance.Policy(
      spec, region: normalizer.plan.region(region), maxRangeSize: maxRangeSize, normalizer: normalizer,
      cellKeys: cellKeys, labels: LabelSanitizer())
  }

  static func number(
    _ text: String, _ policy: RecordAcceptance.Policy, region: String = "US", national: inout NationalTally
  ) -> RecordAcceptance.Verdict {
    Array(text.utf8).withUnsafeBufferPointer {
      policy.number($0, region: normalizer.plan.region(region), national: &national)
    }
  }

  static func number(_ text: String, _ policy: RecordAcceptance.Policy) -> RecordAcceptance.Verdict {
    var national = NationalTally()
    return number(text, policy, national: &national)
  }

  static func rangeRow(
    _ start: String, _ end: String, _ policy: RecordAcceptance.Policy, region: String = "US", wildcardDigits: Int = 0
  ) -> RecordAcceptance.RangeVerdict {
    Array(start.utf8).withUnsafeBufferPointer { start in
      Array(end.utf8).withUnsafeBufferPointer { end in
        policy.range(start, end, region: normalizer.plan.region(region), wildcardDigits: wildcardDigits)
      }
    }
  }

  static func range(_ lower: Int64, _ upper: Int64, _ policy: RecordAcceptance.Policy)
    -> RecordAcceptance.RangeVerdict
  {
    guard let range = NumberRange(lower: lower, upper: upper) else { return .rejected("no range") }
    return policy.range(range)
  }

  @Test(arguments: [SourceList.block, .allow, .identify])
  func aNumberIsTheNormalizersVerdictInEveryList(list: SourceList) {
    let policy = Self.policy(list)
    guard case .number(let number) = Self.number("(212) 555-0100", policy) else {
      Issue.record("not a number")
      return
    }
    #expect(number == 12_125_550_100)
    guard case .rejected(let reason, let numbers) = Self.number("nonsense", policy) else {
      Issue.record("accepted")
      return
    }
    #expect(reason == "not a phone number")
    #expect(numbers == 1)
  }

  @Test(arguments: [SourceList.block, .allow, .identify])
  func aCellOfSeveralNumbersIsRejectedAsTheNumbersItHolds(list: SourceList) {
    var national = NationalTally()
    guard case .rejected(let reason, let numbers) = Self.number(
      "0137 9876544|0137 9876545", Self.policy(list, region: "DE"), region: "DE", national: &national)
    else {
      Issue.record("accepted")
      return
    }
    #expect(reason == #"several numbers in one cell ('|'); set "numberSeparator""#)
    #expect(numbers == 2)
  }
  @Test func numberRulesRejectInvalidNumbersAndDropOtherTypes() {
    var national = NationalTally()
    let valid = Self.policy(.block, region: "MY", rules: NumberRules(requireValid: true))
    guard case .rejected(let reason, _) = Self.number("+6000880816", valid, region: "MY", national: &national) else {
      Issue.record("accepted")
      return
    }
    #expect(reason == "invalid for region MY")
    let mobiles = Self.policy(.allow, rules: NumberRules(types: [.mobile, .fixedLineOrMobile]))
    guard case .dropped = Self.number("+1 800 275 2273", mobiles) else {
      Issue.record("not dropped")
      return
    }
    guard case .number(447_400_123_456) = Self.number("+44 7400 123456", mobiles) else {
      Issue.record("not kept")
      return
    }
    #expect(!mobiles.takesBareNumbers)
    #expect(Self.policy(.block).takesBareNumbers)
  }

  @Test func numbersWrittenNationallyAreCountedForTheWrongRegionGuard() {
    var tally = NationalTally()
    let policy = Self.policy(.block, region: "CH")
    _ = Self.number("0888123456", policy, region: "CH", national: &tally)
    _ = Self.number("+359 888 123 456", policy, region: "CH", national: &tally)
    #expect(tally.count == 1)
  }

  @Test(arguments: [SourceList.block, .allow])
  func rangesAreKeptWithinMaxRangeSize(list: SourceList) {
    let policy = Self.policy(list, maxRangeSize: 100)
    guard case .range(let range) = Self.rangeRow("212-555-0100", "212-555-0199", policy) else {
      Issue.record("rejected")
      return
    }
    #expect((range.lower, range.upper) == (12_125_550_100, 12_125_550_199))
    guard case .range = Self.range(12_125_550_100, 12_125_550_199, policy) else {
      Issue.record("rejected")
      return
    }
    let tooLarge = "range of 101 numbers is larger than maxRangeSize 100 (split it, or raise maxRangeSize)"
    guard case .rejected(let reason) = Self.range(12_125_550_100, 12_125_550_200, policy) else {
      Issue.record("accepted")
      return
    }
    #expect(reason == tooLarge)
    guard case .rejected(let rowReason) = Self.rangeRow("212-555-0100", "212-555-0200", policy) else {
      Issue.record("accepted")
      return
    }
    #expect(rowReason == tooLarge)
  }

  @Test func aRangeOfNoPossibleNumberIsRejected() {
    guard case .rejected(let reason) = Self.range(3950, 3950, Self.policy(.block)) else {
      Issue.record("accepted")
      return
    }
    #expect(reason == "too short")
  }

  @Test func aRangeRowsEndsMustReadAndAgree() {
    let policy = Self.policy(.block)
    guard case .rejected(let start) = Self.rangeRow("nonsense", "212-555-0199", policy) else {
      Issue.record("accepted")
      return
    }
    #expect(start == "range start: not a phone number")
    guard case .rejected(let order) = Self.rangeRow("212-555-0199", "212-555-0100", policy) else {
      Issue.record("accepted")
      return
    }
    #expect(order == "range start +12125550199 is greater than range end +12125550100")
    guard case .range(let block) = Self.rangeRow("212-555-0100", "212-555-0199", policy, wildcardDigits: 2) else {
      Issue.record("rejected")
      return
    }
    #expect((block.lower, block.upper) == (12_125_550_100, 12_125_550_199))
  }

  /// An identify list holds numbers with labels: every range is refused,
  /// once its ends read (a range row's reason for ends that do not comes
  /// first).
  @Test func anIdentifyListRefusesRanges() {
    let policy = Self.policy(.identify)
    for verdict in [Self.range(12_125_550_100, 12_125_550_100, policy), Self.rangeRow("212-555-0100", "212-555-0199", policy)] {
      guard case .rejected(let reason) = verdict else {
        Issue.record("accepted")
        continue
      }
      #expect(reason == "a range cannot carry a label")
    }
    guard case .rejected(let reason) = Self.rangeRow("nonsense", "212-555-0199", policy) else {
      Issue.record("accepted")
      return
    }
    #expect(reason == "range start: not a phone number")
  }

  @Test func onlyAnIdentifyListsRecordsCarryLabels() {
    let identify = Self.policy(.identify)
    let label = Array("ACME Corp".utf8).withUnsafeBufferPointer { identify.label($0) }
    guard case .success(let cleaned)? = label else {
      Issue.record("no label")
      return
    }
    #expect(cleaned == "ACME Corp")
    guard case .failure(let missing)? = identify.label(nil) else {
      Issue.record("a missing label passed")
      return
    }
    #expect(missing.description == "missing label")
    #expect(Array("ACME".utf8).withUnsafeBufferPointer { Self.policy(.block).label($0) } == nil)
    #expect(Self.policy(.allow).label(nil) == nil)
  }

  /// `explain` judges with the same policy, without number rules.
  @Test func aPolicyWithoutRulesJudgesAsTheSourcesPolicy() {
    let plain = RecordAcceptance.Policy(list: .block, maxRangeSize: 100, normalizer: Self.normalizer)
    guard case .number(12_125_550_100) = Array("212-555-0100".utf8).withUnsafeBufferPointer({
      plain.number($0, region: Self.normalizer.plan.region("US"))
    })
    else {
      Issue.record("not a number")
      return
    }
    guard case .rejected = Self.range(12_125_550_100, 12_125_550_200, plain) else {
      Issue.record("accepted")
      return
    }
  }
}
