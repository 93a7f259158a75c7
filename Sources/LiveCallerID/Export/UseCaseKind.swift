/// The two datasets a Live Caller ID Lookup extension looks a caller up
/// in: whether to block the call, and who is calling.
public enum UseCaseKind: String, Sendable, Hashable, CaseIterable {
  /// One row per blocking number and keyword form, value `0x01`.
  case block
  /// One row per identified number and keyword form, value a `CallIdentity`.
  case identity

  /// About how many rows a shard holds when the export chooses the shard
  /// count (Apple's examples: `entryCountPerShard` 50,000 and 5,000).
  public var rowsPerShard: Int {
    switch self {
    case .block: 50_000
    case .identity: 5_000
    }
  }

  /// The shard count for `rows` rows: as Apple's `entryCountPerShard` with
  /// `requirePowerOfTwoShardCount` computes it, the rows over
  /// ``rowsPerShard`` rounded down to a power of two (at least 1), so that
  /// every shard holds about that many rows or more.
  public func shardCount(forRows rows: Int) -> Int {
    let count = max(1, rows / rowsPerShard)
    return 1 << (Int.bitWidth - 1 - count.leadingZeroBitCount)
  }

  /// The value of a padding row: `0x00` ("do not block") for block; an
  /// empty `CallIdentity` but for its expiry for identity. No phone asks
  /// for a padding keyword.
  func paddingValue(cacheExpiryMinutes: UInt32) -> [UInt8] {
    switch self {
    case .block: [0x00]
    case .identity: CallIdentity(name: "", cacheExpiryMinutes: max(1, cacheExpiryMinutes)).encoded()
    }
  }
}
