import CalldirSystem

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

    init(bytes: [UInt8], path: String) throws(_DeviceStorageError) {
      guard bytes.count == _EntryStore.headerLength else {
        throw .corrupt(path: path, reason: "short header")
      }
      guard Array(bytes[0..<4]) == _EntryStore.magic else { throw .corrupt(path: path, reason: "bad magic") }
      func value(at offset: Int, width: Int) -> UInt64 {
        var result: UInt64 = 0
        for index in 0..<width { result |= UInt64(bytes[offset + index]) << UInt64(8 * index) }
        return result
      }
      guard value(at: 4, width: 4) == UInt64(_EntryStore.version) else {
        throw .corrupt(path: path, reason: "unsupported version \(value(at: 4, width: 4))")
      }
      blockingCount = value(at: 8, width: 8)
      identificationCount = value(at: 16, width: 8)
      bodyLength = value(at: 24, width: 8)
      checksum = value(at: 32, width: 8)
    }
  }

  /// Reads just the header of a store file.
  static func readHeader(_ path: String) throws(_DeviceStorageError) -> Header {
    let bytes = try _io { () throws(FileError) -> [UInt8] in
      let file = try FileDescriptor.open(path, .readOnly)
      return try file.closeAfter { () throws(FileError) -> [UInt8] in
        var bytes = [UInt8](repeating: 0, count: headerLength)
        let count = try bytes.withUnsafeMutableBytes { raw in
          Result { () throws(Errno) in try file.read(fromAbsoluteOffset: 0, into: raw) }
        }.mapError { FileError(operation: "read", path: path, errno: $0) }.get()
        return Array(bytes[0..<count])
      }
    }
    return try Header(bytes: bytes, path: path)
  }

  /// The header of the store at `path`, or `nil` when there is none.
  static func readHeaderIfPresent(_ path: String) throws(_DeviceStorageError) -> Header? {
    guard try _io({ () throws(FileError) in try FileSystem.statusIfPresent(path) }) != nil else { return nil }
    return try readHeader(path)
  }
}
