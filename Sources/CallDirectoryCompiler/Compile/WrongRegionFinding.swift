import PhoneNumbers

/// The wrong-region guard's finding: a source whose numbers written without
/// a country code are mostly invalid for its region, which usually means
/// the config gives it the wrong `region` (a Bulgarian list read as Swiss).
///
/// It fails the build (exit 65) before anything is published. It is a data
/// error, not a publishing guard, so `--force` does not override it; raise
/// the source's `maxInvalidRatio` (up to 1) to accept such a source.
public struct WrongRegionFinding: Sendable, Hashable, CustomStringConvertible {
  /// The source's path as the config writes it.
  public let source: String
  /// The source as the message names it (``SourceSpec/shownName``: with
  /// its list when another source reads the same file).
  public var shownSource: String
  /// The region the source's national numbers were read in.
  public let region: String
  /// Numbers written without a country code.
  public let nationalCount: Int
  /// How many of them are invalid for `region` (impossible, or possible but
  /// not valid).
  public let invalidCount: Int
  /// The guard's limit (`maxInvalidRatio`).
  public let limit: Double
  /// The region most of the sampled invalid numbers are valid in, if any,
  /// with how many of how many samples.
  public let suggestion: String?
  public let suggestionValid: Int
  public let sampled: Int

  /// The invalid fraction.
  public var ratio: Double { nationalCount > 0 ? Double(invalidCount) / Double(nationalCount) : 0 }

  public var description: String {
    let percent = (ratio * 1000).rounded() / 10
    var text = "source \(shownSource): \(invalidCount) of \(nationalCount) numbers written without a country code "
      + "are invalid for region \(region) (\(percent)%, above maxInvalidRatio \(limit))"
    if let suggestion, suggestionValid * 2 >= sampled {
      text += "; they are valid for \(suggestion) — set \"region\": \"\(suggestion)\""
    } else if let suggestion {
      text += "; \(suggestionValid) of \(sampled) checked are valid for \(suggestion); check the source's \"region\""
    } else {
      text += "; check the source's \"region\""
    }
    return text
  }
}

extension WrongRegionFinding {
  /// The finding for a source's counts, or nil when the source passes:
  /// fewer than `BuildConfig.wrongRegionMinimum` national numbers, or an
  /// invalid fraction of at most `limit`. The suggestion re-reads the
  /// sampled invalid numbers as national numbers of every other region.
  static func check(
    _ tally: NationalTally, source: String, shownAs shownSource: String? = nil, region: RegionMetadata, limit: Double,
    normalizer: PhoneNumberNormalizer
  ) -> WrongRegionFinding? {
    guard tally.count >= BuildConfig.wrongRegionMinimum,
      Double(tally.invalid) > limit * Double(tally.count)
    else { return nil }
    let plan = normalizer.plan
    let classifier = plan.classifier
    var validIn: [String: Int] = [:]
    for code in plan.regionCodes where code != region.regionCode {
      guard let candidate = plan.region(code) else { continue }
      for sample in tally.samples {
        let valid = sample.withUnsafeBufferPointer { field -> Bool in
          var national = false
          guard case .success(let number) = normalizer.normalize(utf8: field, region: candidate, writtenNationally: &national),
            national
          else { return false }
          // Valid, and for that region (AX would otherwise take Finnish numbers).
          guard let validity = classifier.validity(of: number) else { return false }
          return validity.isValid && validity.regionCode == code
        }
        if valid { validIn[code, default: 0] += 1 }
      }
    }
    let best = validIn.max { ($0.value, $1.key) < ($1.value, $0.key) }
    return WrongRegionFinding(
      source: source, shownSource: shownSource ?? source, region: region.regionCode, nationalCount: tally.count, invalidCount: tally.invalid,
      limit: limit, suggestion: best?.key, suggestionValid: best?.value ?? 0, sampled: tally.samples.count)
  }
}
