/// A read position in one prefetched store, for the merge: the current
/// chunk of each list and where in it the merge is.
struct _MergeCursor {
  private let store: _PrefetchedStore
  private var blocking: [Int64] = []
  private var blockingIndex = 0
  private var identification: [IdentificationEntry] = []
  private var identificationIndex = 0
  private var blockingDone = false
  private var identificationDone = false

  init(_ store: _PrefetchedStore) {
    self.store = store
  }

  /// The lowest blocking number not merged yet.
  var blockingHead: Int64? { blockingIndex < blocking.count ? blocking[blockingIndex] : nil }

  /// The lowest identification entry not merged yet.
  var identificationHead: IdentificationEntry? {
    identificationIndex < identification.count ? identification[identificationIndex] : nil
  }

  /// Loads the first blocking chunk.
  mutating func startBlocking() throws(_DeviceStorageError) {
    try loadBlocking()
  }

  mutating func advanceBlocking() throws(_DeviceStorageError) {
    blockingIndex += 1
    try loadBlocking()
  }

  /// Skips what is left of the blocking numbers and loads the first
  /// identification chunk.
  mutating func startIdentification() throws(_DeviceStorageError) {
    while !blockingDone {
      blockingIndex = blocking.count
      try loadBlocking()
    }
    try loadIdentification()
  }

  mutating func advanceIdentification() throws(_DeviceStorageError) {
    identificationIndex += 1
    try loadIdentification()
  }

  /// The index of the cursor whose head (by `key`) is lowest; the first
  /// on ties; `nil` when every cursor is exhausted.
  static func lowest(_ cursors: [_MergeCursor], _ key: (_MergeCursor) -> Int64?) -> Int? {
    var best: (index: Int, key: Int64)?
    for (index, cursor) in cursors.enumerated() {
      guard let head = key(cursor) else { continue }
      if best.map({ head < $0.key }) ?? true { best = (index, head) }
    }
    return best?.index
  }

  private mutating func loadBlocking() throws(_DeviceStorageError) {
    while blockingIndex == blocking.count && !blockingDone {
      switch try store.next() {
      case .blocking(let numbers):
        blocking = numbers
        blockingIndex = 0
      case .identification(let entries):
        blockingDone = true
        identification = entries
        identificationIndex = 0
      case .end:
        blockingDone = true
        identificationDone = true
      }
    }
  }

  private mutating func loadIdentification() throws(_DeviceStorageError) {
    while identificationIndex == identification.count && !identificationDone {
      switch try store.next() {
      case .identification(let entries):
        identification = entries
        identificationIndex = 0
      case .blocking:
        continue
      case .end:
        identificationDone = true
      }
    }
  }
}
