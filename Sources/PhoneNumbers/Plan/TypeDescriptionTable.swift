#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The number types of a plan's regions, keyed as the regions are (`001+800`
/// for a non-geographic code): parsed all at once and checked (a table
/// handed to ``NumberingPlan/init(table:typesTable:)``), or, for the
/// embedded table that the tests check whole, parsed region by region when
/// the classifier first needs them.
///
/// Parsing every region's patterns takes longer than a short `normalize`
/// run; one calling code's (what the batch normalizer compiles for its
/// first number of that code) takes a fraction of a millisecond.
final class TypeDescriptionTable: @unchecked Sendable {
  private var mutex = pthread_mutex_t()
  /// The types found so far (every region's, for an eager table).
  private var parsed: [String: [NumberTypeDescription]]
  /// For a lazy table: the text, the regions it is checked against, and
  /// each key's lines (built on first use).
  private let text: String?
  private let regions: [String: RegionMetadata]
  /// Each key's lines, as ranges of `bytes` (built on first use).
  private var lines: [String: [Range<Int>]]? = nil
  private var bytes: [UInt8] = []

  /// A table parsed before.
  init(parsed: [String: [NumberTypeDescription]]) {
    self.parsed = parsed
    self.text = nil
    self.regions = [:]
    pthread_mutex_init(&mutex, nil)
  }

  /// A table parsed when asked, from `text` (which must parse whole; a
  /// line that would not is left out).
  init(lazy text: String, regions: [String: RegionMetadata]) {
    self.parsed = [:]
    self.text = text
    self.regions = regions
    pthread_mutex_init(&mutex, nil)
  }

  deinit { pthread_mutex_destroy(&mutex) }

  /// The types of the region keyed `key`, in table order.
  func descriptions(forKey key: String) -> [NumberTypeDescription] {
    // Parsed outside the lock, so that threads compiling regions of one
    // calling code parse side by side.
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
    guard text != nil else { return [] }
    var result: [NumberTypeDescription] = []
    for line in keyLines {
      guard
        let (_, description) = try? NumberingPlan.typeDescription(
          NumberingPlan.typeFields(line), line: 0, regions: regions),
        !result.contains(where: { $0.type == description.type })
      else { continue }
      result.append(description)
    }
    pthread_mutex_lock(&mutex)
    defer { pthread_mutex_unlock(&mutex) }
    if let found = parsed[key] { return found }
    parsed[key] = result
    return result
  }

  /// The lines of the table `bytes` after its header, by key (read as
  /// bytes: this runs in a short command's start-up).
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
