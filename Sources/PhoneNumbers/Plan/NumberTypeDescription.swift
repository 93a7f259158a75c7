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
  static func typeDescriptions(
    _ table: String, regions: [String: RegionMetadata]
  ) throws(NumberingPlanError) -> [String: [NumberTypeDescription]] {
    var result: [String: [NumberTypeDescription]] = [:]
    var seenHeader = false
    var lineNumber = 0
    func failure(_ reason: String) -> NumberingPlanError {
      NumberingPlanError(line: lineNumber, reason: "types table: \(reason)")
    }
    for line in table.split(separator: "\n", omittingEmptySubsequences: false) {
      lineNumber += 1
      if line.isEmpty || line.hasPrefix("#") { continue }
      let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
      guard seenHeader else {
        guard fields == typeColumns.map({ Substring($0) }) else { throw failure("unexpected header") }
        seenHeader = true
        continue
      }
      guard fields.count == typeColumns.count else {
        throw failure("expected \(typeColumns.count) fields, found \(fields.count)")
      }
      let key = fields[0] == "001" ? "001+\(fields[1])" : String(fields[0])
      guard let region = regions[key], String(region.callingCode) == fields[1] else {
        throw failure("unknown region \(fields[0]) +\(fields[1])")
      }
      guard let type = PhoneNumberType(rawValue: String(fields[2])), PhoneNumberType.described.contains(type) else {
        throw failure("unknown number type '\(fields[2])'")
      }
      guard result[key]?.contains(where: { $0.type == type }) != true else {
        throw failure("second \(type) for \(fields[0])")
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
      result[key, default: []].append(NumberTypeDescription(type: type, lengthBits: bits, pattern: pattern))
    }
    guard seenHeader || table.isEmpty else { throw failure("missing header") }
    return result
  }
}
