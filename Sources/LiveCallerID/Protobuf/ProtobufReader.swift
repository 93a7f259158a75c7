import CalldirSystem

/// Reads protocol buffers wire-format fields one at a time, never trapping
/// on what it is given: truncated input, overlong varints, field number 0,
/// groups and unknown wire types are errors (``ProtobufError``), as
/// swift-protobuf's `BinaryDecoder` reports them.
///
///     var reader = ProtobufReader(bytes)
///     while let field = try reader.next() {
///       if field.number == 1, case .lengthDelimited(let range) = field.value { … bytes[range] … }
///     }
public struct ProtobufReader: Sendable {
  /// One field as read.
  public struct Field: Sendable, Hashable {
    /// What a field holds, by wire type.
    public enum Value: Sendable, Hashable {
      case varint(UInt64)
      case fixed64(UInt64)
      /// The payload's place in the input.
      case lengthDelimited(Range<Int>)
      case fixed32(UInt32)
    }

    public var number: Int
    public var value: Value
  }

  private let bytes: [UInt8]
  private var position: Int
  private let end: Int

  /// A reader of `bytes[range]` (all of them by default).
  public init(_ bytes: [UInt8], range: Range<Int>? = nil) {
    self.bytes = bytes
    let range = range ?? 0..<bytes.count
    position = range.lowerBound
    end = range.upperBound
  }

  /// The field numbers a message may have (1 … 2^29 − 1).
  public static let maxFieldNumber = (1 << 29) - 1

  /// The next field, nil at the end.
  /// - Throws: ``ProtobufError``.
  public mutating func next() throws(ProtobufError) -> Field? {
    guard position < end else { return nil }
    let key = try readVarint()
    let wireType = key & 7
    let number = key >> 3
    guard number >= 1, number <= UInt64(Self.maxFieldNumber) else { throw .invalidFieldNumber(number) }
    switch wireType {
    case 0:
      return Field(number: Int(number), value: .varint(try readVarint()))
    case 1:
      guard end - position >= 8 else { throw .truncated }
      var value: UInt64 = 0
      for index in 0..<8 { value |= UInt64(bytes[position + index]) << (8 * UInt64(index)) }
      position += 8
      return Field(number: Int(number), value: .fixed64(value))
    case 2:
      let length = try readVarint()
      guard length <= UInt64(end - position) else { throw .truncated }
      let start = position
      position += Int(length)
      return Field(number: Int(number), value: .lengthDelimited(start..<position))
    case 5:
      guard end - position >= 4 else { throw .truncated }
      var value: UInt32 = 0
      for index in 0..<4 { value |= UInt32(bytes[position + index]) << (8 * UInt32(index)) }
      position += 4
      return Field(number: Int(number), value: .fixed32(value))
    default:
      // 3 and 4 (groups) are not proto3; 6 and 7 do not exist.
      throw .unsupportedWireType(UInt8(wireType), field: Int(number))
    }
  }

  /// A varint of at most ten bytes whose value fits in 64 bits.
  private mutating func readVarint() throws(ProtobufError) -> UInt64 {
    // Its last byte is the first without the continuation bit.
    var last = position
    while last < end, last - position < Varint.maximumLength, bytes[last] & 0x80 != 0 { last += 1 }
    guard last - position < Varint.maximumLength else { throw .malformedVarint }
    guard last < end else { throw .truncated }
    var cursor = position
    let value: UInt64? = bytes.withUnsafeBytes { raw in
      Varint.read(UnsafeRawBufferPointer(rebasing: raw[..<(last + 1)]), at: &cursor)
    }
    guard let value else { throw .malformedVarint }
    position = cursor
    return value
  }
}

/// Why bytes are not a protocol buffers message.
public enum ProtobufError: Error, Hashable, CustomStringConvertible {
  /// The input ends inside a field.
  case truncated
  /// A varint longer than ten bytes or past 64 bits.
  case malformedVarint
  /// A field number of 0 or above 2^29 − 1.
  case invalidFieldNumber(UInt64)
  /// A group (wire types 3, 4) or a wire type that does not exist.
  case unsupportedWireType(UInt8, field: Int)
  /// A known field with another wire type than its declaration's.
  case wrongWireType(message: String, field: Int)
  /// A `string` field that is not UTF-8.
  case invalidUTF8(message: String, field: Int)

  public var description: String {
    switch self {
    case .truncated: "the message ends inside a field"
    case .malformedVarint: "a varint is longer than 64 bits"
    case .invalidFieldNumber(let number): "field number \(number) is out of range"
    case .unsupportedWireType(let type, let field): "field \(field) has wire type \(type), which proto3 does not use"
    case .wrongWireType(let message, let field): "\(message) field \(field) has the wrong wire type"
    case .invalidUTF8(let message, let field): "\(message) field \(field) is not UTF-8"
    }
  }
}
