import CalldirSystem

/// The protocol buffers wire format (proto3), written by hand for the few
/// messages Live Caller ID Lookup reads: varints and length-delimited
/// fields, each field's key `(number << 3) | wireType`, as swift-protobuf's
/// binary encoder writes them (fields in number order, default values left
/// out). Varints are CalldirSystem's one codec (``Varint``).
///
///     var writer = ProtobufWriter()
///     writer.appendBytes(field: 1, Array("+14085551212".utf8))
///     writer.appendBytes(field: 2, [0x01])
///     // 0a 0c 2b 31 34 … 12 01 01
public struct ProtobufWriter: Sendable {
  /// The wire types a field key names.
  public enum WireType: UInt8, Sendable {
    case varint = 0
    case fixed64 = 1
    case lengthDelimited = 2
    case startGroup = 3
    case endGroup = 4
    case fixed32 = 5
  }

  /// The bytes written so far.
  public private(set) var bytes: [UInt8]

  public init(capacity: Int = 0) {
    bytes = []
    bytes.reserveCapacity(capacity)
  }

  /// Appends a field's key.
  public mutating func appendKey(field: Int, _ type: WireType) {
    Varint.append(UInt64(field) << 3 | UInt64(type.rawValue), to: &bytes)
  }

  /// Appends a varint field (`uint32`, `uint64`, an enum), left out when 0
  /// as proto3 leaves default values out.
  public mutating func appendVarint(field: Int, _ value: UInt64) {
    guard value != 0 else { return }
    appendKey(field: field, .varint)
    Varint.append(value, to: &bytes)
  }

  /// Appends a `bytes` or `string` field, left out when empty.
  public mutating func appendBytes(field: Int, _ value: some Collection<UInt8>) {
    guard !value.isEmpty else { return }
    appendKey(field: field, .lengthDelimited)
    Varint.append(UInt64(value.count), to: &bytes)
    bytes.append(contentsOf: value)
  }

  /// Appends an embedded message field, written even when empty (a
  /// message field is present or absent, not defaulted).
  public mutating func appendMessage(field: Int, _ message: [UInt8]) {
    appendKey(field: field, .lengthDelimited)
    Varint.append(UInt64(message.count), to: &bytes)
    bytes.append(contentsOf: message)
  }

  /// The size of a length-delimited field of `length` bytes with its key.
  public static func lengthDelimitedSize(field: Int, length: Int) -> Int {
    Varint.size(UInt64(field) << 3 | 2) + Varint.size(UInt64(length)) + length
  }
}
