/// The input of Apple's `PIRProcessDatabase`: package
/// `apple.swift_homomorphic_encryption.pir.v1`,
///
///     message KeywordDatabaseRow { bytes keyword = 1; bytes value = 2; }
///     message KeywordDatabase { repeated KeywordDatabaseRow rows = 1; }
///
/// A database is its rows one after another, each a length-delimited field
/// 1, so rows are appended to a file as they come.
public enum KeywordDatabase {
  /// One row: a keyword and its value.
  public struct Row: Sendable, Hashable {
    public var keyword: [UInt8]
    public var value: [UInt8]

    public init(keyword: [UInt8], value: [UInt8]) {
      self.keyword = keyword
      self.value = value
    }
  }

  /// Appends the encoding of one row (a `rows` field) to `bytes`.
  public static func appendRow(
    keyword: some Collection<UInt8>, value: some Collection<UInt8>, to bytes: inout [UInt8]
  ) {
    var row = ProtobufWriter(capacity: keyword.count + value.count + 8)
    row.appendBytes(field: 1, keyword)
    row.appendBytes(field: 2, value)
    var field = ProtobufWriter()
    field.appendMessage(field: 1, row.bytes)
    bytes += field.bytes
  }

  /// The bytes of one row as the database holds it (the `rows` field).
  public static func encodedRow(keyword: some Collection<UInt8>, value: some Collection<UInt8>) -> [UInt8] {
    var bytes: [UInt8] = []
    appendRow(keyword: keyword, value: value, to: &bytes)
    return bytes
  }

  /// The rows of an encoded database, in order. Unknown fields are
  /// skipped, as any protobuf parser skips them; a repeated scalar field
  /// keeps its last value.
  /// - Throws: ``ProtobufError`` for bytes that are not such a message.
  public static func decode(_ bytes: [UInt8]) throws(ProtobufError) -> [Row] {
    var rows: [Row] = []
    var reader = ProtobufReader(bytes)
    while let field = try reader.next() {
      guard field.number == 1 else { continue }
      guard case .lengthDelimited(let range) = field.value else {
        throw .wrongWireType(message: "KeywordDatabase", field: 1)
      }
      rows.append(try decodeRow(bytes, range: range))
    }
    return rows
  }

  /// One `KeywordDatabaseRow` at `bytes[range]`.
  static func decodeRow(_ bytes: [UInt8], range: Range<Int>) throws(ProtobufError) -> Row {
    var row = Row(keyword: [], value: [])
    var reader = ProtobufReader(bytes, range: range)
    while let field = try reader.next() {
      switch field.number {
      case 1, 2:
        guard case .lengthDelimited(let payload) = field.value else {
          throw .wrongWireType(message: "KeywordDatabaseRow", field: field.number)
        }
        if field.number == 1 { row.keyword = Array(bytes[payload]) } else { row.value = Array(bytes[payload]) }
      default:
        continue
      }
    }
    return row
  }
}
