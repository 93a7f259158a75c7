/// Turns any phone number people write into a `CXCallDirectoryPhoneNumber`:
/// the country calling code followed by the national significant number, as
/// an Int64 (`+44 20 7946 0018` → 442079460018).
///
/// The semantics are libphonenumber's `parse` followed by
/// `is_possible_number` and E.164 formatting: international prefixes per
/// region, national prefixes and their transform rules (also after `+CC`),
/// extensions, vanity letters, decimal digits of every script, `tel:` URIs.
///
///     let normalizer = PhoneNumberNormalizer()
///     let uk = normalizer.plan.region("GB")
///     normalizer.normalize("020 7946 0018", region: uk)  // .success(442079460018)
public struct PhoneNumberNormalizer: Sendable {
  /// The numbering plan numbers are read against.
  public let plan: NumberingPlan

  /// Creates a normalizer over `plan` (by default the embedded one).
  public init(plan: NumberingPlan = .standard) {
    self.plan = plan
  }

  /// Normalizes `input`, reading numbers without a country code as numbers
  /// of `region`.
  /// - Parameters:
  ///   - input: the text as written in a list, without its line ending.
  ///   - region: the default region, or nil for none (then only numbers with
  ///     `+` or a `tel:` context can be read).
  /// - Returns: the number, or why it was rejected.
  public func normalize(_ input: String, region: RegionMetadata?) -> Result<Int64, NormalizationRejection> {
    PackedOutcome.result(packedOutcome(input, region: region))
  }

  /// Normalizes `input`; a throwing form of `normalize(_:region:)`.
  public func number(from input: String, region: RegionMetadata?) throws(NormalizationRejection) -> Int64 {
    let packed = packedOutcome(input, region: region)
    guard packed >= 0 else { throw PackedOutcome.rejection(packed: packed) }
    return packed
  }

  /// Normalizes the UTF-8 text `utf8` (one input, without its line ending)
  /// exactly as `normalize(String(decoding: utf8, as: UTF8.self), region:)`,
  /// but without creating a String or allocating for the common inputs.
  /// Ill-formed UTF-8 is read with replacement characters, as that String.
  public func normalize(utf8: UnsafeBufferPointer<UInt8>, region: RegionMetadata?) -> Result<Int64, NormalizationRejection> {
    PackedOutcome.result(packedOutcome(utf8: utf8, region: region))
  }

  /// `normalize(utf8:region:)`, also telling how the number was written:
  /// `writtenNationally` is set to true when the input had no country
  /// calling code (no `+`, no international prefix, no leading code of
  /// `region`) and was read as a national number of `region`, whether or
  /// not that number then turned out possible; false otherwise.
  public func normalize(
    utf8: UnsafeBufferPointer<UInt8>, region: RegionMetadata?, writtenNationally: inout Bool
  ) -> Result<Int64, NormalizationRejection> {
    var national = false
    let packed = withUnsafeMutablePointer(to: &national) { packedOutcome(utf8: utf8, region: region, national: $0) }
    writtenNationally = national
    return PackedOutcome.result(packed)
  }

  /// Normalizes the UTF-8 text `utf8`; a throwing form of `normalize(utf8:region:)`.
  public func number(utf8: UnsafeBufferPointer<UInt8>, region: RegionMetadata?) throws(NormalizationRejection) -> Int64 {
    let packed = packedOutcome(utf8: utf8, region: region)
    guard packed >= 0 else { throw PackedOutcome.rejection(packed: packed) }
    return packed
  }

  // MARK: - Front ends

  /// The packed outcome for `input`: the byte fast path when it applies,
  /// else the general path.
  func packedOutcome(_ input: String, region: RegionMetadata?) -> Int64 {
    let fast = input.utf8.withContiguousStorageIfAvailable { fastPackedOutcome(utf8: $0, region: region) }
    if let fast, fast != PackedOutcome.notHandled { return fast }
    return generalPackedOutcome(input, region: region)
  }

  /// The packed outcome for UTF-8 text: the exact E.164 path, the byte
  /// fast path (on the text, or on its full-width digits transcoded) or the
  /// general path on the decoded text, the first that answers. `national`, when given, is set as `writtenNationally`
  /// describes (an exact E.164 line was not written nationally).
  @inline(__always)
  func packedOutcome(
    utf8: UnsafeBufferPointer<UInt8>, region: RegionMetadata?, national: UnsafeMutablePointer<Bool>? = nil
  ) -> Int64 {
    if let number = exactE164(utf8: utf8) { return number }
    return packedOutcomeAfterExactPath(utf8: utf8, region: region, national: national)
  }

  /// ``packedOutcome(utf8:region:national:)`` for text the exact E.164 path
  /// has already declined.
  @inline(__always)
  func packedOutcomeAfterExactPath(
    utf8: UnsafeBufferPointer<UInt8>, region: RegionMetadata?, national: UnsafeMutablePointer<Bool>? = nil
  ) -> Int64 {
    let fast = fastPackedOutcome(utf8: utf8, region: region, national: national)
    if fast != PackedOutcome.notHandled { return fast }
    return packedOutcomeAfterFastPath(utf8: utf8, region: region, national: national)
  }

  /// ``packedOutcome(utf8:region:national:)`` for text the byte fast path
  /// has declined too: full-width digits, then the general path.
  func packedOutcomeAfterFastPath(
    utf8: UnsafeBufferPointer<UInt8>, region: RegionMetadata?, national: UnsafeMutablePointer<Bool>?
  ) -> Int64 {
    let fullWidth = fullWidthPackedOutcome(utf8: utf8, region: region, national: national)
    if fullWidth != PackedOutcome.notHandled { return fullWidth }
    if utf8.count <= 250 && !utf8.contains(where: { $0 >= 0x80 }) {
      // ASCII: the bytes are the scalars.
      return generalPackedOutcome(scalars: utf8.map { UInt32($0) }, region: region, national: national)
    }
    return generalPackedOutcome(String(decoding: utf8, as: UTF8.self), region: region, national: national)
  }

  /// The general path: libphonenumber's pipeline on Unicode scalars, for
  /// every input (the fast path must agree with it wherever it applies).
  func generalPackedOutcome(
    _ input: String, region: RegionMetadata?, national: UnsafeMutablePointer<Bool>? = nil
  ) -> Int64 {
    var scalars: [UInt32] = []
    scalars.reserveCapacity(input.utf8.count)
    for scalar in input.unicodeScalars {
      scalars.append(scalar.value)
      // libphonenumber refuses inputs over 250 characters.
      guard scalars.count <= 250 else { return PackedOutcome.rejection(.tooLong) }
    }
    return generalPackedOutcome(scalars: scalars, region: region, national: national)
  }

  /// The general path on the input's Unicode scalar values (at most 250).
  func generalPackedOutcome(
    scalars: [UInt32], region: RegionMetadata?, national: UnsafeMutablePointer<Bool>? = nil
  ) -> Int64 {
    do throws(NormalizationRejection) {
      let (digits, startsWithPlus) = try Self.numberDigits(scalars, region: region)
      return digits.withUnsafeBufferPointer {
        resolve($0, startsWithPlus: startsWithPlus, region: region, national: national)
      }
    } catch {
      return PackedOutcome.rejection(error)
    }
  }

  /// The first half of libphonenumber's `parse`: the candidate number,
  /// viability, the default-region requirement and extension removal. Returns
  /// the decimal (or keypad) digits of the number part and whether it starts
  /// with `+`; the rest of the pipeline depends on nothing else (see
  /// `resolve(_:startsWithPlus:region:)`).
  static func numberDigits(
    _ input: [UInt32], region: RegionMetadata?
  ) throws(NormalizationRejection) -> (digits: [UInt8], startsWithPlus: Bool) {
    let candidate = try InputExtraction.candidate(from: input)
    guard InputExtraction.isViable(candidate[...]) else { throw .notANumber }
    let startsWithPlus = candidate.first.map(ScalarClasses.isPlus) ?? false
    guard region != nil || startsWithPlus else { throw .missingDefaultRegion }

    var number = candidate[...]
    if let extensionStart = ExtensionMatcher.start(in: number),
      InputExtraction.isViable(number[..<extensionStart])
    {
      number = number[..<extensionStart]
    }
    // The digits with or without leading pluses are the same (a plus is no
    // letter and no digit), which is why one digit string serves both the
    // "+" reading and its retry without the plus.
    return (normalizedDigits(number), startsWithPlus)
  }

  /// libphonenumber's `_normalize`: keypad digits for vanity numbers (three or
  /// more ASCII letters), otherwise the decimal digits of any script.
  static func normalizedDigits(_ text: ArraySlice<UInt32>) -> [UInt8] {
    var result: [UInt8] = []
    result.reserveCapacity(text.count)
    var letters = 0
    var hasNewline = false
    for value in text {
      if ScalarClasses.isASCIILetter(value) { letters += 1 }
      if value == 0x0A { hasNewline = true }
    }
    if letters >= 3 && !hasNewline {
      for value in text {
        if let digit = ScalarClasses.keypadDigit(value) { result.append(digit) }
      }
    } else {
      for value in text {
        if let digit = ScalarClasses.digitValue(value) { result.append(digit) }
      }
    }
    return result
  }
}
