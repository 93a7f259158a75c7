import PhoneNumbers

/// A source's number rules (``NumberRules``) ready for the hot path:
/// `require: valid`, `types`, and the counts the wrong-region guard needs.
struct NumberCheck: Sendable {
  let classifier: NumberClassifier
  /// `require: valid`.
  let requireValid: Bool
  /// `types`, as bits by `PhoneNumberType.allCases` index; nil keeps all.
  let typeMask: UInt16?
  /// Whether numbers written without a country code are counted for the
  /// wrong-region guard (the source has a region).
  let countsNational: Bool
  /// The verdicts the source region's calling code's table decides (most
  /// of a regional source's numbers are of that code).
  let regionBand: VerdictBand

  /// The check for a source with `rules` read in `region`, or nil when
  /// nothing needs checking. Only the wrong-region guard (no `require`, no
  /// `types`) needs the types of the region's own calling code alone, which
  /// compile in a moment; the rules need every region's.
  init?(rules: NumberRules, region: RegionMetadata?, plan: NumberingPlan) {
    guard rules.checksNumbers || region != nil else { return nil }
    if rules.checksNumbers {
      self.classifier = plan.classifier
    } else if let region {
      self.classifier = plan.classifier(forCallingCodes: [region.callingCode])
    } else {
      return nil
    }
    self.requireValid = rules.requireValid
    self.typeMask = rules.types.map { types in
      types.reduce(0) { $0 | 1 << UInt16($1.index) }
    }
    self.countsNational = region != nil
    let classifier = self.classifier
    self.regionBand = region.map { classifier.verdictBand(callingCode: $0.callingCode) } ?? VerdictBand()
  }

  /// Whether `type` passes `types`.
  @inline(__always)
  func keeps(_ type: PhoneNumberType) -> Bool {
    guard let typeMask else { return true }
    return typeMask & (1 << UInt16(type.index)) != 0
  }
}

/// A ``NumberCheck`` as a per-record loop uses it: plain values and the
/// classifier unretained, so that copying it costs no reference counting
/// (the workers would otherwise contend, record after record, on the one
/// count of the shared classifier). Valid while the check it came from
/// lives, which the loops' callers ensure by holding it.
struct RecordCheck {
  private let classifier: Unmanaged<NumberClassifier>
  private let regionBand: VerdictBand
  let requireValid: Bool
  let typeMask: UInt16?
  let countsNational: Bool

  init(_ check: NumberCheck) {
    classifier = .passUnretained(check.classifier)
    regionBand = check.regionBand
    requireValid = check.requireValid
    typeMask = check.typeMask
    countsNational = check.countsNational
  }

  /// The classifier's validity of `number`: read off the region's verdict
  /// table when that decides it, without writing the number's digits out.
  @inline(__always)
  func validity(of number: Int64) -> NumberValidity? {
    if let verdict = regionBand.validity(of: number) { return verdict }
    return classifier._withUnsafeGuaranteedRef { $0.validity(of: number) }
  }

  /// Whether `type` passes `types`.
  @inline(__always)
  func keeps(_ type: PhoneNumberType) -> Bool {
    guard let typeMask else { return true }
    return typeMask & (1 << UInt16(type.index)) != 0
  }
}

/// What one piece of a source gave the wrong-region guard: numbers written
/// without a country code, how many of them are invalid for the source's
/// region (impossible or possible but not valid), and the text of the
/// first invalid ones, to find the region they belong to.
struct NationalTally: Sendable {
  var count = 0
  var invalid = 0
  var samples: [[UInt8]] = []
  /// How many invalid national numbers are kept to suggest a region.
  static let sampleLimit = 64

  /// Counts one number; an invalid one is kept as a sample unless
  /// `sample` is false (numbers too short for the region: fragments and
  /// short codes, which flexible plans such as LU's take as valid, so they
  /// would only blur the suggestion).
  @inline(__always)
  mutating func add(valid: Bool, field: UnsafeBufferPointer<UInt8>, sample: Bool = true) {
    count += 1
    guard !valid else { return }
    invalid += 1
    if sample && samples.count < Self.sampleLimit { samples.append(Array(field)) }
  }

  mutating func add(_ other: NationalTally) {
    count += other.count
    invalid += other.invalid
    for sample in other.samples where samples.count < Self.sampleLimit { samples.append(sample) }
  }
}
