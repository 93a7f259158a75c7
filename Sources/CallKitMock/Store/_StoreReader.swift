import CalldirSystem

/// Reads a store file sequentially, checking order, counts and checksum.
final class _StoreReader {
  let header: _EntryStore.Header
  private let reader: _ByteReader
  private var blockingRead: UInt64 = 0
  private var identificationRead: UInt64 = 0
  private var previousBlocking: Int64 = 0
  private var previousIdentification: Int64 = 0
  private var verified = false

  init(path: String) throws(_DeviceStorageError) {
    reader = try _ByteReader(path: path)
    header = try _EntryStore.Header(bytes: try reader.readBytesOrFewer(_EntryStore.headerLength), path: path)
    reader.isHashing = true
  }

  /// The next blocking number, or `nil` after the last.
  func nextBlocking() throws(_DeviceStorageError) -> Int64? {
    guard blockingRead < header.blockingCount else { return nil }
    let delta = try reader.requireVarint()
    guard delta >= 1, delta <= UInt64(CXCallDirectoryPhoneNumberMax - previousBlocking) else {
      throw reader.corrupt("blocking entries are not ascending")
    }
    previousBlocking += Int64(delta)
    blockingRead += 1
    return previousBlocking
  }

  /// The next identification entry, or `nil` after the last (the remaining
  /// blocking numbers are skipped first). Reaching the end verifies the body
  /// length and checksum.
  func nextIdentification() throws(_DeviceStorageError) -> (number: Int64, label: [UInt8])? {
    while try nextBlocking() != nil {}
    guard identificationRead < header.identificationCount else {
      try verifyEnd()
      return nil
    }
    let delta = try reader.requireVarint()
    guard delta >= 1, delta <= UInt64(CXCallDirectoryPhoneNumberMax - previousIdentification) else {
      throw reader.corrupt("identification entries are not ascending")
    }
    let length = try reader.requireVarint()
    guard length <= UInt64(_EntryStore.maximumLabelLength) else { throw reader.corrupt("label too long") }
    let label = try reader.readBytes(Int(length))
    previousIdentification += Int64(delta)
    identificationRead += 1
    return (previousIdentification, label)
  }

  private func verifyEnd() throws(_DeviceStorageError) {
    guard !verified else { return }
    verified = true
    guard try reader.isAtEnd() else { throw reader.corrupt("trailing bytes") }
    guard reader.checksum == header.checksum else { throw reader.corrupt("checksum mismatch") }
  }
}
