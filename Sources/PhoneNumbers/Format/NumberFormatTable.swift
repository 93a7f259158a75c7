#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The number formats of a plan's regions (`data/number-formats.tsv`),
/// keyed as the regions are (`001+800` for a non-geographic code): parsed
/// and checked all at once (a table handed to
/// ``NumberingPlan/init(table:typesTable:formatsTable:)``), or, for the
/// embedded table that the tests check whole, parsed region by region when
/// first needed. Each calling code's formats are compiled once, on first
/// use, and kept.
final class NumberFormatTable: @unchecked Sendable {
  private var mutex = pthread_mutex_t()
  /// The rules parsed so far (every region's, for an eager table).
  private var parsed: [String: [NumberFormatRule]]
  /// For a lazy table: its text, and each key's lines (built on first use).
  private let text: String?
  private var lines: [String: [Range<Int>]]? = nil
  private var bytes: [UInt8] = []
  /// The compiled formats by key.
  private var compiled: [String: CallingCodeFormats] = [:]

  /// A table parsed before.
  init(parsed: [String: [NumberFormatRule]]) {
    self.parsed = parsed
    self.text = nil
    pthread_mutex_init(&mutex, nil)
  }

  /// A table parsed when asked, from `text` (which must parse whole; a
  /// line that would not is left out).
  init(lazy text: String) {
    self.parsed = [:]
    self.text = text
    pthread_mutex_init(&mutex, nil)
  }

  deinit { pthread_mutex_destroy(&mutex) }

  /// The compiled formats of the region keyed `key` (a region code, or
  /// `001+800`), compiled now if they were not.
  func formats(forKey key: String) -> CallingCodeFormats {
    pthread_mutex_lock(&mutex)
    if let found = compiled[key] {
      pthread_mutex_unlock(&mutex)
      return found
    }
    pthread_mutex_unlock(&mutex)
    // Compiled outside the lock: threads starting on different codes
    // compile side by side (the first one stored wins).
    let formats = CallingCodeFormats(rules: rules(forKey: key))
    pthread_mutex_lock(&mutex)
    defer { pthread_mutex_unlock(&mutex) }
    if let found = compiled[key] { return found }
    compiled[key] = formats
    return formats
  }

  /// The rules of the region keyed `key`, in table order.
  func rules(forKey key: String) -> [NumberFormatRule] {
    let keyLines: [Substring]
    pthread_mutex_lock(&mutex)
    if let found = parsed[key] {
      pthread_mutex_unlock(&mutex)
      return found
    }
    if let text, lines == nil {
      bytes = Array(text.utf8)
      lines = Self.linesByKey(bytes)
    }
    keyLines = (lines?[key] ?? []).map { Substring(String(decoding: bytes[$0], as: UTF8.self)) }
    pthread_mutex_unlock(&mutex)
    var result: [NumberFormatRule] = []
    for line in keyLines {
      let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
      guard fields.count == NumberingPlan.formatColumns.count,
        let rule = try? NumberFormatRule(
          pattern: fields[2], format: fields[3], leadingDigits: fields[4], nationalPrefixRule: fields[5])
      else { continue }
      result.append(rule)
    }
    pthread_mutex_lock(&mutex)
    defer { pthread_mutex_unlock(&mutex) }
    if let found = parsed[key] { return found }
    parsed[key] = result
    return result
  }

  /// The lines of the table `bytes` after its header, by key.
  private static func linesByKey(_ bytes: [UInt8]) -> [String: [Range<Int>]] {
    var ranges: [String: [Range<Int>]] = [:]
    var seenHeader = false
    var start = 0
    while start < bytes.count {
      var end = start
      while end < bytes.count && bytes[end] != 0x0A { end += 1 }
      defer { start = end + 1 }
      guard end > start, bytes[start] != 0x23 else { continue }  // empty, or a # comment
      guard seenHeader else {
        seenHeader = true
        continue
      }
      var firstTab = start
      while firstTab < end && bytes[firstTab] != 0x09 { firstTab += 1 }
      var secondTab = firstTab + 1
      while secondTab < end && bytes[secondTab] != 0x09 { secondTab += 1 }
      guard secondTab < end else { continue }
      let region = String(decoding: bytes[start..<firstTab], as: UTF8.self)
      let key = region == "001" ? "001+" + String(decoding: bytes[(firstTab + 1)..<secondTab], as: UTF8.self) : region
      ranges[key, default: []].append(start..<end)
    }
    return ranges
  }
}

extension NumberingPlan {
  /// The columns of the number-formats table (`data/number-formats.tsv`).
  static let formatColumns = ["region", "cc", "pattern", "format", "leading_digits", "np_rule"]

  /// Parses and checks a whole number-formats table against `regions`.
  /// - Throws: `NumberingPlanError` for the first line that is wrong.
  static func formatRules(
    _ text: String, regions: [String: RegionMetadata]
  ) throws(NumberingPlanError) -> [String: [NumberFormatRule]] {
    var rules: [String: [NumberFormatRule]] = [:]
    guard !text.isEmpty else { return rules }
    var seenHeader = false
    var lineNumber = 0
    for lineBytes in text.utf8.split(separator: 0x0A, omittingEmptySubsequences: false) {
      lineNumber += 1
      let line = Substring(lineBytes)
      if line.isEmpty || line.hasPrefix("#") { continue }
      let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
      func failure(_ reason: String) -> NumberingPlanError {
        NumberingPlanError(line: lineNumber, reason: "formats table: \(reason)")
      }
      guard seenHeader else {
        guard fields == formatColumns.map({ Substring($0) }) else { throw failure("unexpected header") }
        seenHeader = true
        continue
      }
      guard fields.count == formatColumns.count else {
        throw failure("expected \(formatColumns.count) fields, found \(fields.count)")
      }
      let key = fields[0] == "001" ? "001+\(fields[1])" : String(fields[0])
      guard let region = regions[key], String(region.callingCode) == fields[1] else {
        throw failure("no region \(fields[0]) with calling code \(fields[1])")
      }
      do {
        let rule = try NumberFormatRule(
          pattern: fields[2], format: fields[3], leadingDigits: fields[4], nationalPrefixRule: fields[5])
        rules[key, default: []].append(rule)
      } catch {
        throw failure(error.reason)
      }
    }
    guard seenHeader else { throw NumberingPlanError(line: lineNumber, reason: "formats table: missing header") }
    return rules
  }
}
