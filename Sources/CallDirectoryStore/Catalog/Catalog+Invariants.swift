extension Catalog {
  /// Checks, in debug builds, that what ``record(_:sources:rejectReasons:deltas:shards:shardDeltas:)``
  /// is given belongs to the one version it records: every delta, shard
  /// and shard delta names that version as its own (its target), and the
  /// shards come numbered in ascending order. What the catalog file
  /// already holds is its own input and is checked with ``StoreError``s
  /// (a version recorded twice is refused), never here. Release builds
  /// compile none of it.
  static func checkRecordInvariants(
    _ snapshot: SnapshotRecord, deltas: [DeltaRecord], shards: [ShardRecord], shardDeltas: [ShardDeltaRecord]
  ) {
    #if DEBUG
      let version = snapshot.version
      precondition(deltas.allSatisfy { $0.toVersion == version }, "a delta recorded with another version than its target")
      precondition(shards.allSatisfy { $0.version == version }, "a shard recorded with another version than its own")
      precondition(
        zip(shards, shards.dropFirst()).allSatisfy { $0.shard < $1.shard } && (shards.first?.shard ?? 1) >= 1,
        "shards not numbered in ascending order from 1")
      precondition(
        shardDeltas.allSatisfy { $0.toVersion == version }, "a shard delta recorded with another version than its target")
    #endif
  }

  /// Checks, in debug builds, what a build makes true of the version it
  /// publishes (beyond ``checkRecordInvariants(_:deltas:shards:shardDeltas:)``):
  /// it is above every version the catalog knew, its deltas and shard
  /// deltas start at versions below it, at most one from each, and its
  /// shards are numbered 1, 2, 3, … and their ranges follow each other
  /// without a gap up to `Int64.max - 1`. Release builds compile none of it.
  static func checkPublishedInvariants(
    _ snapshot: SnapshotRecord, highestBefore: Int, deltas: [DeltaRecord], shards: [ShardRecord],
    shardDeltas: [ShardDeltaRecord]
  ) {
    #if DEBUG
      checkRecordInvariants(snapshot, deltas: deltas, shards: shards, shardDeltas: shardDeltas)
      let version = snapshot.version
      precondition(version > highestBefore, "version \(version) published at or below \(highestBefore)")
      precondition(deltas.allSatisfy { $0.fromVersion < version }, "a delta from a version not below its target")
      precondition(Set(deltas.map(\.fromVersion)).count == deltas.count, "two deltas from one base")
      precondition(shardDeltas.allSatisfy { $0.fromVersion < version }, "a shard delta from a version not below its target")
      precondition(
        Set(shardDeltas.map { [$0.fromVersion, $0.shard] }).count == shardDeltas.count,
        "two deltas of one shard from one base")
      guard !shards.isEmpty else { return }
      precondition(shards.enumerated().allSatisfy { $0.element.shard == $0.offset + 1 }, "shards not numbered 1, 2, 3, …")
      precondition(shards.allSatisfy { $0.lowerBound <= $0.upperBound }, "an empty shard range")
      precondition(
        zip(shards, shards.dropFirst()).allSatisfy { $1.lowerBound == $0.upperBound + 1 }
          && shards.last?.upperBound == Int64.max - 1,
        "shard ranges do not tile the numbers in order")
    #endif
  }
}
