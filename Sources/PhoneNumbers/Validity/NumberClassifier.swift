#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A numbering plan's number types, compiled: libphonenumber's
/// `is_valid_number`, `number_type` and `region_code_for_number` for
/// E.164 numbers as `Int64`, with no regular-expression engine per number.
///
/// Get it once from the plan (``NumberingPlan/classifier``, built on first
/// use) and ask it for many numbers; it is immutable and safe to share
/// between threads.
///
///     let classifier = NumberingPlan.standard.classifier
///     classifier.validity(of: 18_002_752_273)?.type  // .tollFree
public final class NumberClassifier: Sendable {
  /// The regions of each calling code (0...999) in libphonenumber's order.
  private let regionsByCallingCode: [[RegionClassifier]]

  init(plan: NumberingPlan) {
    var table = [[RegionClassifier]](repeating: [], count: 1000)
    for (code, regions) in plan.regionsByCallingCode where code > 0 && code < 1000 {
      table[code] = regions.map { region in
        let key = region.regionCode == "001" ? "001+\(region.callingCode)" : region.regionCode
        return RegionClassifier(region: region, descriptions: plan.typeDescriptions[key] ?? [])
      }
    }
    regionsByCallingCode = table
  }

  /// libphonenumber's verdict on the E.164 number `number` (country calling
  /// code and national significant number, e.g. 41446681800), or nil when
  /// it starts with no calling code of the plan.
  public func validity(of number: Int64) -> NumberValidity? {
    guard number > 0 else { return nil }
    return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { buffer -> NumberValidity? in
      // The decimal digits, most significant first.
      var count = 0
      var rest = UInt64(number)
      while rest > 0 {
        buffer[19 - count] = UInt8(truncatingIfNeeded: rest % 10)
        rest /= 10
        count += 1
      }
      let digits = UnsafeBufferPointer(rebasing: buffer[(20 - count)...])
      // Calling codes are prefix-free: the first 1 to 3 digits that are one.
      var code = 0
      for length in 1...3 where length <= digits.count {
        code = code * 10 + Int(digits[length - 1])
        let regions = regionsByCallingCode[code]
        guard !regions.isEmpty else { continue }
        return Self.validity(
          nationalNumber: UnsafeBufferPointer(rebasing: digits[length...]), regions: regions)
      }
      return nil
    }
  }

  /// The number type of `number` (``PhoneNumberType/unknown`` when it is not
  /// valid), or nil when it starts with no calling code of the plan.
  public func numberType(of number: Int64) -> PhoneNumberType? {
    validity(of: number)?.type
  }

  /// libphonenumber's `region_code_for_number`, then `_number_type_helper`
  /// in that region.
  @inline(__always)
  private static func validity(
    nationalNumber: UnsafeBufferPointer<UInt8>, regions: [RegionClassifier]
  ) -> NumberValidity {
    if regions.count == 1 {
      let only = regions[0]
      return NumberValidity(type: only.type(of: nationalNumber), regionCode: only.region.regionCode)
    }
    for candidate in regions {
      if candidate.hasLeadingDigits {
        if candidate.leadingDigitsMatch(nationalNumber) {
          return NumberValidity(type: candidate.type(of: nationalNumber), regionCode: candidate.region.regionCode)
        }
      } else {
        let type = candidate.type(of: nationalNumber)
        if type != .unknown { return NumberValidity(type: type, regionCode: candidate.region.regionCode) }
      }
    }
    return NumberValidity(type: .unknown, regionCode: regions[0].region.regionCode, isRegionResolved: false)
  }
}

extension NumberingPlan {
  /// The plan's number types compiled for ``NumberClassifier/validity(of:)``;
  /// built on first use (about a few milliseconds), then shared.
  public var classifier: NumberClassifier { classifierBox.classifier(for: self) }

  /// libphonenumber's validity and type of the E.164 number `number`, or nil
  /// when it starts with no calling code of the plan. For many numbers, get
  /// ``classifier`` once instead.
  public func validity(of number: Int64) -> NumberValidity? {
    classifier.validity(of: number)
  }

  /// The number type of `number` (``PhoneNumberType/unknown`` when invalid),
  /// or nil when it starts with no calling code of the plan.
  public func numberType(of number: Int64) -> PhoneNumberType? {
    classifier.validity(of: number)?.type
  }
}

/// Holds a plan's classifier, built once under a lock by the first caller.
final class _ClassifierBox: @unchecked Sendable {
  private var mutex = pthread_mutex_t()
  private var built: NumberClassifier?

  init() { pthread_mutex_init(&mutex, nil) }
  deinit { pthread_mutex_destroy(&mutex) }

  func classifier(for plan: NumberingPlan) -> NumberClassifier {
    pthread_mutex_lock(&mutex)
    defer { pthread_mutex_unlock(&mutex) }
    if let built { return built }
    let classifier = NumberClassifier(plan: plan)
    built = classifier
    return classifier
  }
}
