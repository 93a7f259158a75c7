import CalldirSystem

/// A problem that stops a whole source from being read.
///
/// Per-line problems are ``SourceIssue``s instead. Messages are lowercase;
/// the CLI prefixes them with the source path.
public enum SourceError: Error, Hashable, CustomStringConvertible {
  /// The file could not be opened or read (the operation and errno say
  /// which: `open` fails with `ENOENT`, a directory is `EISDIR`, a read
  /// part way with `EIO`…).
  case file(FileError)
  /// The file starts with a UTF-16 or UTF-32 byte-order mark.
  case unsupportedEncoding(path: String, encoding: String)
  /// A delimited file has no header row.
  case missingHeader(path: String)
  /// A delimited file's header row cannot be parsed.
  case invalidHeader(path: String, reason: String)
  /// A configured column is not in the header.
  case columnNotFound(
    path: String, column: String, available: [String], suggestion: String?)
  /// A configured column appears more than once in the header.
  case duplicateColumn(path: String, column: String)
  /// An `xml` source that cannot be used: not well-formed (libxml2's
  /// message), an external or undeclared entity, entity expansion or a
  /// record element past their bounds. `line` is where, when known.
  case invalidDocument(path: String, line: Int?, reason: String)
  /// A `json` source is not a JSON document, or one beyond the reader's
  /// limits (nesting, a record's size): `reason` at `line`:`column`.
  case invalidJSON(path: String, line: Int, column: Int, reason: String)
  /// A `json` source's `records` pointer does not lead to an array: what
  /// it found instead, or where it got lost.
  case recordsNotFound(path: String, pointer: String, reason: String)
  /// A `jsonl` source that is one JSON document (its first data line is
  /// `[`, or not a whole value): it wants `"format": "json"`. `keyPath` is
  /// the source's `format` key (`sources[2].format`), once known.
  case jsonDocumentInJSONLines(path: String, line: Int, keyPath: String?)

  /// The source path the error is about.
  public var path: String {
    switch self {
    case .file(let error): return error.path
    case .unsupportedEncoding(let path, _), .missingHeader(let path),
      .invalidHeader(let path, _),
      .columnNotFound(let path, _, _, _), .duplicateColumn(let path, _),
      .invalidDocument(let path, _, _),
      .invalidJSON(let path, _, _, _), .recordsNotFound(let path, _, _), .jsonDocumentInJSONLines(let path, _, _):
      return path
    }
  }

  /// A lowercase message.
  public var description: String {
    switch self {
    case .file(let error):
      return error.description
    case .unsupportedEncoding(let path, let encoding):
      return "\(path): unsupported encoding \(encoding) (convert the file to utf-8)"
    case .missingHeader(let path):
      return "\(path):1: missing header row"
    case .invalidHeader(let path, let reason):
      return "\(path):1: invalid header row: \(reason)"
    case .columnNotFound(let path, let column, let available, let suggestion):
      var shown = available.prefix(20).joined(separator: ", ")
      if available.count > 20 { shown += ", …" }
      var message =
        "\(path):1: column '\(column)' not found in header (columns: \(shown))"
      if let suggestion { message += "; did you mean '\(suggestion)'?" }
      return message
    case .duplicateColumn(let path, let column):
      return "\(path):1: column '\(column)' appears more than once in header"
    case .invalidDocument(let path, let line, let reason):
      return "\(path)\(line.map { ":\($0)" } ?? ""): \(reason)"
    case .invalidJSON(let path, let line, let column, let reason):
      return "\(path):\(line):\(column): invalid json: \(reason)"
    case .recordsNotFound(let path, let pointer, let reason):
      return "\(path): records '\(pointer)' does not lead to an array of records: \(reason)"
    case .jsonDocumentInJSONLines(let path, let line, let keyPath):
      return "\(path):\(line): this looks like one JSON document, not JSON lines (one object per line): "
        + "set \"format\": \"json\"" + (keyPath.map { " at \($0)" } ?? "")
    }
  }

  /// The error with the config key path of its source filled in, where the
  /// message names one (`sources[2].format`).
  public func locating(source keyPath: String) -> SourceError {
    switch self {
    case .jsonDocumentInJSONLines(let path, let line, nil):
      return .jsonDocumentInJSONLines(path: path, line: line, keyPath: "\(keyPath).format")
    default:
      return self
    }
  }
}
