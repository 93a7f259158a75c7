#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif
import CalldirHost
import CalldirSystem

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
  /// The compiled calling codes; they own the cores the tables below point to.
  let groups: [Int: CallingCodeTypes]
  /// For each calling code 0...999, what the hot path needs of it, in one
  /// place (one cache line read per number).
  private nonisolated(unsafe) let entries: UnsafeMutablePointer<CodeEntry>

  struct CodeEntry {
    /// How many regions the code has in the plan (0: no calling code).
    var regions: Int32 = 0
    /// Its regions' cores, side by side (nil: not compiled here).
    var cores: UnsafeMutablePointer<TypeCore>?
    /// ``CallingCodeTypes/candidates``, for a shared code.
    var candidates: UnsafeMutablePointer<UInt32>?
    /// ``CallingCodeTypes/verdicts``: its entries and the national length
    /// they answer for (0: none).
    var verdicts: UnsafeMutablePointer<UInt16>?
    var verdictLength = 0
    /// ``CallingCodeTypes/regionWords``.
    var regionWords: UnsafeMutablePointer<UInt64>?
  }

  /// Compiles `plan`'s number types, or only those of `callingCodes` (the
  /// others then have no verdict).
  convenience init(plan: NumberingPlan, callingCodes: Set<Int>? = nil) {
    var groups: [Int: CallingCodeTypes] = [:]
    for code in plan.regionsByCallingCode.keys where callingCodes?.contains(code) != false {
      if let group = CallingCodeTypes(plan: plan, callingCode: code) { groups[code] = group }
    }
    self.init(plan: plan, groups: groups)
  }

  /// A classifier over calling codes compiled before (shared, not copied).
  init(plan: NumberingPlan, groups: [Int: CallingCodeTypes]) {
    self.groups = groups
    entries = .allocate(capacity: 1000)
    entries.initialize(repeating: CodeEntry(), count: 1000)
    for (code, regions) in plan.regionsByCallingCode where code > 0 && code < 1000 {
      entries[code].regions = Int32(min(regions.count, CallingCodeTypes.regionLimit))
    }
    for (code, group) in groups {
      entries[code].cores = group.cores
      entries[code].candidates = group.candidates
      entries[code].verdicts = group.verdicts?.entries
      entries[code].verdictLength = group.verdicts?.length ?? 0
      entries[code].regionWords = group.regionWords
    }
  }

  deinit {
    entries.deallocate()
  }

  /// libphonenumber's verdict on the E.164 number `number` (country calling
  /// code and national significant number, e.g. 41446681800), or nil when
  /// it starts with no calling code of the plan, or one not compiled here.
  @inline(__always)
  public func validity(of number: Int64) -> NumberValidity? {
    if case .verdict(let verdict) = lookup(number) { return verdict }
    return nil
  }

  /// What ``validity(of:)`` finds for `number`.
  enum Lookup {
    case verdict(NumberValidity)
    /// The number starts with no calling code of the plan.
    case noCallingCode
    /// Its calling code's types are not compiled into this classifier.
    case notCompiled(callingCode: Int)
  }

  @inline(__always)
  func lookup(_ number: Int64) -> Lookup {
    guard number > 0 else { return .noCallingCode }
    return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: NumberDigits.capacity) { buffer -> Lookup in
      let start = NumberDigits.write(UInt64(number), into: buffer.baseAddress!)
      return lookup(digits: UnsafeBufferPointer(rebasing: buffer[start...]))
    }
  }

  /// ``lookup(_:)`` of the number whose decimal digits (values 0–9) are `digits`.
  @inline(__always)
  func lookup(digits: UnsafeBufferPointer<UInt8>) -> Lookup {
    // Calling codes are prefix-free: the first 1 to 3 digits that are one.
    var code = 0
    for length in 1...3 where length <= digits.count {
      code = code &* 10 &+ Int(digits[length &- 1])
      let entry = entries[code]
      guard entry.regions > 0 else { continue }
      guard let cores = entry.cores else { return .notCompiled(callingCode: code) }
      return .verdict(validity(nationalNumber: UnsafeBufferPointer(rebasing: digits[length...]), entry: entry, cores: cores))
    }
    return .noCallingCode
  }

  /// ``lookup(_:)`` of a number already split: `callingCode` is a calling
  /// code of the plan and `nationalNumber` the digits after it (values 0–9),
  /// as the normalizer found them, so neither the digits nor the code
  /// need finding again.
  @inline(__always)
  func lookup(callingCode code: Int, nationalNumber: UnsafeBufferPointer<UInt8>) -> Lookup {
    guard code > 0 && code < 1000 else { return .noCallingCode }
    let entry = entries[code]
    guard entry.regions > 0 else { return .noCallingCode }
    guard let cores = entry.cores else { return .notCompiled(callingCode: code) }
    return .verdict(validity(nationalNumber: nationalNumber, entry: entry, cores: cores))
  }

  /// The verdict table of calling code `code` with what reading it needs,
  /// or nil when the code has none here (not a code, not compiled, no
  /// table). Valid while this classifier lives.
  @inline(__always)
  func verdictLookup(callingCode code: Int) -> VerdictLookup? {
    guard code > 0 && code < 1000 else { return nil }
    let entry = entries[code]
    guard let verdicts = entry.verdicts, let regionWords = entry.regionWords else { return nil }
    return VerdictLookup(entries: verdicts, length: entry.verdictLength, regionWords: regionWords)
  }

  /// The verdicts of `callingCode`'s numbers that its table decides, read
  /// from the number's value alone (for a list mostly of one code, such
  /// as a source's numbers written without one); the empty band when the
  /// code has no table here. Valid while this classifier lives.
  public func verdictBand(callingCode code: Int) -> VerdictBand {
    verdictLookup(callingCode: code).map { VerdictBand(callingCode: code, lookup: $0) } ?? VerdictBand()
  }

  /// The number type of `number` (``PhoneNumberType/unknown`` when it is not
  /// valid), or nil when it starts with no calling code of the plan.
  public func numberType(of number: Int64) -> PhoneNumberType? {
    validity(of: number)?.type
  }

  /// libphonenumber's verdict for a national number of the calling code
  /// of `entry` (compiled: its regions' cores are `cores`): the verdict
  /// table's answer when it has one, else ``walkedValidity(nationalNumber:cores:regions:candidates:)``.
  @inline(__always)
  private func validity(
    nationalNumber: UnsafeBufferPointer<UInt8>, entry: CodeEntry, cores: UnsafeMutablePointer<TypeCore>
  ) -> NumberValidity {
    if nationalNumber.count == entry.verdictLength, let verdicts = entry.verdicts,
      let index = VerdictTable.index(nationalNumber)
    {
      let packed = verdicts[index]
      if packed != 0 { return VerdictTable.verdict(packed, cores: cores) }
    }
    return walkedValidity(
      nationalNumber: nationalNumber, cores: cores, regions: Int(entry.regions), candidates: entry.candidates)
  }

  /// libphonenumber's `region_code_for_number`, then `_number_type_helper`
  /// in that region, through the regions' automata.
  @inline(__always)
  func walkedValidity(
    nationalNumber: UnsafeBufferPointer<UInt8>, cores first: UnsafeMutablePointer<TypeCore>, regions: Int,
    candidates: UnsafeMutablePointer<UInt32>?
  ) -> NumberValidity {
    if regions == 1 {
      return NumberValidity(type: first.pointee.type(of: nationalNumber), packedRegion: first.pointee.packedRegion)
    }
    var candidateBits: UInt32 = .max
    if nationalNumber.count >= 3, let candidates {
      candidateBits = candidates[Int(nationalNumber[0]) &* 100 &+ Int(nationalNumber[1]) &* 10 &+ Int(nationalNumber[2])]
    }
    while candidateBits != 0 {
      let index = candidateBits.trailingZeroBitCount
      candidateBits &= candidateBits &- 1
      guard index < regions else { break }
      let candidate = first + index
      if candidate.pointee.hasLeadingDigits {
        if candidate.pointee.leadingDigitsMatch(nationalNumber) {
          return NumberValidity(type: candidate.pointee.type(of: nationalNumber), packedRegion: candidate.pointee.packedRegion)
        }
      } else {
        let type = candidate.pointee.type(of: nationalNumber)
        if type != .unknown { return NumberValidity(type: type, packedRegion: candidate.pointee.packedRegion) }
      }
    }
    return NumberValidity(type: .unknown, packedRegion: first.pointee.packedRegion, isRegionResolved: false)
  }
}

/// One calling code's regions compiled for ``NumberClassifier``, in
/// libphonenumber's order (the main region first).
final class CallingCodeTypes: Sendable {
  /// Candidate sets are bit sets of 32 regions (no calling code has more).
  static let regionLimit = 32
  let classifiers: [RegionClassifier]
  /// `cores[i]` is a copy of `classifiers[i].core`, whose tables the
  /// classifiers own: side by side, so that a number's candidates are
  /// read without a pointer chase.
  nonisolated(unsafe) let cores: UnsafeMutablePointer<TypeCore>
  /// For a shared calling code, indexed by the first three digits of the
  /// national number: which of its regions (bit i for the i-th) can be the
  /// number's (their `leading_digits` may match, or they have none and one
  /// of their patterns may); nil for a code of one region.
  nonisolated(unsafe) let candidates: UnsafeMutablePointer<UInt32>?
  /// The verdicts the first four digits decide, for numbers of the main
  /// region's longest length (nil when that is under five digits).
  nonisolated(unsafe) let verdicts: VerdictTable?
  /// For each region, the ``NumberValidity/word`` of an unknown-type
  /// verdict in it, region unresolved: a verdict table entry's word is its
  /// region's with the type and resolution bits added.
  nonisolated(unsafe) let regionWords: UnsafeMutablePointer<UInt64>

  /// Compiles the regions of `callingCode`, or nil when the plan has none.
  init?(plan: NumberingPlan, callingCode code: Int) {
    guard code > 0 && code < 1000, let regions = plan.regionsByCallingCode[code], !regions.isEmpty else { return nil }
    let classifiers = Self.compile(Array(regions.prefix(Self.regionLimit)), plan: plan)
    self.classifiers = classifiers
    cores = .allocate(capacity: classifiers.count)
    for (index, classifier) in classifiers.enumerated() { (cores + index).initialize(to: classifier.core.pointee) }
    regionWords = .allocate(capacity: classifiers.count)
    for (index, classifier) in classifiers.enumerated() {
      (regionWords + index).initialize(
        to: NumberValidity.word(typeIndex: 0, packedRegion: classifier.core.pointee.packedRegion, isRegionResolved: false))
    }
    guard classifiers.count > 1 else {
      candidates = nil
      verdicts = VerdictTable.build(classifiers: classifiers, candidates: nil)
      return
    }
    let table = UnsafeMutablePointer<UInt32>.allocate(capacity: 1000)
    for prefix in 0..<1000 {
      let digits = [UInt8(prefix / 100), UInt8(prefix / 10 % 10), UInt8(prefix % 10)]
      var bits: UInt32 = 0
      // A region without `leading_digits` is the number's only if one of
      // its types matches, which cannot happen once its automaton is dead.
      for (index, classifier) in classifiers.enumerated()
      where classifier.core.pointee.hasLeadingDigits
        ? classifier.core.pointee.leadingDigitsMayMatch(startingWith: digits)
        : classifier.mayMatchSomeType(startingWith: digits) {
        bits |= 1 << UInt32(index)
      }
      table[prefix] = bits
    }
    candidates = table
    verdicts = VerdictTable.build(classifiers: classifiers, candidates: table)
  }

  /// The classifiers of `regions`, in their order, compiled on every core
  /// (the threads of a batch normalizer wait for them).
  private static func compile(_ regions: [RegionMetadata], plan: NumberingPlan) -> [RegionClassifier] {
    Parallel.mapOnOwnThreads(regions.count) { index in
      let region = regions[index]
      let key = region.regionCode == "001" ? "001+\(region.callingCode)" : region.regionCode
      return RegionClassifier(region: region, descriptions: plan.typeDescriptions(forKey: key))
    }
  }

  deinit {
    cores.deinitialize(count: classifiers.count)
    cores.deallocate()
    candidates?.deallocate()
    verdicts?.entries.deallocate()
    regionWords.deallocate()
  }
}

/// A classifier for one thread's stream of numbers that compiles each
/// calling code's types when the first of its numbers comes (a single
/// region's types compile in well under a millisecond; all of them take
/// tens). The codes compiled are shared through the plan, so every copy
/// and every later classifier of the plan finds them ready.
struct IncrementalClassifier {
  private let plan: NumberingPlan
  private var compiled: NumberClassifier

  init(plan: NumberingPlan) {
    self.plan = plan
    compiled = plan.classifierBox.classifier(for: plan, adding: nil)
  }

  /// ``NumberClassifier/validity(of:)``, compiling the number's calling
  /// code first if needed.
  @inline(__always)
  mutating func validity(of number: Int64) -> NumberValidity? {
    switch compiled.lookup(number) {
    case .verdict(let verdict): return verdict
    case .noCallingCode: return nil
    case .notCompiled(let code):
      compiled = plan.classifierBox.classifier(for: plan, adding: code)
      return compiled.validity(of: number)
    }
  }

  /// ``NumberClassifier/verdictLookup(callingCode:)`` of the codes compiled
  /// so far; valid while this classifier lives.
  @inline(__always)
  func verdictLookup(callingCode: Int) -> VerdictLookup? {
    compiled.verdictLookup(callingCode: callingCode)
  }

  /// ``validity(callingCode:nationalNumber:)`` as a word, for where the
  /// table has no answer (kept out of line, so the table read inlines
  /// into loops).
  @inline(never)
  mutating func walkedVerdictWord(callingCode: Int, nationalNumber: UnsafeBufferPointer<UInt8>) -> UInt64 {
    validity(callingCode: callingCode, nationalNumber: nationalNumber)?.word ?? 0
  }

  /// ``validity(of:)`` for a number already split into its calling code
  /// and national number (values 0–9), as
  /// ``NumberClassifier/lookup(callingCode:nationalNumber:)`` takes it.
  @inline(__always)
  mutating func validity(callingCode: Int, nationalNumber: UnsafeBufferPointer<UInt8>) -> NumberValidity? {
    switch compiled.lookup(callingCode: callingCode, nationalNumber: nationalNumber) {
    case .verdict(let verdict): return verdict
    case .noCallingCode: return nil
    case .notCompiled(let code):
      compiled = plan.classifierBox.classifier(for: plan, adding: code)
      if case .verdict(let verdict) = compiled.lookup(callingCode: callingCode, nationalNumber: nationalNumber) {
        return verdict
      }
      return nil
    }
  }
}

extension NumberingPlan {
  /// The plan's number types compiled for ``NumberClassifier/validity(of:)``,
  /// every calling code's: built on first use (some tens of milliseconds;
  /// codes compiled before for the batch normalizer are reused), then shared.
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

/// Holds a plan's compiled calling codes, under a lock: the classifier
/// of every code (``NumberingPlan/classifier``, built once by the first
/// caller), or of the codes compiled so far one by one.
final class _ClassifierBox: @unchecked Sendable {
  private var mutex = pthread_mutex_t()
  private var latest: NumberClassifier?
  private var complete = false

  init() { pthread_mutex_init(&mutex, nil) }
  deinit { pthread_mutex_destroy(&mutex) }

  /// The classifier of every calling code of `plan`.
  func classifier(for plan: NumberingPlan) -> NumberClassifier {
    pthread_mutex_lock(&mutex)
    defer { pthread_mutex_unlock(&mutex) }
    if complete, let latest { return latest }
    var groups = latest?.groups ?? [:]
    // The codes with most regions first, so that the cores finish together.
    let missing = plan.regionsByCallingCode.filter { groups[$0.key] == nil }
      .sorted { ($0.value.count, $1.key) > ($1.value.count, $0.key) }.map(\.key)
    let compiled = Parallel.mapOnOwnThreads(missing.count) { CallingCodeTypes(plan: plan, callingCode: missing[$0]) }
    for (code, types) in zip(missing, compiled) { groups[code] = types }
    let classifier = NumberClassifier(plan: plan, groups: groups)
    latest = classifier
    complete = true
    return classifier
  }

  /// The latest classifier, with `code` compiled into it if it was not.
  func classifier(for plan: NumberingPlan, adding code: Int?) -> NumberClassifier {
    pthread_mutex_lock(&mutex)
    defer { pthread_mutex_unlock(&mutex) }
    let current = latest ?? NumberClassifier(plan: plan, groups: [:])
    guard let code, current.groups[code] == nil, let group = CallingCodeTypes(plan: plan, callingCode: code) else {
      latest = current
      return current
    }
    var groups = current.groups
    groups[code] = group
    let classifier = NumberClassifier(plan: plan, groups: groups)
    latest = classifier
    return classifier
  }
}
