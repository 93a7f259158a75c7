import CallDirectoryFormat
import CalldirSystem
import Sodium

/// The identity details (``IdentityDetails``) of a version whose
/// identification entries spilled past the build's memory limit: the same
/// file, byte for byte, and the same digest, without holding its runs.
///
/// Each pass folds the runs again from the entries' winning sources, read
/// in entry order from the spilled entries: one to count them (the body
/// gives the run count before the runs), one for the digest, and one to
/// write the file when the version is published.
struct StreamedIdentityDetails {
  /// Walks the winning source of every entry, in entry order; every walk
  /// gives the same sources.
  typealias WinningSources = (_ body: (Int32) throws(StoreError) -> Void) throws(StoreError) -> Void

  let version: Int
  let snapshotDigest: ContentDigest
  let entryCount: Int
  /// Distinct profiles, in the order entries first use them.
  let profiles: [IdentityDetails.Profile]
  let runCount: Int
  /// ``IdentityDetails/digest``'s value: the SHA-256 (hex) of the body.
  private(set) var digest = ""
  private let profileOfSource: (Int) -> IdentityDetails.Profile
  private let walk: WinningSources

  /// Counts the runs and hashes the body: two walks of `sources`.
  /// - Throws: ``StoreError/file(_:)`` when the entries cannot be read.
  init(
    sources: @escaping WinningSources, profileOfSource: @escaping (Int) -> IdentityDetails.Profile, version: Int,
    snapshotDigest: ContentDigest
  ) throws(StoreError) {
    var folder = IdentityDetails.RunFolder(profileOfSource: profileOfSource)
    var entries = 0
    var runs = 0
    try sources { (source) throws(StoreError) in
      entries += 1
      if folder.add(source: source) != nil { runs += 1 }
    }
    if folder.finish() != nil { runs += 1 }
    self.version = version
    self.snapshotDigest = snapshotDigest
    entryCount = entries
    profiles = folder.profiles
    runCount = runs
    self.profileOfSource = profileOfSource
    walk = sources
    var hasher = SodiumSHA256()
    try forEachBodyPiece { (piece) throws(StoreError) in hasher.update(piece) }
    digest = ContentDigest(bytes: hasher.finalize())?.hex ?? ""
  }

  /// Writes the file to `path` (a pending name), as
  /// ``LiveCallerIDRecording/write(_:to:deferringSyncsTo:)`` writes held
  /// details: whole, its sync left to `deferredSyncs`. Returns its facts.
  func write(to path: String, deferringSyncsTo deferredSyncs: FileSystem.DeferredSyncs) throws(StoreError) -> FileFacts {
    do {
      let file = try AtomicFile(destination: path)
      var crc = CRC32C()
      func put(_ bytes: UnsafeRawBufferPointer) throws(StoreError) {
        crc.update(bytes)
        do {
          try file.writer.write(bytes)
        } catch {
          throw .file(error)
        }
      }
      try IdentityDetails.head(version: version, snapshotDigest: snapshotDigest).withUnsafeBytes { bytes in
        Result { () throws(StoreError) in try put(bytes) }
      }.get()
      try forEachBodyPiece(put)
      try withUnsafeBytes(of: crc.value.littleEndian) { bytes in Result { () throws(StoreError) in try put(bytes) } }.get()
      try file.commit(deferringSyncsTo: deferredSyncs)
    } catch let error as StoreError {
      throw error
    } catch let error as FileError {
      throw .file(error)
    } catch {
      throw .file(FileError(operation: "write", path: path, errno: .ioError, detail: "\(error)"))
    }
    return try FileFacts.of(path)
  }

  /// Calls `body` with the body's bytes, a piece at a time, folding the
  /// runs again from the entries.
  private func forEachBodyPiece(_ body: (UnsafeRawBufferPointer) throws(StoreError) -> Void) throws(StoreError) {
    var piece = IdentityDetails.bodyHead(entryCount: entryCount, profiles: profiles, runCount: runCount)
    piece.reserveCapacity(Self.pieceBytes + 32)
    var folder = IdentityDetails.RunFolder(profileOfSource: profileOfSource)
    var runs = 0
    func add(_ run: IdentityDetails.Run) throws(StoreError) {
      IdentityDetails.append(run, to: &piece)
      runs += 1
      guard piece.count >= Self.pieceBytes else { return }
      try piece.withUnsafeBytes { bytes in Result { () throws(StoreError) in try body(bytes) } }.get()
      piece.removeAll(keepingCapacity: true)
    }
    try walk { (source) throws(StoreError) in
      if let run = folder.add(source: source) { try add(run) }
    }
    if let run = folder.finish() { try add(run) }
    guard runs == runCount else {
      throw .file(FileError(
        operation: "read", path: "", errno: .ioError,
        detail: "the spilled identification entries gave \(runs) runs, then \(runCount)"))
    }
    try piece.withUnsafeBytes { bytes in Result { () throws(StoreError) in try body(bytes) } }.get()
  }

  /// The bytes handed on at a time.
  private static let pieceBytes = 1 << 16
}
