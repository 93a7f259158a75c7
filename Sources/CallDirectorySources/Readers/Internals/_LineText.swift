import CalldirSystem

/// The text of a rejected line as reports show it: the bytes as read,
/// with every hidden character escaped as ``ShownText`` escapes it (a byte
/// that is not well-formed UTF-8 as `\xNN`), cut at
/// ``_LineText/maximumCharacters`` characters.
///
/// The cut counts Unicode scalars of the escaped text and never splits an
/// escape, so the result is at most 120 scalars long.
package enum _LineText {
  /// The longest text a report shows, in characters.
  package static let maximumCharacters = 120
  /// The most bytes of a line that can reach the report: each character
  /// takes at most four bytes of UTF-8.
  package static let maximumBytes = 4 * maximumCharacters

  /// The escaped, cut text of `p[0..<count]`.
  package static func escaped(_ p: UnsafePointer<UInt8>, _ count: Int) -> String {
    ShownText.escaped(p, count, maxCharacters: maximumCharacters)
  }

  /// The escaped, cut text of `bytes`.
  package static func escaped(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
    ShownText.escaped(bytes, maxCharacters: maximumCharacters)
  }

}
