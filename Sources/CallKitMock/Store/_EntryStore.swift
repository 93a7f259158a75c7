/// The system's per-extension store file, written once per committed request.
///
/// Layout (little-endian):
///
///     offset  size  field
///          0     4  magic "CKMS"
///          4     4  format version (1)
///          8     8  blocking entry count
///         16     8  identification entry count
///         24     8  body length in bytes
///         32     8  FNV-1a 64 checksum of the body
///         40     …  body: blocking numbers as varint deltas from the previous
///                   number (the first from 0, every delta ≥ 1), then
///                   identification entries as a varint delta, a varint label
///                   length and the label's UTF-8 bytes.
///
/// Both lists are strictly ascending, so a request can be applied by a single
/// streaming merge of the old file with the request's staged removes and adds.
enum _EntryStore {
  static let magic: [UInt8] = Array("CKMS".utf8)
  static let version: UInt32 = 1
  static let headerLength = 40
  /// The longest label, in bytes, a store or the wire protocol accepts.
  static let maximumLabelLength = 1 << 20

  /// The counts recorded in a store's header.
  struct Header: Equatable {
    var blockingCount: UInt64
    var identificationCount: UInt64
    var bodyLength: UInt64
    var checksum: UInt64

    var bytes: [UInt8] {
      var bytes = _EntryStore.magic
      func append(_ value: UInt64, width: Int) {
        for index in 0..<width { bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(8 * index))) }
      }
      append(UInt64(_EntryStore.version), width: 4)
      append(blockingCount, width: 8)
      append(identificationCount, width: 8)
      append(bodyLength, width: 8)
      append(checksum, width: 8)
      return bytes
    }

    init(blockingCount: UInt64, identificationCount: UInt64, bodyLength: UInt64, checksum: UInt64) {
      self.blockingCount = blockingCount
      self.identificationCount = identificationCount
      self.bodyLength = bodyLength
      self.checksum = checksum
    }

    init(bytes: [UInt8], path: String) throws(_SystemError) {
      guard bytes.count == _EntryStore.headerLength, Array(bytes[0..<4]) == _EntryStore.magic else {
        throw _SystemError("store \(path) is corrupt: bad magic")
      }
      func value(at offset: Int, width: Int) -> UInt64 {
        var result: UInt64 = 0
        for index in 0..<width { result |= UInt64(bytes[offset + index]) << UInt64(8 * index) }
        return result
      }
      guard value(at: 4, width: 4) == UInt64(_EntryStore.version) else {
        throw _SystemError("store \(path) has unsupported version \(value(at: 4, width: 4))")
      }
      blockingCount = value(at: 8, width: 8)
      identificationCount = value(at: 16, width: 8)
      bodyLength = value(at: 24, width: 8)
      checksum = value(at: 32, width: 8)
    }
  }

  /// Reads just the header of a store file.
  static func readHeader(_ path: String) throws(_SystemError) -> Header {
    let reader = try _FileReader(path: path, capacity: headerLength)
    var bytes: [UInt8] = []
    for _ in 0..<headerLength {
      guard let byte = try reader.readByte() else { throw _SystemError("store \(path) is corrupt: short header") }
      bytes.append(byte)
    }
    return try Header(bytes: bytes, path: path)
  }
}

/// Writes a store file: blocking numbers first, then identification entries,
/// each strictly ascending; ``finish()`` fills in the header and syncs.
final class _StoreWriter {
  private let writer: _FileWriter
  private var previousBlocking: Int64 = 0
  private var previousIdentification: Int64 = 0
  private(set) var blockingCount: UInt64 = 0
  private(set) var identificationCount: UInt64 = 0

  init(creating path: String) throws(_SystemError) {
    writer = try _FileWriter(creating: path, capacity: 1 << 20)
    try writer.writeBytes([UInt8](repeating: 0, count: _EntryStore.headerLength))
    writer.isHashing = true
  }

  /// Appends a blocking number, above the previous one.
  func appendBlocking(_ number: Int64) throws(_SystemError) {
    guard number > previousBlocking, identificationCount == 0 else {
      throw _SystemError("internal error: blocking number \(number) written out of order")
    }
    try writer.writeVarint(UInt64(number - previousBlocking))
    previousBlocking = number
    blockingCount += 1
  }

  /// Appends an identification entry, above the previous one.
  func appendIdentification(_ number: Int64, label: [UInt8]) throws(_SystemError) {
    guard number > previousIdentification else {
      throw _SystemError("internal error: identification number \(number) written out of order")
    }
    try writer.writeVarint(UInt64(number - previousIdentification))
    try writer.writeVarint(UInt64(label.count))
    try writer.writeBytes(label)
    previousIdentification = number
    identificationCount += 1
  }

  /// Writes the header, then flushes, syncs and closes the file.
  func finish() throws(_SystemError) {
    let header = _EntryStore.Header(
      blockingCount: blockingCount,
      identificationCount: identificationCount,
      bodyLength: writer.bytesWritten - UInt64(_EntryStore.headerLength),
      checksum: writer.checksum
    )
    try writer.overwrite(header.bytes, at: 0)
    try writer.sync()
    try writer.close()
  }
}

/// Reads a store file sequentially, checking order, counts and checksum.
final class _StoreReader {
  let header: _EntryStore.Header
  private let reader: _FileReader
  private let path: String
  private var blockingRead: UInt64 = 0
  private var identificationRead: UInt64 = 0
  private var previousBlocking: Int64 = 0
  private var previousIdentification: Int64 = 0
  private var verified = false

  init(path: String) throws(_SystemError) {
    self.path = path
    reader = try _FileReader(path: path, capacity: 1 << 20)
    var bytes: [UInt8] = []
    for _ in 0..<_EntryStore.headerLength {
      guard let byte = try reader.readByte() else { throw _SystemError("store \(path) is corrupt: short header") }
      bytes.append(byte)
    }
    header = try _EntryStore.Header(bytes: bytes, path: path)
    reader.isHashing = true
  }

  /// The next blocking number, or `nil` after the last.
  func nextBlocking() throws(_SystemError) -> Int64? {
    guard blockingRead < header.blockingCount else { return nil }
    let delta = try reader.requireVarint()
    guard delta >= 1, delta <= UInt64(CXCallDirectoryPhoneNumberMax - previousBlocking) else {
      throw corrupt("blocking entries are not ascending")
    }
    previousBlocking += Int64(delta)
    blockingRead += 1
    return previousBlocking
  }

  /// The next identification entry, or `nil` after the last (the remaining
  /// blocking numbers are skipped first). Reaching the end verifies the body
  /// length and checksum.
  func nextIdentification() throws(_SystemError) -> (number: Int64, label: [UInt8])? {
    while try nextBlocking() != nil {}
    guard identificationRead < header.identificationCount else {
      try verifyEnd()
      return nil
    }
    let delta = try reader.requireVarint()
    guard delta >= 1, delta <= UInt64(CXCallDirectoryPhoneNumberMax - previousIdentification) else {
      throw corrupt("identification entries are not ascending")
    }
    let length = try reader.requireVarint()
    guard length <= UInt64(_EntryStore.maximumLabelLength) else { throw corrupt("label too long") }
    let label = try reader.readBytes(Int(length))
    previousIdentification += Int64(delta)
    identificationRead += 1
    return (previousIdentification, label)
  }

  private func verifyEnd() throws(_SystemError) {
    guard !verified else { return }
    verified = true
    guard try reader.readByte() == nil else { throw corrupt("trailing bytes") }
    guard reader.checksum == header.checksum else { throw corrupt("checksum mismatch") }
  }

  private func corrupt(_ what: String) -> _SystemError {
    _SystemError("store \(path) is corrupt: \(what)")
  }
}
