/// The first stage of libphonenumber's `parse`: find the candidate number in
/// the raw text (`_build_national_number_for_parsing`, `_extract_possible_number`)
/// and decide whether it is viable (`_is_viable_phone_number`).
enum InputExtraction {
  private static let phoneContextMarker = Array(";phone-context=".unicodeScalars.map(\.value))
  private static let telPrefix = Array("tel:".unicodeScalars.map(\.value))
  private static let subaddressMarker = Array(";isub=".unicodeScalars.map(\.value))

  /// The part of `input` to parse, with RFC 3966 `tel:` URIs unpacked.
  /// - Throws: `.notANumber` for an empty or malformed `phone-context`.
  static func candidate(from input: [UInt32]) throws(NormalizationRejection) -> [UInt32] {
    var number: [UInt32]
    if let contextIndex = firstIndex(of: phoneContextMarker, in: input[...]) {
      let contextStart = contextIndex + phoneContextMarker.count
      let contextEnd = input[contextStart...].firstIndex(of: 0x3B) ?? input.endIndex
      let context = input[contextStart..<contextEnd]
      guard isValidPhoneContext(context) else { throw .notANumber }
      number = context.first == 0x2B ? Array(context) : []
      let telIndex = firstIndex(of: telPrefix, in: input[...])
      let numberStart = telIndex.map { $0 + telPrefix.count } ?? 0
      if numberStart < contextIndex { number += input[numberStart..<contextIndex] }
    } else {
      number = Array(possibleNumber(in: input[...]))
    }
    if let subaddress = firstIndex(of: subaddressMarker, in: number[...]), subaddress > 0 {
      number.removeSubrange(subaddress...)
    }
    return number
  }

  /// `_extract_possible_number`: from the first `+` or digit, without trailing
  /// punctuation, cut before a second number such as `/x2303`.
  static func possibleNumber(in text: ArraySlice<UInt32>) -> ArraySlice<UInt32> {
    guard let start = text.firstIndex(where: { ScalarClasses.isPlus($0) || ScalarClasses.isDigit($0) }) else {
      return text[text.endIndex...]
    }
    var end = text.endIndex
    while end > start {
      let value = text[end - 1]
      guard value == 0x5F || (value != 0x23 && !ScalarClasses.isWordCharacter(value)) else { break }
      end -= 1
    }
    var index = start
    while index < end {
      let value = text[index]
      if value == 0x5C || value == 0x2F {
        var next = index + 1
        while next < end && text[next] == 0x20 { next += 1 }
        if next < end && text[next] == 0x78 { return text[start..<index] }
      }
      index += 1
    }
    return text[start..<end]
  }

  /// `_is_viable_phone_number`: two digits alone, or optional pluses and at
  /// least three digits among phone punctuation, `*` and letters (letters other
  /// than `x` only after the third digit), optionally followed by an extension.
  static func isViable(_ text: ArraySlice<UInt32>) -> Bool {
    guard text.count >= 2 else { return false }
    if text.count == 2 && text.allSatisfy(ScalarClasses.isDigit) { return true }
    // The common case, a text that is a body all through (`212-555-0100
    // ext. 12` is one: letters after the third digit), is viable whatever
    // extension its suffixes hold: the loop below would answer true at the
    // end, so the extension matching on its way can be skipped.
    if isBodyThroughout(text) { return true }
    // `extensionFrom(i)` is `ExtensionMatcher.matchesFully(text[i...])`.
    return ExtensionMatcher.withSuffixMatcher(text) { extensionFrom in
      var index = text.startIndex
      while index < text.endIndex && ScalarClasses.isPlus(text[index]) { index += 1 }
      var digitCount = 0
      while true {
        // text[start..<index] is a valid body when it holds three digits.
        if digitCount >= 3 {
          if index == text.endIndex || extensionFrom(index) { return true }
        }
        guard index < text.endIndex else { return false }
        switch bodyScalar(text[index], digitsBefore: digitCount) {
        case .digit: digitCount += 1
        case .allowed: break
        case .outside:
          // Not part of the body; an extension may still start here.
          return digitCount >= 3 && extensionFrom(index)
        }
        index += 1
      }
    }
  }

  /// What a scalar is to a viable body, after `digitsBefore` digits.
  private enum BodyScalar { case digit, allowed, outside }

  @inline(__always)
  private static func bodyScalar(_ value: UInt32, digitsBefore: Int) -> BodyScalar {
    if ScalarClasses.isDigit(value) { return .digit }
    // Punctuation and `*` anywhere; letters only after the third digit.
    if ScalarClasses.isValidPunctuation(value) || value == 0x2A { return .allowed }
    if ScalarClasses.isValidAlpha(value) && digitsBefore >= 3 { return .allowed }
    return .outside
  }

  /// Whether all of `text` is a viable body: optional pluses, then digits,
  /// punctuation, `*` and (after the third digit) letters, with at least
  /// three digits; the path through ``isViable(_:)``'s loop that reaches
  /// the end of the text.
  private static func isBodyThroughout(_ text: ArraySlice<UInt32>) -> Bool {
    var index = text.startIndex
    while index < text.endIndex && ScalarClasses.isPlus(text[index]) { index += 1 }
    var digitCount = 0
    while index < text.endIndex {
      switch bodyScalar(text[index], digitsBefore: digitCount) {
      case .digit: digitCount += 1
      case .allowed: break
      case .outside: return false
      }
      index += 1
    }
    return digitCount >= 3
  }

  // MARK: - RFC 3966

  /// `_is_phone_context_valid`: `+` and digits with visual separators, or a domain name.
  private static func isValidPhoneContext(_ context: ArraySlice<UInt32>) -> Bool {
    guard let first = context.first else { return false }
    if first == 0x2B {
      let rest = context.dropFirst()
      return rest.contains(where: ScalarClasses.isDigit)
        && rest.allSatisfy { ScalarClasses.isDigit($0) || $0 == 0x2D || $0 == 0x2E || $0 == 0x28 || $0 == 0x29 }
    }
    return isDomainName(context)
  }

  /// RFC 3966 `domainname`: labels of letters and digits joined by inner
  /// hyphens, separated by dots, the last starting with a letter, optional final dot.
  private static func isDomainName(_ text: ArraySlice<UInt32>) -> Bool {
    var labels = text.split(separator: 0x2E, omittingEmptySubsequences: false)
    if labels.count > 1, labels.last?.isEmpty == true { labels.removeLast() }
    guard let top = labels.last, let topFirst = top.first, ScalarClasses.isASCIILetter(topFirst) else {
      return false
    }
    return labels.allSatisfy { label in
      guard let first = label.first, let last = label.last, first != 0x2D, last != 0x2D else { return false }
      return label.allSatisfy { ScalarClasses.isASCIILetter($0) || ScalarClasses.isDigit($0) || $0 == 0x2D }
    }
  }

  private static func firstIndex(of needle: [UInt32], in haystack: ArraySlice<UInt32>) -> Int? {
    guard let first = needle.first, haystack.count >= needle.count else { return nil }
    var index = haystack.startIndex
    let last = haystack.endIndex - needle.count
    while index <= last {
      if haystack[index] == first && haystack[index..<index + needle.count].elementsEqual(needle) { return index }
      index += 1
    }
    return nil
  }
}
