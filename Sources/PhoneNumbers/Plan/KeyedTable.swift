#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A table of the numbering plan keyed as its regions are (`001+800` for a
/// non-geographic code): parsed all at once and checked (a table handed to
/// ``NumberingPlan/init(table:typesTable:formatsTable:)``), or, for an
/// embedded table that the tests check whole, parsed key by key when first
/// asked for.
///
/// Parsing every region's patterns takes longer than a short `normalize`
/// run; one calling code's (what the batch normalizer compiles for its
/// first number of that code) takes a fraction of a millisecond.
final class KeyedTable<Value>: @unchecked Sendable {
  private var mutex = pthread_mutex_t()
  /// The values found so far (every key's, for an eager table).
  private var parsed: [String: [Value]]
  /// For a lazy table: its text, how a key's lines are read, and each
  /// key's lines as ranges of `bytes` (built on first use).
  private let text: String?
  private let parse: ([Substring]) -> [Value]
  private var lines: [String: [Range<Int>]]? = nil
  private var bytes: [UInt8] = []

  /// A table parsed before.
  init(parsed: [String: [Value]]) {
    self.parsed = parsed
    self.text = nil
    self.parse = { _ in [] }
    pthread_mutex_init(&mutex, nil)
  }

  /// A table parsed when asked, from `text` (which must parse whole):
  /// `parse` turns one key's lines, in table order, into its values.
  init(lazy text: String, parse: @escaping ([Substring]) -> [Value]) {
    self.parsed = [:]
    self.text = text
    self.parse = parse
    pthread_mutex_init(&mutex, nil)
  }

  deinit { pthread_mutex_destroy(&mutex) }

  /// The values of the key `key`, in table order.
  func values(forKey key: String) -> [Value] {
    // Parsed outside the lock, so that threads starting on different
    // calling codes parse side by side (the first one stored wins).
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
    let result = parse(keyLines)
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
