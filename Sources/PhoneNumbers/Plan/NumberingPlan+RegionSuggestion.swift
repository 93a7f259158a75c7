extension NumberingPlan {
  /// Well-known codes that are not ISO 3166 region codes, and the region
  /// they stand for: `UK` is reserved by ISO for `GB`, `EL` is the European
  /// Union's code for Greece.
  static let regionAliases = ["UK": "GB", "EL": "GR"]

  /// The region code a user most likely meant by a code the plan does not
  /// know, for "did you mean" hints; `nil` when nothing is close.
  ///
  /// Two-letter codes are too dense for edit distances (almost any typo is
  /// another real region), so only unambiguous matches count: the same
  /// letters in another case or with white space around them (`ch`, ` CH`
  /// → `CH`; `zz` → `ZZ`, "no region"), a well-known alias (`UK` → `GB`),
  /// or a country calling code, with or without `+` (`41`, `+41` → `CH`).
  ///
  /// - Parameter code: What the user wrote.
  /// - Returns: A code that ``region(_:)`` knows, or `"ZZ"`.
  public func suggestedRegionCode(for code: String) -> String? {
    let trimmed = String(code.unicodeScalars.filter { !$0.properties.isWhitespace })
    let upper = trimmed.uppercased()
    if upper == "ZZ" { return code == "ZZ" ? nil : "ZZ" }
    if region(upper) != nil { return upper == code ? nil : upper }
    if let alias = Self.regionAliases[upper] { return alias }
    let digits = upper.hasPrefix("+") ? upper.dropFirst() : Substring(upper)
    if (1...3).contains(digits.count), digits.allSatisfy({ $0.isASCII && $0.isNumber }),
      let callingCode = Int(digits), let main = mainRegion(forCallingCode: callingCode),
      region(main.regionCode) != nil
    {
      return main.regionCode
    }
    return nil
  }
}
