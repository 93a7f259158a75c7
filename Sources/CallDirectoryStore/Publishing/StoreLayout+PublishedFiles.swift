import CallDirectoryFormat
import CalldirSystem

extension StoreLayout {
  /// The full snapshot blob of `record`, once checked to be the one the
  /// catalog recorded: its size and CRC-32C, and its header's version and
  /// content digest (a replaced or damaged file is never used).
  /// - Throws: ``StoreError/fileMismatch(path:problem:)`` when it is not
  ///   (or is missing); ``StoreError/file(_:)`` when it cannot be read.
  public func checkedSnapshot(of record: SnapshotRecord) throws(StoreError) -> String {
    let path = path(record.path)
    let facts = try FileFacts.ofPublished(path)
    guard facts.bytes == record.bytes, facts.checksum == record.fileChecksum else {
      throw .fileMismatch(
        path: path,
        problem: "\(facts.bytes) bytes with \(facts.checksum), the catalog recorded \(record.bytes) bytes with "
          + "\(record.fileChecksum)")
    }
    let header: BlobHeader
    do {
      header = try BlobReader.readHeader(path: path)
    } catch .io(let error) {
      throw .file(error)
    } catch {
      throw .fileMismatch(path: path, problem: "\(error)")
    }
    guard header.version == UInt64(record.version), header.contentDigest.hex == record.digest else {
      throw .fileMismatch(
        path: path, problem: "its header names version \(header.version) with digest \(header.contentDigest.hex)")
    }
    return path
  }

  /// The identity details of `record` (nil for a version built without
  /// `liveCallerID`), once checked: the file's CRC-32C is the catalog's,
  /// it reads whole, and it belongs to this version's snapshot.
  /// - Throws: ``StoreError/fileMismatch(path:problem:)`` or
  ///   ``StoreError/file(_:)``.
  public func checkedIdentities(of record: SnapshotRecord) throws(StoreError) -> IdentityDetails? {
    guard let name = record.identitiesPath else { return nil }
    let path = path(name)
    let facts = try FileFacts.ofPublished(path)
    guard facts.checksum == record.identitiesChecksum else {
      throw .fileMismatch(
        path: path, problem: "its checksum is \(facts.checksum), the catalog recorded \(record.identitiesChecksum ?? "none")")
    }
    let details: IdentityDetails
    do {
      details = try IdentityDetails(path: path)
    } catch .file(let error) {
      throw .file(error)
    } catch {
      throw .fileMismatch(path: path, problem: "\(error)")
    }
    guard details.version == record.version, details.snapshotDigest.hex == record.digest,
      details.entryCount == record.identification
    else {
      throw .fileMismatch(path: path, problem: "it does not describe version \(record.version)'s identification entries")
    }
    return details
  }
}
