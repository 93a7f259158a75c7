/// A complete call directory snapshot held in memory (tests and small data).
///
/// Large datasets are written with ``FullSnapshotWriter`` and read with
/// ``BlobReader`` without ever holding them in memory.
public struct Snapshot: Sendable, Hashable {
  /// The snapshot version.
  public var version: UInt64
  /// Blocking numbers, strictly ascending.
  public var blocking: [Int64]
  /// Identification entries, strictly ascending by number.
  public var identification: [IdentificationEntry]

  /// Creates a snapshot; call ``validate()`` or let the writer check it.
  public init(version: UInt64 = 0, blocking: [Int64] = [], identification: [IdentificationEntry] = []) {
    self.version = version
    self.blocking = blocking
    self.identification = identification
  }

  /// Checks ranges, order and label lengths.
  /// - Throws: The first `BlobError` found.
  public func validate() throws(BlobError) {
    _ = try contentDigest()
  }

  /// The content digest of the entries (see ``ContentDigestBuilder``).
  /// - Throws: `BlobError` if the entries are out of order or out of range.
  public func contentDigest() throws(BlobError) -> ContentDigest {
    try Snapshot.contentDigest(blocking: blocking, identification: identification)
  }

  /// Computes the content digest of a full snapshot from its entries.
  /// - Throws: `BlobError` if the entries are out of order or out of range.
  public static func contentDigest(
    blocking: some Sequence<Int64>, identification: some Sequence<IdentificationEntry>
  ) throws(BlobError) -> ContentDigest {
    var builder = ContentDigestBuilder()
    for number in blocking { try builder.addBlocking(number) }
    for entry in identification { try builder.addIdentification(entry.number, label: entry.label) }
    return builder.finalize()
  }

  /// The distinct labels, ordered by their UTF-8 bytes (the dictionary the
  /// one-shot writers store).
  var _labelDictionary: (labels: [String], ids: [[UInt8]: UInt32]) {
    var unique = [[UInt8]: String]()
    for entry in identification { unique[Array(entry.label.utf8)] = entry.label }
    let sorted = unique.keys.sorted { $0.lexicographicallyPrecedes($1) }
    var ids = [[UInt8]: UInt32]()
    for (index, key) in sorted.enumerated() { ids[key] = UInt32(index) }
    return (sorted.compactMap { unique[$0] }, ids)
  }

  /// Applies `delta`, checking that it was made for this snapshot.
  ///
  /// - Throws: `BlobError.baseMismatch` if the delta's base version or digest
  ///   differ from this snapshot's, or if it removes a missing entry or adds
  ///   a present one; `BlobError.digestMismatch` if the result's digest is
  ///   not the delta's target digest.
  public func applying(_ delta: SnapshotDelta) throws(BlobError) -> Snapshot {
    let digest = try contentDigest()
    guard delta.baseVersion == version else {
      throw BlobError.baseMismatch("delta base is version \(delta.baseVersion), snapshot is version \(version)")
    }
    guard delta.baseDigest == digest else {
      throw BlobError.baseMismatch("delta base digest \(delta.baseDigest) differs from snapshot digest \(digest)")
    }
    let blocking = try _merge(
      blocking, removing: delta.blockingRemoves, adding: delta.blockingAdds,
      key: { $0 }, section: .blocking)
    let identification = try _merge(
      identification, removing: delta.identificationRemoves, adding: delta.identificationAdds,
      key: { $0.number }, section: .identification)
    let result = Snapshot(version: delta.targetVersion, blocking: blocking, identification: identification)
    let resultDigest = try result.contentDigest()
    guard resultDigest == delta.targetDigest else {
      throw BlobError.digestMismatch(expected: delta.targetDigest, actual: resultDigest)
    }
    return result
  }
}

/// Removes then adds, on ascending lists keyed by number.
func _merge<Element>(
  _ base: [Element], removing removes: [Int64], adding adds: [Element],
  key: (Element) -> Int64, section: BlobSection
) throws(BlobError) -> [Element] {
  var kept = [Element]()
  kept.reserveCapacity(base.count)
  var r = 0
  for element in base {
    let number = key(element)
    if r < removes.count && removes[r] < number {
      throw BlobError.baseMismatch("\(section) remove of \(removes[r]), which the base does not hold")
    }
    if r < removes.count && removes[r] == number {
      r += 1
    } else {
      kept.append(element)
    }
  }
  if r < removes.count {
    throw BlobError.baseMismatch("\(section) remove of \(removes[r]), which the base does not hold")
  }
  var out = [Element]()
  out.reserveCapacity(kept.count + adds.count)
  var a = 0
  for element in kept {
    let number = key(element)
    while a < adds.count && key(adds[a]) < number {
      out.append(adds[a])
      a += 1
    }
    if a < adds.count && key(adds[a]) == number {
      throw BlobError.baseMismatch("\(section) add of \(number), which the base already holds")
    }
    out.append(element)
  }
  out.append(contentsOf: adds[a...])
  return out
}
