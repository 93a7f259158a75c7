/// A JSON document that is valid JSON but not the document a decoder
/// reads: the value at ``path`` is not what it expected.
///
/// The ``description`` is `<path>: expected <what>`, as in
/// `manifest.extensions[2].deltas[0].from: expected an integer` or
/// `manifest.version: expected at least 1, got 0`. Each decoder wraps it in
/// its own typed error (see ``LocatedJSON``).
public struct JSONDecodingError: Error, Hashable, Sendable, CustomStringConvertible {
  /// Where in the document: `manifest.extensions[2].full.sha256`,
  /// `sources[0].path`; `(root)` for a document's root that has no name.
  public let path: String
  /// What was expected there: `an integer`, `at least 1, got 0`, `64
  /// lowercase hex digits`.
  public let expected: String
  /// The JSON type found (``JSONValue/typeName``) when the value is of the
  /// wrong type; nil when the member is missing, or its type was right but
  /// its value was not.
  public let found: String?

  /// Creates an error.
  public init(path: String, expected: String, found: String? = nil) {
    self.path = path
    self.expected = expected
    self.found = found
  }

  /// `<path>: expected <what>`.
  public var description: String { "\(path): expected \(expected)" }
}
