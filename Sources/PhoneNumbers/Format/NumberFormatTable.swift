#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The number formats of a plan's regions (`data/number-formats.tsv`) as a
/// ``KeyedTable``, whose rules each calling code compiles once, on first
/// use, and keeps.
final class NumberFormatTable: @unchecked Sendable {
  private var mutex = pthread_mutex_t()
  private let table: KeyedTable<NumberFormatRule>
  /// The compiled formats by key.
  private var compiled: [String: CallingCodeFormats] = [:]

  /// A table parsed before.
  init(parsed: [String: [NumberFormatRule]]) {
    table = KeyedTable(parsed: parsed)
    pthread_mutex_init(&mutex, nil)
  }

  /// A table parsed when asked, from `text` (which must parse whole; a
  /// line that would not is left out).
  init(lazy text: String) {
    table = KeyedTable(lazy: text) { lines in
      lines.compactMap { line in
        let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
        guard fields.count == NumberingPlan.formatColumns.count else { return nil }
        return try? NumberFormatRule(
          pattern: fields[2], format: fields[3], leadingDigits: fields[4], nationalPrefixRule: fields[5])
      }
    }
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
  func rules(forKey key: String) -> [NumberFormatRule] { table.values(forKey: key) }
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
