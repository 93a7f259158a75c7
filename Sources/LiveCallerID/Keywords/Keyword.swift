import CallDirectoryCompiler
import PhoneNumbers
import Sodium

/// The keywords of a number: the UTF-8 text of the number as the phone
/// presents it, in each keyword form.
public enum Keyword {
  /// `+` and the E.164 digits of `number` (country calling code and
  /// national number, as a Call Directory entry holds them):
  /// `+14085551212`.
  public static func e164(_ number: Int64) -> [UInt8] {
    var bytes: [UInt8] = []
    appendE164(number, to: &bytes)
    return bytes
  }

  /// Appends ``e164(_:)``'s bytes to `bytes`.
  public static func appendE164(_ number: Int64, to bytes: inout [UInt8]) {
    withE164(number) { bytes.append(contentsOf: $0) }
  }

  /// Calls `body` with ``e164(_:)``'s bytes, written on the stack (the
  /// first pass does this for every number).
  public static func withE164<R>(_ number: Int64, _ body: (UnsafeRawBufferPointer) -> R) -> R {
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 21) { buffer in
      var value = number.magnitude
      var start = buffer.count
      repeat {
        start -= 1
        buffer[start] = UInt8(ascii: "0") + UInt8(value % 10)
        value /= 10
      } while value > 0 && start > 1
      start -= 1
      buffer[start] = UInt8(ascii: "+")
      return body(UnsafeRawBufferPointer(rebasing: UnsafeMutableRawBufferPointer(buffer)[start...]))
    }
  }

  /// Whether `keyword` could be a phone number's keyword in some form: it
  /// starts with `+` or a digit. Padding keywords never do.
  public static func couldBeNumber(_ keyword: some Collection<UInt8>) -> Bool {
    guard let first = keyword.first else { return false }
    return first == UInt8(ascii: "+") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first)
  }
}

/// The national digits of a number: the digits of libphonenumber's
/// national format (`format_number(…, NATIONAL)` with every non-digit
/// dropped), `02079460018` for `+44 20 7946 0018`, `2125550142` for
/// `+1 212-555-0142`. The `national` keyword form is these digits.
/// ``LibphonenumberNationalDigits`` is PhoneNumbers' exact implementation.
public protocol NationalDigitsFormatting {
  /// The national digits of the E.164 number `number` (country calling
  /// code and national number), nil when libphonenumber has no national
  /// format for it (an unknown calling code).
  func nationalDigits(ofE164 number: Int64) -> [UInt8]?
}

/// libphonenumber's national format, exactly: PhoneNumbers'
/// `NationalFormatter` (one per exporter; the export runs on one thread).
public struct LibphonenumberNationalDigits: NationalDigitsFormatting {
  private let formatter: NationalFormatter

  public init(plan: NumberingPlan = .standard) {
    formatter = NationalFormatter(plan: plan)
  }

  public func nationalDigits(ofE164 number: Int64) -> [UInt8]? {
    formatter.nationalDigits(ofE164: number)?.ascii
  }
}

/// Live Caller ID Lookup's `sha256` sharding function, as Apple's
/// `PIRProcessDatabase` and its server compute it: the first eight bytes of
/// the keyword's SHA-256, read as a little-endian integer, modulo the shard
/// count (`KeywordValuePair.Keyword.shardIndex(shardCount:)`). SHA-256 from
/// libsodium.
///
/// With power-of-two shard counts, a keyword's shard among `n` shards is
/// its shard among `2n` modulo `n`: the block and identity lookups of one
/// call reveal no more than the larger use case's shard.
public enum KeywordSharding {
  /// The spelling of the function in `PIRProcessDatabase`'s config and in
  /// `export.json`.
  public static let name = "sha256"

  /// The 64-bit value the shard is taken from.
  public static func truncatedHash(_ keyword: some Collection<UInt8>) -> UInt64 {
    Array(keyword).withUnsafeBytes { SodiumSHA256.truncatedHash($0) }
  }

  /// The shard of `keyword` among `shardCount` shards.
  public static func shard(of keyword: some Collection<UInt8>, shardCount: Int) -> Int {
    Int(truncatedHash(keyword) % UInt64(max(1, shardCount)))
  }

  /// The shard of the keyword in `bytes` among `shardCount` shards.
  public static func shard(of bytes: UnsafeRawBufferPointer, shardCount: Int) -> Int {
    Int(SodiumSHA256.truncatedHash(bytes) % UInt64(max(1, shardCount)))
  }
}
