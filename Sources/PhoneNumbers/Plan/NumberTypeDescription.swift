/// One number type of a region, as a row of the numbering plan's types
/// table: the pattern a national number of that type matches as a whole,
/// and the lengths it may have.
struct NumberTypeDescription: Sendable {
  let type: PhoneNumberType
  /// Possible lengths (bit n for length n); 0 when the row lists none (then
  /// any length may match the pattern).
  let lengthBits: UInt64
  let pattern: DigitPattern
}

extension NumberingPlan {
  /// Parses the types table (`data/number-types.tsv`, see
  /// `schemas/numbering-plan.md`) against the regions of the plan table,
  /// keyed as the regions are (`001+800` for a non-geographic code).
  /// - Throws: `NumberingPlanError` for the first line that is wrong.
  static func typeDescriptions(
    _ table: String, regions: [String: RegionMetadata]
  ) throws(NumberingPlanError) -> [String: [NumberTypeDescription]] {
    var result: [String: [NumberTypeDescription]] = [:]
    var seenHeader = false
    var lineNumber = 0
    for lineBytes in table.utf8.split(separator: 0x0A, omittingEmptySubsequences: false) {
      lineNumber += 1
      let line = Substring(lineBytes)
      if line.isEmpty || line.hasPrefix("#") { continue }
      let fields = typeFields(line)
      guard seenHeader else {
        guard fields == typeColumns.map({ Substring($0) }) else {
          throw NumberingPlanError(line: lineNumber, reason: "types table: unexpected header")
        }
        seenHeader = true
        continue
      }
      let (key, description) = try typeDescription(fields, line: lineNumber, regions: regions)
      guard result[key]?.contains(where: { $0.type == description.type }) != true else {
        throw NumberingPlanError(
          line: lineNumber, reason: "types table: second \(description.type) for \(fields[0])")
      }
      result[key, default: []].append(description)
    }
    guard seenHeader || table.isEmpty else {
      throw NumberingPlanError(line: lineNumber, reason: "types table: missing header")
    }
    return result
  }

  /// A types-table line's tab-separated fields.
  static func typeFields(_ line: Substring) -> [Substring] {
    line.utf8.split(separator: 0x09, omittingEmptySubsequences: false).map { Substring($0) }
  }

  /// The region key (as in `typeDescriptions`) a types-table line's fields
  /// belong to.
  static func typeKey(_ fields: [Substring]) -> String {
    fields[0] == "001" && fields.count > 1 ? "001+\(fields[1])" : String(fields[0])
  }

  /// One types-table line (not the header), checked against `regions`.
  static func typeDescription(
    _ fields: [Substring], line lineNumber: Int, regions: [String: RegionMetadata]
  ) throws(NumberingPlanError) -> (key: String, description: NumberTypeDescription) {
    func failure(_ reason: String) -> NumberingPlanError {
      NumberingPlanError(line: lineNumber, reason: "types table: \(reason)")
    }
    guard fields.count == typeColumns.count else {
      throw failure("expected \(typeColumns.count) fields, found \(fields.count)")
    }
    let key = typeKey(fields)
    guard let region = regions[key], String(region.callingCode) == fields[1] else {
      throw failure("unknown region \(fields[0]) +\(fields[1])")
    }
    guard let type = PhoneNumberType(rawValue: String(fields[2])), PhoneNumberType.described.contains(type) else {
      throw failure("unknown number type '\(fields[2])'")
    }
    var bits: UInt64 = 0
    if !fields[3].isEmpty {
      for item in fields[3].split(separator: ",") {
        guard let value = Int(item), (1...30).contains(value) else { throw failure("bad length '\(item)'") }
        bits |= 1 << UInt64(value)
      }
    }
    let pattern: DigitPattern
    do {
      pattern = try DigitPattern(String(fields[4]))
    } catch {
      throw failure(error.description)
    }
    return (key, NumberTypeDescription(type: type, lengthBits: bits, pattern: pattern))
  }
}
