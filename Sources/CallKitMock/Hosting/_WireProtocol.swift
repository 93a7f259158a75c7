import CalldirSystem

/// The binary protocol between an extension process (child) and the
/// simulated system (parent).
///
/// Child → parent (data pipe): the magic `CKMP`, a version byte (1), then
/// records, each a tag byte and a payload. Numbers are ZigZag varints of the
/// difference from the previous number of the same record kind (wrapping), so
/// ascending runs take one or two bytes and any `Int64` round-trips. Strings
/// are a varint byte length and UTF-8 bytes.
///
///     tag  record                  payload
///     0x00 hello                   –           (sent before the provider is created)
///     0x01 readIncremental         –
///     0x02 addBlocking             number
///     0x03 addIdentification       number, label
///     0x04 removeBlocking          number
///     0x05 removeIdentification    number
///     0x06 removeAllBlocking       –
///     0x07 removeAllIdentification –
///     0x08 complete                –           (the child then waits for a reply)
///     0x09 cancel                  domain, ZigZag code, message
///
/// Parent → child (control pipe), one reply to `complete`: `0x00` committed,
/// or `0x01`, a varint error code and a reason string. The parent always
/// replies to `complete`; no reply means the outcome is unknown.
enum _Wire {
  static let magic: [UInt8] = Array("CKMP".utf8) + [1]
  /// The longest string a record may carry.
  static let maximumStringLength = _EntryStore.maximumLabelLength

  enum Tag: UInt8 {
    case hello = 0
    case readIncremental, addBlocking, addIdentification, removeBlocking, removeIdentification
    case removeAllBlocking, removeAllIdentification, complete, cancel
  }

  /// A decoded child → parent record.
  enum Record: Equatable {
    case hello
    case operation(CallDirectoryOperation)
    case cancel(domain: String, code: Int, message: String)
  }

  /// A malformed stream.
  struct MalformedStream: Error, CustomStringConvertible {
    let description: String
  }

  /// The reply to `complete`.
  static func reply(to result: Result<Void, CXErrorCodeCallDirectoryManagerError>) -> [UInt8] {
    switch result {
    case .success:
      return [0]
    case .failure(let error):
      var reply: [UInt8] = [1]
      Varint.append(UInt64(error.code.rawValue), to: &reply)
      let reason = Array((error.reason ?? "").utf8.prefix(maximumStringLength))
      Varint.append(UInt64(reason.count), to: &reply)
      reply.append(contentsOf: reason)
      return reply
    }
  }

  /// How the request ended, from the reply the child read (everything the
  /// parent wrote before closing the pipe); `nil` when there was no reply.
  static func end(fromReply reply: [UInt8]) -> _RequestEnd? {
    guard let status = reply.first else { return nil }
    if status == 0 { return .committed }
    var index = 1
    let code = reply.withUnsafeBytes { Varint.read($0, at: &index) }.map { Int(truncatingIfNeeded: $0) } ?? 0
    var reason: String?
    if index <= reply.count, let length = reply.withUnsafeBytes({ Varint.read($0, at: &index) }),
      length <= UInt64(reply.count - index)
    {
      reason = String(decoding: reply[index..<index + Int(length)], as: UTF8.self)
    }
    return .failed(CXErrorCodeCallDirectoryManagerError(rawCode: code, reason: reason))
  }
}

/// Encodes records into a byte buffer (child side).
struct _WireEncoder {
  private(set) var bytes: [UInt8] = _Wire.magic
  private var previous = [Int64](repeating: 0, count: 4)

  mutating func removeAll() {
    bytes.removeAll(keepingCapacity: true)
  }

  mutating func encode(_ operation: CallDirectoryOperation) {
    switch operation {
    case .readIncremental:
      bytes.append(_Wire.Tag.readIncremental.rawValue)
    case .addBlocking(let number):
      appendNumber(number, tag: .addBlocking, slot: 0)
    case .addIdentification(let number, let label):
      appendNumber(number, tag: .addIdentification, slot: 1)
      appendString(label)
    case .removeBlocking(let number):
      appendNumber(number, tag: .removeBlocking, slot: 2)
    case .removeIdentification(let number):
      appendNumber(number, tag: .removeIdentification, slot: 3)
    case .removeAllBlocking:
      bytes.append(_Wire.Tag.removeAllBlocking.rawValue)
    case .removeAllIdentification:
      bytes.append(_Wire.Tag.removeAllIdentification.rawValue)
    case .complete:
      bytes.append(_Wire.Tag.complete.rawValue)
    case .cancel(let domain, let code):
      encodeCancel(domain: domain, code: code, message: "")
    }
  }

  mutating func encodeHello() {
    bytes.append(_Wire.Tag.hello.rawValue)
  }

  mutating func encodeCancel(domain: String, code: Int, message: String) {
    bytes.append(_Wire.Tag.cancel.rawValue)
    appendString(domain)
    Varint.append(Varint.zigZag(Int64(code)), to: &bytes)
    appendString(message)
  }

  private mutating func appendNumber(_ number: Int64, tag: _Wire.Tag, slot: Int) {
    bytes.append(tag.rawValue)
    Varint.append(Varint.zigZag(number &- previous[slot]), to: &bytes)
    previous[slot] = number
  }

  private mutating func appendString(_ string: String) {
    var utf8 = Array(string.utf8)
    if utf8.count > _Wire.maximumStringLength { utf8.removeLast(utf8.count - _Wire.maximumStringLength) }
    Varint.append(UInt64(utf8.count), to: &bytes)
    bytes.append(contentsOf: utf8)
  }
}

/// Decodes records from a byte stream that arrives in arbitrary pieces
/// (parent side). Never traps on bad input.
struct _WireDecoder {
  private var buffer: [UInt8] = []
  private var index = 0
  private var sawMagic = false
  private var previous = [Int64](repeating: 0, count: 4)

  /// Appends bytes read from the pipe.
  mutating func append(_ bytes: UnsafeRawBufferPointer) {
    if index > 1 << 16 && index * 2 > buffer.count {
      buffer.removeFirst(index)
      index = 0
    }
    buffer.append(contentsOf: bytes)
  }

  /// Whether bytes of an incomplete record are waiting.
  var hasPartialRecord: Bool { index < buffer.count }

  /// The next complete record, or `nil` when more bytes are needed.
  mutating func next() throws(_Wire.MalformedStream) -> _Wire.Record? {
    if !sawMagic {
      guard buffer.count - index >= _Wire.magic.count else { return nil }
      guard Array(buffer[index..<index + _Wire.magic.count]) == _Wire.magic else {
        throw _Wire.MalformedStream(description: "the extension process sent no protocol header")
      }
      index += _Wire.magic.count
      sawMagic = true
    }
    var cursor = index
    guard cursor < buffer.count else { return nil }
    guard let tag = _Wire.Tag(rawValue: buffer[cursor]) else {
      throw _Wire.MalformedStream(description: "unknown record tag \(buffer[cursor])")
    }
    cursor += 1
    let record: _Wire.Record
    switch tag {
    case .hello: record = .hello
    case .readIncremental: record = .operation(.readIncremental(false))
    case .removeAllBlocking: record = .operation(.removeAllBlocking)
    case .removeAllIdentification: record = .operation(.removeAllIdentification)
    case .complete: record = .operation(.complete)
    case .addBlocking, .removeBlocking, .removeIdentification:
      guard let number = try readNumber(&cursor, slot: Self.slot(tag)) else { return nil }
      switch tag {
      case .addBlocking: record = .operation(.addBlocking(number))
      case .removeBlocking: record = .operation(.removeBlocking(number))
      default: record = .operation(.removeIdentification(number))
      }
    case .addIdentification:
      guard let number = try readNumber(&cursor, slot: 1), let label = try readString(&cursor) else {
        return nil
      }
      record = .operation(.addIdentification(number, label: label))
    case .cancel:
      guard let domain = try readString(&cursor), let rawCode = try readVarint(&cursor),
        let message = try readString(&cursor)
      else { return nil }
      let code = Varint.unZigZag(rawCode)
      record = .cancel(domain: domain, code: Int(truncatingIfNeeded: code), message: message)
    }
    // Commit the cursor and the delta bases only once the record is whole.
    if case .operation(let operation) = record {
      switch operation {
      case .addBlocking(let number): previous[0] = number
      case .addIdentification(let number, _): previous[1] = number
      case .removeBlocking(let number): previous[2] = number
      case .removeIdentification(let number): previous[3] = number
      default: break
      }
    }
    index = cursor
    return record
  }

  private static func slot(_ tag: _Wire.Tag) -> Int {
    switch tag {
    case .addBlocking: 0
    case .addIdentification: 1
    case .removeBlocking: 2
    default: 3
    }
  }

  /// The varint at `cursor`, or `nil` while its bytes have not all arrived.
  private func readVarint(_ cursor: inout Int) throws(_Wire.MalformedStream) -> UInt64? {
    var position = cursor
    let value = buffer.withUnsafeBytes { Varint.read($0, at: &position) }
    if let value {
      cursor = position
      return value
    }
    // Incomplete only if no byte ending a varint has arrived within the
    // longest encoding.
    let available = buffer[cursor..<min(buffer.count, cursor + Varint.maximumLength)]
    if available.count < Varint.maximumLength && available.allSatisfy({ $0 & 0x80 != 0 }) { return nil }
    throw _Wire.MalformedStream(description: "malformed varint")
  }

  private func readNumber(_ cursor: inout Int, slot: Int) throws(_Wire.MalformedStream) -> Int64? {
    guard let raw = try readVarint(&cursor) else { return nil }
    return previous[slot] &+ Varint.unZigZag(raw)
  }

  private func readString(_ cursor: inout Int) throws(_Wire.MalformedStream) -> String? {
    var position = cursor
    guard let length = try readVarint(&position) else { return nil }
    guard length <= UInt64(_Wire.maximumStringLength) else {
      throw _Wire.MalformedStream(description: "string of \(length) bytes is too long")
    }
    guard buffer.count - position >= Int(length) else { return nil }
    let string = String(decoding: buffer[position..<position + Int(length)], as: UTF8.self)
    cursor = position + Int(length)
    return string
  }
}
