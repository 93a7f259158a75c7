import Foundation
import Testing

@testable import PhoneNumbers

/// libphonenumber's national format (`format_number(parse("+" + digits),
/// NATIONAL)`, digits only) against the oracle corpus
/// (`data/generate-national-format-corpus.py`), at the places its rules
/// are subtle, and the formats table's own checks.
@Suite struct NationalFormatTests {
  struct Row {
    let line: Int
    let e164: String
    /// The national format's digits, or nil where `parse` raises.
    let national: String?
  }

  static func load() throws -> [Row] {
    guard
      let url = Bundle.module.url(forResource: "national-format-corpus", withExtension: "tsv", subdirectory: "Fixtures")
    else { throw CocoaError(.fileNoSuchFile) }
    let text = try String(contentsOf: url, encoding: .utf8)
    var rows: [Row] = []
    for (index, line) in text.split(separator: "\n").enumerated() where index > 0 {
      let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
      guard fields.count == 2, fields[0].allSatisfy(\.isASCII) else { throw CocoaError(.fileReadCorruptFile) }
      rows.append(Row(line: index + 1, e164: String(fields[0]), national: fields[1] == "-" ? nil : String(fields[1])))
    }
    return rows
  }

  @Test func corpusIsLargeAndCoversTheCases() throws {
    let rows = try Self.load()
    #expect(rows.count > 35_000)
    #expect(rows.contains { $0.national == nil })
    #expect(rows.contains { Int64($0.e164) == nil })
    // Formats that insert digits, national prefixes, numbers no format fits.
    #expect(rows.contains { $0.e164 == "5491112345678" && $0.national == "0111512345678" })
    #expect(rows.contains { $0.e164 == "4402079460018" && $0.national == "02079460018" })
  }

  @Test func everyRowMatchesLibphonenumber() throws {
    let formatter = NationalFormatter()
    var mismatches: [String] = []
    let rows = try Self.load()
    for row in rows {
      let fromText = formatter.nationalDigits(ofE164: row.e164)?.description
      let plus = formatter.nationalDigits(ofE164: "+" + row.e164)?.description
      var fromNumber = fromText
      if !row.e164.hasPrefix("0"), let number = Int64(row.e164) {
        fromNumber = formatter.nationalDigits(ofE164: number)?.description
      }
      if fromText != row.national || fromNumber != row.national || plus != row.national {
        mismatches.append(
          "line \(row.line): \(row.e164): libphonenumber \(row.national ?? "-"), "
            + "calldir \(fromText ?? "-") / \(fromNumber ?? "-") / \(plus ?? "-")")
      }
    }
    #expect(
      mismatches.isEmpty,
      "\(mismatches.count) of \(rows.count) rows differ:\n\(mismatches.prefix(40).joined(separator: "\n"))")
  }

  /// The shared normalization corpus: each input, normalized, has the
  /// national format the oracle gives its number.
  @Test func sharedCorpusNumbersHaveTheirNationalFormat() throws {
    let oracle = Dictionary(try Self.load().map { ($0.e164, $0.national) }, uniquingKeysWith: { first, _ in first })
    let normalizer = PhoneNumberNormalizer()
    let formatter = NationalFormatter()
    var checked = 0
    for item in try CorpusCase.load() where item.expected != "INVALID" {
      let region = item.region == "ZZ" ? nil : normalizer.plan.region(item.region)
      guard case .success(let number) = normalizer.normalize(item.input, region: region) else {
        Issue.record("\(item.testDescription) does not normalize")
        continue
      }
      let expected = try #require(oracle[String(number)], "\(number) is not in the national-format corpus")
      #expect(formatter.nationalDigits(ofE164: number)?.description == expected, "\(item.testDescription)")
      checked += 1
    }
    #expect(checked > 400)
  }

  @Test(arguments: [
    ("442079460018", "02079460018"),  // GB: 0$FG
    ("12125550142", "2125550142"),  // US: no national prefix rule
    ("5491112345678", "0111512345678"),  // AR mobile: the 9 dropped, 15 written
    ("541112345678", "01112345678"),
    ("5215512345678", "15512345678"),  // MX: no format fits the old 1: as it is
    ("525512345678", "5512345678"),
    ("390612345678", "0612345678"),  // IT: leading zero, no prefix
    ("3906", "06"),
    ("79161234567", "89161234567"),  // RU: 8 ($FG)
    ("77012345678", "87012345678"),  // KZ inside +7: RU's formats
    ("33412345678", "0412345678"),
    ("61412345678", "0412345678"),  // shares its national digits with the French one
    ("4402079460018", "02079460018"),  // parse strips the 0 after +44
    ("80012345678", "12345678"),  // non-geographic
    ("2901234", "1234"),  // SH: no formats at all
  ])
  func examples(e164: String, expected: String) {
    #expect(NationalFormat.digits(ofE164: e164) == expected)
    #expect(NationalFormat.digits(ofE164: Int64(e164) ?? -1) == expected)
  }

  @Test(arguments: [
    "", "+", "0", "12", "99912345", "0442079460018", "4412345678901234567890", "44 20", "+44+20", "4420x", "４４２０７９４６００１８",
  ])
  func noNationalFormat(text: String) {
    #expect(NationalFormat.digits(ofE164: text) == nil)
  }

  @Test func noNationalFormatForNumbers() {
    let formatter = NationalFormatter()
    for number: Int64 in [0, -442_079_460_018, 1, 44, 441, 999_123_456, Int64.min] {
      #expect(formatter.nationalDigits(ofE164: number) == nil, "\(number)")
    }
    // 19 digits with a one-digit code: an 18-digit national number is too long.
    #expect(formatter.nationalDigits(ofE164: 7_123_456_789_012_345_678) == nil)
    #expect(formatter.nationalDigits(ofE164: 1_234_567_890_123_456_789) == nil)
    // With a two-digit code, 17 digits are formatted (as no format fits).
    #expect(formatter.nationalDigits(ofE164: Int64.max)?.description == "23372036854775807")
    #expect(formatter.nationalDigits(ofE164: 4_412_345_678_901_234_567)?.description == "12345678901234567")
  }

  @Test func textLongerThanParseReadsIsRefused() {
    #expect(NationalFormat.digits(ofE164: "44" + String(repeating: "0", count: 249)) == nil)
  }

  @Test func digitsOrderHashAndRoundTrip() throws {
    let formatter = NationalFormatter()
    let french = try #require(formatter.nationalDigits(ofE164: 33_412_345_678))
    let australian = try #require(formatter.nationalDigits(ofE164: 61_412_345_678))
    #expect(french == australian)
    #expect(Set([french, australian]).count == 1)
    #expect(french.count == 10)
    #expect(french.ascii == Array("0412345678".utf8))
    // As text sorts: a string before the longer ones it starts.
    let values = ["0", "00", "01", "0123456789012345", "01234567890123456", "1", "10", "9",
                  "99999999999999999999999999999999"].map { NationalDigits($0)! }
    #expect(values == values.sorted())
    for value in values {
      #expect(NationalDigits(high: value.high, low: value.low) == value)
      #expect(NationalDigits(value.description) == value)
      #expect(value.description.count == value.count)
    }
    #expect(NationalDigits("") == nil)
    #expect(NationalDigits("12a") == nil)
    #expect(NationalDigits(String(repeating: "1", count: 33)) == nil)
    #expect(NationalDigits(high: 0, low: 0) == nil)
    #expect(NationalDigits(high: 0xB000_0000_0000_0000, low: 0) == nil)  // 11 is no digit
    #expect(NationalDigits(high: 0x1010_0000_0000_0000, low: 0) == nil)  // a gap
    #expect(NationalDigits(high: 0x1000_0000_0000_0000, low: 0x1000_0000_0000_0000) == nil)
  }

  // MARK: - The formats table

  @Test func embeddedTableEqualsTheCommittedDataFileAndParsesWhole() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
    let committed = try String(contentsOf: root.appendingPathComponent("data/number-formats.tsv"), encoding: .utf8)
    #expect(committed == NumberingPlan.embeddedFormatsTable)
    let regions = try NumberingPlan(table: NumberingPlan.embeddedTable).regionsByCallingCode.values.flatMap { $0 }
    let byKey = Dictionary(
      uniqueKeysWithValues: regions.map { ($0.regionCode == "001" ? "001+\($0.callingCode)" : $0.regionCode, $0) })
    let rules = try NumberingPlan.formatRules(NumberingPlan.embeddedFormatsTable, regions: byKey)
    #expect(rules.values.map(\.count).reduce(0, +) == 758)
    // Only main regions and non-geographic entities have formats, the
    // ones format_number reads.
    for key in rules.keys { #expect(byKey[key]?.isMainRegion == true, "\(key)") }
    // The plan built from all three tables formats as the embedded one.
    let fresh = try NumberingPlan(
      table: NumberingPlan.embeddedTable, typesTable: "", formatsTable: NumberingPlan.embeddedFormatsTable)
    #expect(NationalFormatter(plan: fresh).nationalDigits(ofE164: 5_491_112_345_678)?.description == "0111512345678")
  }

  static let planHeader = NumberingPlan.columns.joined(separator: "\t")
  static let formatsHeader = NumberingPlan.formatColumns.joined(separator: "\t")
  /// A region XA (+999, national prefix 0, 4 to 8 digits).
  static let planTable = planHeader + "\nXA\t999\t1\t00\t0\t0\t\t4,5,6,7,8\t\t\\d{4,8}\t0\t\t0\n"

  func plan(formats rows: [String]) throws -> NumberingPlan {
    try NumberingPlan(table: Self.planTable, formatsTable: Self.formatsHeader + "\n" + rows.joined(separator: "\n") + "\n")
  }

  @Test func rejectsBrokenFormatsTables() {
    for (rows, reason) in [
      (["XB\t999\t(\\d{4})\t$1\t\t"], "no region XB"),
      (["XA\t998\t(\\d{4})\t$1\t\t"], "no region XA with calling code 998"),
      (["XA\t999\t(\\d{4}\t$1\t\t"], "missing ')'"),
      (["XA\t999\t(\\d{0,4})\t$1\t\t"], "may match no digit"),
      (["XA\t999\t(\\d{4})\t$2\t\t"], "refers to group 2 of 1"),
      (["XA\t999\t(\\d)(\\d{3})\t$10\t\t"], "digit right after a group reference"),
      (["XA\t999\t(\\d{4})\t$x\t\t"], "bad group reference"),
      (["XA\t999\t(\\d{4})\t$1\t1 \t"], "empty leading-digits pattern"),
      (["XA\t999\t(\\d{4})\t$1\t[\t"], "missing ']'"),
      (["XA\t999\t(\\d{4})\t$1\t\t$NP$FG"], "only $FG"),
      (["XA\t999\t((\\d)\\d{3})\t$1 $2\t\t"], "overlapping groups"),
      (["XA\t999\t(\\d)\t$1 $1\t\t"], "overlapping groups"),
      (["XA\t999\t(\\d)\t$1 12345678\t\t"], "could write"),
      (["XA\t999\t(\\d{4})\t$1\t\t", "XA\t999\t(\\d{4})\t$1\t"], "expected 6 fields"),
    ] {
      #expect {
        _ = try plan(formats: rows)
      } throws: { error in
        (error as? NumberingPlanError)?.reason.contains(reason) == true
          && (error as? NumberingPlanError)?.reason.hasPrefix("formats table: ") == true
      }
    }
    #expect(throws: NumberingPlanError.self) { try NumberingPlan(table: Self.planTable, formatsTable: "region\tcc\n") }
    #expect(throws: NumberingPlanError.self) { try NumberingPlan(table: Self.planTable, formatsTable: "# only\n") }
  }

  @Test func formatsApplyAsLibphonenumberDoes() throws {
    let plan = try plan(formats: [
      // The first that fits wins; the last leading-digits pattern counts.
      "XA\t999\t(\\d{2})(\\d{2})\t$1-$2\t9 1\t0$FG",
      "XA\t999\t(\\d)(\\d{3})\t$2 77 $1\t[12]\t($FG)",
      // No leading digits: any number of the length.
      "XA\t999\t(\\d{3})(\\d{2})\t$1 $2\t\t",
      // A class: run, not planned by length.
      "XA\t999\t([5-9]\\d)(\\d{4})\t$1 $2\t\t8 $FG",
      // Alternation: re.sub replaces each match (here two of two digits).
      "XA\t999\t(\\d{3})|(\\d{3})(\\d{4})\t$1$2\t\t0$FG",
    ])
    let formatter = NationalFormatter(plan: plan)
    func national(_ digits: String) -> String? { formatter.nationalDigits(ofE164: "999" + digits)?.description }
    #expect(national("1234") == "01234")  // first rule (leading 1)
    #expect(national("2345") == "345772")  // second rule: "($2) 77 $1"
    #expect(national("9234") == "9234")  // the first rule's last leading digits are "1", not "9"
    #expect(national("12345") == "12345")  // third rule, no prefix rule
    #expect(national("651234") == "8651234")  // fourth rule
    #expect(national("451234") == "451234")  // no rule fits: as it is
    #expect(national("1234567") == "012304567")  // re.sub: "123" → "0123", "456" → "0456", then "7"
    // Without formats: the national number.
    let bare = NationalFormatter(plan: try NumberingPlan(table: Self.planTable))
    #expect(bare.nationalDigits(ofE164: 99_912_345)?.description == "12345")
    // parse strips the national prefix when what is left has a possible length.
    #expect(national("012345") == "12345")
    #expect(national("0123") == "0123")
  }

  /// Formats chosen without the automata (as when one would be too large)
  /// choose alike.
  @Test func choosingWithoutAutomataAgrees() throws {
    let plan = NumberingPlan.standard
    let rows = try Self.load()
    for code in [1, 7, 33, 39, 44, 49, 54, 55, 81, 86, 91] {
      let key = plan.mainRegion(forCallingCode: code).map { $0.regionCode } ?? ""
      let rules = plan.formatTable.rules(forKey: key)
      let automata = CallingCodeFormats(rules: rules)
      let plain = CallingCodeFormats(rules: rules, stateLimit: 0)
      var compared = 0
      for row in rows where row.e164.hasPrefix(String(code)) {
        let national = row.e164.dropFirst(String(code).count).utf8.map { $0 - 48 }
        guard national.count <= 17 else { continue }
        national.withUnsafeBufferPointer { digits in
          #expect(automata.choose(digits) == plain.choose(digits), "\(row.e164)")
        }
        compared += 1
      }
      #expect(compared > 100, "\(code)")
    }
  }
}
