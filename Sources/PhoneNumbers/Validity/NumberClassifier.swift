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
  /// Every region's classifier, grouped by calling code in libphonenumber's
  /// order; they own the cores below.
  private let classifiers: [RegionClassifier]
  /// `cores[i]` is `classifiers[i].core`.
  private nonisolated(unsafe) let cores: UnsafeMutablePointer<UnsafePointer<TypeCore>>
  /// For each calling code 0...999, where its regions start in `cores` and
  /// how many there are (0: no calling code).
  private nonisolated(unsafe) let firstCore: UnsafeMutablePointer<Int32>
  private nonisolated(unsafe) let coreCount: UnsafeMutablePointer<Int32>
  /// For a shared calling code, indexed by the first three digits of the
  /// national number: which of its regions (bit i for the i-th) can be the
  /// number's (their `leading_digits` may match, or they have none); nil
  /// for other codes.
  private nonisolated(unsafe) let candidates: UnsafeMutablePointer<UnsafeMutablePointer<UInt32>?>

  /// Compiles `plan`'s number types, or only those of `callingCodes` (the
  /// others then have no verdict).
  init(plan: NumberingPlan, callingCodes: Set<Int>? = nil) {
    var classifiers: [RegionClassifier] = []
    firstCore = .allocate(capacity: 1000)
    firstCore.initialize(repeating: 0, count: 1000)
    coreCount = .allocate(capacity: 1000)
    coreCount.initialize(repeating: 0, count: 1000)
    candidates = .allocate(capacity: 1000)
    candidates.initialize(repeating: nil, count: 1000)
    for (code, regions) in plan.regionsByCallingCode.sorted(by: { $0.key < $1.key })
    where code > 0 && code < 1000 && callingCodes?.contains(code) != false {
      firstCore[code] = Int32(classifiers.count)
      coreCount[code] = Int32(min(regions.count, 32))
      let group = regions.prefix(32).map { region in
        let key = region.regionCode == "001" ? "001+\(region.callingCode)" : region.regionCode
        return RegionClassifier(region: region, descriptions: plan.typeDescriptions[key] ?? [])
      }
      classifiers.append(contentsOf: group)
      guard group.count > 1 else { continue }
      let table = UnsafeMutablePointer<UInt32>.allocate(capacity: 1000)
      for prefix in 0..<1000 {
        let digits = [UInt8(prefix / 100), UInt8(prefix / 10 % 10), UInt8(prefix % 10)]
        var bits: UInt32 = 0
        for (index, classifier) in group.enumerated()
        where !classifier.core.pointee.hasLeadingDigits || classifier.core.pointee.leadingDigitsMayMatch(startingWith: digits) {
          bits |= 1 << UInt32(index)
        }
        table[prefix] = bits
      }
      candidates[code] = table
    }
    self.classifiers = classifiers
    cores = .allocate(capacity: max(1, classifiers.count))
    for (index, classifier) in classifiers.enumerated() { (cores + index).initialize(to: UnsafePointer(classifier.core)) }
  }

  deinit {
    for code in 0..<1000 { candidates[code]?.deallocate() }
    candidates.deallocate()
    firstCore.deallocate()
    coreCount.deallocate()
    cores.deallocate()
  }

  /// libphonenumber's verdict on the E.164 number `number` (country calling
  /// code and national significant number, e.g. 41446681800), or nil when
  /// it starts with no calling code of the plan.
  @inline(__always)
  public func validity(of number: Int64) -> NumberValidity? {
    guard number > 0 else { return nil }
    return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { buffer -> NumberValidity? in
      // The decimal digits, most significant first, two per division.
      var count = 0
      var rest = UInt64(number)
      while rest >= 100 {
        let pair = rest % 100
        rest /= 100
        buffer[19 &- count] = UInt8(truncatingIfNeeded: pair % 10)
        buffer[18 &- count] = UInt8(truncatingIfNeeded: pair / 10)
        count &+= 2
      }
      while rest > 0 {
        buffer[19 &- count] = UInt8(truncatingIfNeeded: rest % 10)
        rest /= 10
        count &+= 1
      }
      let digits = UnsafeBufferPointer(rebasing: buffer[(20 - count)...])
      // Calling codes are prefix-free: the first 1 to 3 digits that are one.
      var code = 0
      for length in 1...3 where length <= digits.count {
        code = code &* 10 &+ Int(digits[length &- 1])
        let regions = Int(coreCount[code])
        guard regions > 0 else { continue }
        return validity(
          nationalNumber: UnsafeBufferPointer(rebasing: digits[length...]), code: code, regions: regions)
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
  private func validity(nationalNumber: UnsafeBufferPointer<UInt8>, code: Int, regions: Int) -> NumberValidity {
    let first = cores + Int(firstCore[code])
    if regions == 1 {
      let only = first.pointee
      return NumberValidity(type: only.pointee.type(of: nationalNumber), packedRegion: only.pointee.packedRegion)
    }
    var candidateBits: UInt32 = .max
    if nationalNumber.count >= 3, let table = candidates[code] {
      candidateBits = table[Int(nationalNumber[0]) &* 100 &+ Int(nationalNumber[1]) &* 10 &+ Int(nationalNumber[2])]
    }
    while candidateBits != 0 {
      let index = candidateBits.trailingZeroBitCount
      candidateBits &= candidateBits &- 1
      guard index < regions else { break }
      let candidate = first[index]
      if candidate.pointee.hasLeadingDigits {
        if candidate.pointee.leadingDigitsMatch(nationalNumber) {
          return NumberValidity(type: candidate.pointee.type(of: nationalNumber), packedRegion: candidate.pointee.packedRegion)
        }
      } else {
        let type = candidate.pointee.type(of: nationalNumber)
        if type != .unknown { return NumberValidity(type: type, packedRegion: candidate.pointee.packedRegion) }
      }
    }
    return NumberValidity(type: .unknown, packedRegion: first.pointee.pointee.packedRegion, isRegionResolved: false)
  }
}

extension NumberingPlan {
  /// The plan's number types compiled for ``NumberClassifier/validity(of:)``;
  /// built on first use (about a few milliseconds), then shared.
  public var classifier: NumberClassifier { classifierBox.classifier(for: self) }

  /// A classifier for numbers of `callingCodes` only, compiled now: for a
  /// few numbers, cheaper than ``classifier`` (which compiles every region,
  /// some tens of milliseconds). Numbers of other codes have no verdict.
  public func classifier(forCallingCodes callingCodes: Set<Int>) -> NumberClassifier {
    NumberClassifier(plan: self, callingCodes: callingCodes)
  }

  /// The calling code `number` starts with, or nil.
  public func callingCode(of number: Int64) -> Int? {
    guard number > 0 else { return nil }
    var digits = 0
    var rest = number
    while rest > 0 { rest /= 10; digits += 1 }
    var divisor: Int64 = 1
    for _ in 0..<max(0, digits - 1) { divisor *= 10 }
    var code = 0
    for _ in 0..<min(3, digits) {
      code = code * 10 + Int(number / divisor % 10)
      divisor /= 10
      if isCallingCode(code) { return code }
    }
    return nil
  }

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
