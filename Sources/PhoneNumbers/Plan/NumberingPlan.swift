/// The numbering plan: every region and non-geographic calling code that
/// libphonenumber knows, with the facts the normalizer needs.
///
/// The standard plan is generated from libphonenumber's metadata into
/// `data/numbering-plan.tsv` (format: `schemas/numbering-plan.md`) and
/// embedded in the binary, so nothing is read from disk at run time.
public struct NumberingPlan: Sendable {
  /// Regions by ISO code (plus "001" entries, which are keyed by calling code).
  private let regionsByCode: [String: RegionMetadata]
  /// The main region (or non-geographic entry) for each calling code.
  private let mainByCallingCode: [Int: RegionMetadata]
  /// Every supported region code (without "001"), sorted.
  public let regionCodes: [String]
  /// Every country calling code, sorted.
  public let callingCodes: [Int]
  /// The version of the metadata the table was generated from.
  public let sourceDescription: String
  /// `mainByCallingCode` as a table indexed by calling code (0...999).
  private let mainsByIndex: [RegionMetadata?]
  /// Whether each of 0...999 is a calling code.
  private let isCallingCodeByIndex: [Bool]
  /// The main regions' cores by calling code.
  let mainCores: MainCoreTable
  /// Every region (and non-geographic entry) of each calling code, in
  /// libphonenumber's order (`rank`).
  let regionsByCallingCode: [Int: [RegionMetadata]]
  /// The number types of each region, keyed as `regionsByCode`, from the
  /// types table (``typeDescriptions(forKey:)``).
  let typeTable: TypeDescriptionTable
  /// The compiled number-type tables, built on first use.
  let classifierBox: _ClassifierBox
  /// The number formats of each region, keyed as `regionsByCode`, from the
  /// formats table; each calling code's compiled on first use.
  let formatTable: NumberFormatTable
  /// The largest growth of a number by any region's transform rule (see
  /// `RegionMetadata.transformLiteralCount`), for sizing scratch buffers.
  let maxTransformLiteralCount: Int
  let maxTransformGroupReferences: Int

  /// The plan embedded in calldir, parsed and compiled once.
  public static let standard: NumberingPlan = {
    do {
      // The embedded types table is checked whole by the tests; its
      // regions' types are parsed when first classified.
      return try NumberingPlan(
        table: embeddedTable, typesTable: embeddedTypesTable, formatsTable: embeddedFormatsTable,
        parsingTypesLazily: true)
    } catch {
      fatalError("embedded numbering plan is invalid: \(error)")
    }
  }()

  /// Parses a numbering-plan table, its number-types table and its
  /// number-formats table (TSV, see `schemas/numbering-plan.md`). Without a
  /// types table no number is valid (``validity(of:)`` reports every number
  /// as ``PhoneNumberType/unknown``); without a formats table no number has
  /// a format (a national format is the national significant number).
  /// - Throws: `NumberingPlanError` naming the line that is wrong (in the
  ///   types table, "types table: …"; in the formats table, "formats
  ///   table: …").
  public init(table: String, typesTable: String = "", formatsTable: String = "") throws(NumberingPlanError) {
    try self.init(table: table, typesTable: typesTable, formatsTable: formatsTable, parsingTypesLazily: false)
  }

  /// ``init(table:typesTable:formatsTable:)``, with the types and formats
  /// tables checked and parsed now, or (`parsingTypesLazily`, for tables
  /// known to be valid) each region's parsed when first needed.
  init(table: String, typesTable: String, formatsTable: String = "", parsingTypesLazily: Bool)
    throws(NumberingPlanError)
  {
    var regions: [String: RegionMetadata] = [:]
    var mains: [Int: RegionMetadata] = [:]
    var source = ""
    var header: [Substring]? = nil
    var lineNumber = 0
    for lineBytes in table.utf8.split(separator: 0x0A, omittingEmptySubsequences: false) {
      lineNumber += 1
      let line = Substring(lineBytes)
      if line.isEmpty { continue }
      if line.hasPrefix("#") {
        if line.hasPrefix("# source: ") { source = String(line.dropFirst(10)) }
        continue
      }
      let fields = line.utf8.split(separator: 0x09, omittingEmptySubsequences: false).map { Substring($0) }
      guard let columns = header else {
        guard fields == Self.columns.map({ Substring($0) }) else {
          throw NumberingPlanError(line: lineNumber, reason: "unexpected header")
        }
        header = fields
        continue
      }
      guard fields.count == columns.count else {
        throw NumberingPlanError(line: lineNumber, reason: "expected \(columns.count) fields, found \(fields.count)")
      }
      let region = try Self.region(from: fields, line: lineNumber)
      let key = region.regionCode == "001" ? "001+\(region.callingCode)" : region.regionCode
      guard regions[key] == nil else {
        throw NumberingPlanError(line: lineNumber, reason: "duplicate region \(region.regionCode)")
      }
      regions[key] = region
      if region.isMainRegion {
        guard mains[region.callingCode] == nil else {
          throw NumberingPlanError(line: lineNumber, reason: "second main region for +\(region.callingCode)")
        }
        mains[region.callingCode] = region
      }
    }
    guard header != nil else { throw NumberingPlanError(line: lineNumber, reason: "missing header") }
    for region in regions.values where mains[region.callingCode] == nil {
      throw NumberingPlanError(line: 0, reason: "no main region for +\(region.callingCode)")
    }
    self.regionsByCode = regions
    self.mainByCallingCode = mains
    self.regionCodes = regions.keys.filter { !$0.hasPrefix("001") }.sorted()
    self.callingCodes = mains.keys.sorted()
    self.sourceDescription = source
    var table = [RegionMetadata?](repeating: nil, count: 1000)
    for (code, region) in mains { table[code] = region }
    self.mainsByIndex = table
    self.isCallingCodeByIndex = table.map { $0 != nil }
    self.mainCores = MainCoreTable(mains)
    self.maxTransformLiteralCount = regions.values.map(\.transformLiteralCount).max() ?? 0
    self.maxTransformGroupReferences = regions.values.map(\.transformGroupReferences).max() ?? 0
    var sharing: [Int: [RegionMetadata]] = [:]
    for region in regions.values { sharing[region.callingCode, default: []].append(region) }
    self.regionsByCallingCode = sharing.mapValues { $0.sorted { ($0.rank, $0.regionCode) < ($1.rank, $1.regionCode) } }
    self.typeTable = parsingTypesLazily
      ? TypeDescriptionTable(lazy: typesTable, regions: regions)
      : TypeDescriptionTable(parsed: try Self.typeDescriptions(typesTable, regions: regions))
    self.classifierBox = _ClassifierBox()
    self.formatTable = parsingTypesLazily
      ? NumberFormatTable(lazy: formatsTable)
      : NumberFormatTable(parsed: try Self.formatRules(formatsTable, regions: regions))
  }

  /// The number types of the region keyed `key` (a region code, or
  /// `001+800` for a non-geographic code), in table order.
  func typeDescriptions(forKey key: String) -> [NumberTypeDescription] {
    typeTable.descriptions(forKey: key)
  }

  /// The metadata for an ISO 3166 region code such as "GB", or nil when the
  /// code is unknown. Codes are case-sensitive, as in libphonenumber.
  public func region(_ code: String) -> RegionMetadata? {
    code.hasPrefix("001") ? nil : regionsByCode[code]
  }

  /// The main region (or non-geographic entry) for a calling code.
  /// Whether `code` is a country calling code of the plan.
  @inline(__always)
  func isCallingCode(_ code: Int) -> Bool {
    code >= 0 && code < 1000 && isCallingCodeByIndex[code]
  }

  @inline(__always)
  public func mainRegion(forCallingCode code: Int) -> RegionMetadata? {
    code >= 0 && code < 1000 ? mainsByIndex[code] : nil
  }

  static let columns = [
    "region", "cc", "main", "idd", "np", "npp", "npp_transform",
    "lengths", "local_lengths", "nsn_pattern", "rank", "leading_digits", "same_mobile_fixed",
  ]

  /// The columns of the number-types table (`data/number-types.tsv`).
  static let typeColumns = ["region", "cc", "type", "lengths", "pattern"]
}

/// A numbering-plan table that cannot be used.
public struct NumberingPlanError: Error, CustomStringConvertible {
  /// The 1-based line of the table, or 0 for the table as a whole.
  public let line: Int
  /// What is wrong, in lowercase.
  public let reason: String

  public var description: String { "numbering plan line \(line): \(reason)" }
}

extension NumberingPlan {
  private static func region(from fields: [Substring], line: Int) throws(NumberingPlanError) -> RegionMetadata {
    func pattern(_ text: Substring) throws(NumberingPlanError) -> DigitPattern? {
      guard !text.isEmpty else { return nil }
      do {
        return try DigitPattern(String(text))
      } catch {
        throw NumberingPlanError(line: line, reason: error.description)
      }
    }
    func lengths(_ text: Substring) throws(NumberingPlanError) -> [Int] {
      guard !text.isEmpty else { return [] }
      var values: [Int] = []
      for item in text.split(separator: ",") {
        guard let value = Int(item), (1...30).contains(value) else {
          throw NumberingPlanError(line: line, reason: "bad length '\(item)'")
        }
        values.append(value)
      }
      return values.sorted()
    }
    let code = String(fields[0])
    guard code == "001" || (code.count == 2 && code.allSatisfy { $0.isASCII && $0.isUppercase }) else {
      throw NumberingPlanError(line: line, reason: "bad region code '\(code)'")
    }
    guard let callingCode = Int(fields[1]), (1...999).contains(callingCode) else {
      throw NumberingPlanError(line: line, reason: "bad calling code '\(fields[1])'")
    }
    let npp = try pattern(fields[5])
    var transform: [RegionMetadata.TransformPart]? = nil
    if !fields[6].isEmpty {
      transform = try parseTransform(fields[6], groupCount: npp?.groupCount ?? 0, line: line)
    }
    let general = try pattern(fields[9])
    guard let rank = Int(fields[10]), rank >= 0, (rank == 0) == (fields[2] == "1") else {
      throw NumberingPlanError(line: line, reason: "bad rank '\(fields[10])'")
    }
    guard fields[12] == "0" || fields[12] == "1" else {
      throw NumberingPlanError(line: line, reason: "bad same_mobile_fixed '\(fields[12])'")
    }
    return RegionMetadata(
      regionCode: code,
      callingCode: callingCode,
      isMainRegion: fields[2] == "1",
      internationalPrefix: try pattern(fields[3]),
      nationalPrefixForParsing: npp,
      nationalPrefixTransform: transform,
      possibleLengths: try lengths(fields[7]),
      localOnlyLengths: try lengths(fields[8]),
      generalPattern: general,
      rank: rank,
      leadingDigits: try pattern(fields[11]),
      sameMobileAndFixedLinePattern: fields[12] == "1"
    )
  }

  private static func parseTransform(
    _ text: Substring, groupCount: Int, line: Int
  ) throws(NumberingPlanError) -> [RegionMetadata.TransformPart] {
    var parts: [RegionMetadata.TransformPart] = []
    var literal: [UInt8] = []
    var iterator = text.utf8.makeIterator()
    while let byte = iterator.next() {
      if byte == UInt8(ascii: "$") {
        guard let next = iterator.next(), (48...57).contains(next), Int(next - 48) <= groupCount, next != 48 else {
          throw NumberingPlanError(line: line, reason: "bad group reference in transform '\(text)'")
        }
        if !literal.isEmpty { parts.append(.digits(literal)) }
        literal = []
        parts.append(.group(Int(next - 48)))
      } else if (48...57).contains(byte) {
        literal.append(byte - 48)
      } else {
        throw NumberingPlanError(line: line, reason: "bad character in transform '\(text)'")
      }
    }
    if !literal.isEmpty { parts.append(.digits(literal)) }
    return parts
  }
}
