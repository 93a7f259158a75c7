import CallDirectoryFormat
import CalldirSystem

/// Identification entries resolved in bounded memory, once they passed a
/// build's memory limit, with the same result as
/// ``IdentificationResolver/resolve(conflicts:)``:
///
/// 1. While sources are read, the entries held are spilled as *label runs*
///    (``IdentificationResolver/spill(to:)``): groups of one label (its
///    bytes once) and its entries, the groups in label byte order.
/// 2. The label runs are merged by label: each distinct label gets a rank
///    (its place in byte order among every label read) and goes once to the
///    dictionary file; each entry, with its rank and label, goes to a
///    ``RankedCandidates`` sorter, which spills runs in resolution order
///    (number, higher priority, arrival).
/// 3. Those runs are merged: the first entry of each number wins, the
///    others are conflicts (another rank) or repeats, exactly as in memory;
///    the winners go, in number order, to the entries file with their rank
///    and label, and their ranks to a ``RankSet``.
///
/// A winner's label id in the blob is the place of its rank among the
/// ranks that won (the dictionary holds the labels that won, in byte
/// order); the blob writers stream the dictionary file and the entries
/// file (``SpilledIdentification``).
enum IdentificationSpill {
  /// What identifies a candidate entry, besides its label.
  struct Key: Equatable {
    var number: Int64
    var sequence: Int
    var line: Int
    var priority: Int32
    var source: Int32

    func write(to writer: SpillByteWriter) throws(CompileError) {
      try writer.signed(number)
      try writer.varint(UInt64(bitPattern: Int64(sequence)))
      try writer.signed(Int64(line))
      try writer.signed(Int64(priority))
      try writer.signed(Int64(source))
    }

    init(number: Int64, sequence: Int, line: Int, priority: Int32, source: Int32) {
      self.number = number
      self.sequence = sequence
      self.line = line
      self.priority = priority
      self.source = source
    }

    init(from reader: SpillByteReader) throws(CompileError) {
      number = try reader.signed()
      sequence = Int(Int64(bitPattern: try reader.varint()))
      line = Int(try reader.signed())
      priority = Int32(truncatingIfNeeded: try reader.signed())
      source = Int32(truncatingIfNeeded: try reader.signed())
    }

    /// The resolution order: number, then the higher priority, then arrival.
    @inline(__always)
    static func precedes(_ left: Key, _ right: Key) -> Bool {
      if left.number != right.number { return left.number < right.number }
      if left.priority != right.priority { return left.priority > right.priority }
      return left.sequence < right.sequence
    }
  }

  /// What resolving spilled entries gives.
  struct Resolution {
    var entries: SpilledIdentification
    /// Numbers that had more than one distinct label.
    var conflicts: Int
    /// Entries dropped because the same number came again.
    var duplicates: Int
    /// What each identification source contributed, by config index.
    var contributions: [Int: SourceContribution]
    /// Temporary runs written (the label runs included).
    var runsWritten: Int
  }

  /// Resolves the entries of `labelRuns` (which are removed), keeping at
  /// most `bufferBytes` of records in memory at a time.
  static func resolve(
    labelRuns: [String], conflicts log: ConflictLog?, files: SpillFiles, bufferBytes: Int
  ) throws(CompileError) -> Resolution {
    let (runs, merged) = try mergeToFanIn(labelRuns, files: files)
    let ranked = try rankLabels(runs, files: files, bufferBytes: bufferBytes)

    // Resolve in number order.
    let output = try SpillByteWriter(path: files.newPath())
    var winners = WinnerWriter(output: output, log: log, ranks: ranked.ranks)
    var next = try ranked.sorted.next()
    while let first = next {
      next = try winners.resolveNumber(first, from: ranked.sorted)
    }
    try output.finish()
    ranked.sorted.removeRuns()
    winners.used.index()
    return Resolution(
      entries: SpilledIdentification(
        entriesPath: output.path, count: winners.winners, dictionaryPath: ranked.dictionaryPath, used: winners.used,
        files: files),
      conflicts: winners.conflicts, duplicates: winners.candidates - winners.winners,
      contributions: winners.contributions,
      runsWritten: labelRuns.count + merged + ranked.runsWritten)
  }

  /// Merges label runs beyond the fan-in into one first, a fan-in's worth
  /// at a time; returns the runs left and how many runs it wrote.
  static func mergeToFanIn(
    _ labelRuns: [String], files: SpillFiles
  ) throws(CompileError) -> (runs: [String], written: Int) {
    var runs = labelRuns
    var written = 0
    while runs.count > SortedRun.maximumFanIn {
      let batch = Array(runs.prefix(SortedRun.maximumFanIn))
      let writer = try SpillByteWriter(path: files.newPath())
      try mergeLabelRuns(
        batch,
        group: { (label, count) throws(CompileError) in
          try writer.lengthPrefixed(label)
          try writer.varint(UInt64(count))
        },
        entry: { (key) throws(CompileError) in try key.write(to: writer) })
      try writer.finish()
      for path in batch { try? FileSystem.removeFile(path) }
      runs = Array(runs.dropFirst(batch.count)) + [writer.path]
      written += 1
    }
    return (runs, written)
  }

  /// The label runs merged by label: what ranks them.
  private struct RankedLabels {
    /// The dictionary file: each distinct label once, in byte order.
    let dictionaryPath: String
    /// The number of distinct labels.
    let ranks: UInt32
    /// The entries in resolution order, with their ranks and labels.
    let sorted: RankedCandidates.Cursor
    /// The sorter's temporary runs.
    let runsWritten: Int
  }

  /// Ranks the labels, writes the dictionary, and sorts the entries for
  /// resolution; the runs are removed.
  private static func rankLabels(
    _ runs: [String], files: SpillFiles, bufferBytes: Int
  ) throws(CompileError) -> RankedLabels {
    let dictionary = try SpillByteWriter(path: files.newPath())
    let sorter = RankedCandidates(files: files, bufferBytes: bufferBytes)
    var ranks: UInt32 = 0
    var label: [UInt8] = []
    try mergeLabelRuns(
      runs,
      group: { (bytes, _) throws(CompileError) in
        try dictionary.lengthPrefixed(bytes)
        label.removeAll(keepingCapacity: true)
        label.append(contentsOf: bytes)
        ranks += 1
      },
      entry: { (key) throws(CompileError) in
        try sorter.append(key, rank: ranks - 1, label: label)
      })
    try dictionary.finish()
    for path in runs { try? FileSystem.removeFile(path) }
    let sorted = try sorter.finish()
    return RankedLabels(dictionaryPath: dictionary.path, ranks: ranks, sorted: sorted, runsWritten: sorter.runsWritten)
  }

  /// Resolves each number's candidates, in resolution order: the first
  /// wins and goes to the entries file with its rank and label; the others
  /// are conflicts (another rank, logged) or repeats; each source's
  /// contribution is counted.
  private struct WinnerWriter {
    let output: SpillByteWriter
    let log: ConflictLog?
    /// The ranks that won.
    var used: RankSet
    var contributions: [Int: SourceContribution] = [:]
    /// Numbers with more than one rank.
    var conflicts = 0
    var candidates = 0
    var winners = 0
    private var previousNumber: Int64 = 0
    /// The sources of the number being resolved.
    private var sourcesOfNumber: [Int32] = []
    private var winnerLabel: [UInt8] = []

    init(output: SpillByteWriter, log: ConflictLog?, ranks: UInt32) {
      self.output = output
      self.log = log
      used = RankSet(count: Int(ranks))
    }

    /// Resolves the number whose first candidate is `winner`, reading its
    /// other candidates from `sorted`; returns the next number's first.
    mutating func resolveNumber(
      _ winner: RankedCandidates.Cursor.Entry, from sorted: RankedCandidates.Cursor
    ) throws(CompileError) -> RankedCandidates.Cursor.Entry? {
      candidates += 1
      winnerLabel.removeAll(keepingCapacity: true)
      winnerLabel.append(contentsOf: winner.label)
      let (key, rank) = (winner.key, winner.rank)
      var hasConflict = false
      sourcesOfNumber.removeAll(keepingCapacity: true)
      sourcesOfNumber.append(key.source)
      var next = try sorted.next()
      while let other = next, other.key.number == key.number {
        if try add(other, against: key, rank: rank) { hasConflict = true }
        next = try sorted.next()
      }
      for source in sourcesOfNumber {
        contributions[Int(source), default: SourceContribution()].numbers += 1
      }
      if sourcesOfNumber.count == 1 {
        contributions[Int(key.source), default: SourceContribution()].unique += 1
      }
      if hasConflict { conflicts += 1 }
      try write(key, rank: rank)
      return next
    }

    /// A candidate that lost to `key`: whether it conflicts (another
    /// rank, logged); a repeat from the same source is counted.
    private mutating func add(
      _ other: RankedCandidates.Cursor.Entry, against key: Key, rank: UInt32
    ) throws(CompileError) -> Bool {
      candidates += 1
      let conflicting = other.rank != rank
      if conflicting {
        try log?.add(
          number: key.number, winner: (String(decoding: winnerLabel, as: UTF8.self), Int(key.source), key.line),
          loser: (String(decoding: other.label, as: UTF8.self), Int(other.key.source), other.key.line))
      }
      if sourcesOfNumber.contains(other.key.source) {
        contributions[Int(other.key.source), default: SourceContribution()].duplicates += 1
      } else {
        sourcesOfNumber.append(other.key.source)
      }
      return conflicting
    }

    /// The winner to the entries file: its number as a gap, rank, source
    /// and label.
    private mutating func write(_ key: Key, rank: UInt32) throws(CompileError) {
      try output.varint(UInt64(bitPattern: key.number &- previousNumber))
      previousNumber = key.number
      try output.varint(UInt64(rank))
      try output.signed(Int64(key.source))
      try output.lengthPrefixed(winnerLabel)
      used.insert(rank)
      winners += 1
    }
  }

  /// Merges label runs by label: `group` gets each distinct label once
  /// (with how many entries the runs give it), in byte order, then `entry`
  /// each of its entries.
  private static func mergeLabelRuns(
    _ paths: [String], group: ([UInt8], Int) throws(CompileError) -> Void,
    entry: (Key) throws(CompileError) -> Void
  ) throws(CompileError) {
    let share = max(64 << 10, (4 << 20) / max(1, paths.count))
    var readers: [LabelRunReader] = []
    for path in paths {
      let reader = try LabelRunReader(path: path, bufferBytes: share)
      if try reader.nextGroup() { readers.append(reader) }
    }
    var same: [Int] = []
    while !readers.isEmpty {
      var smallest = 0
      for index in readers.indices.dropFirst()
      where readers[index].label.lexicographicallyPrecedes(readers[smallest].label) {
        smallest = index
      }
      same.removeAll(keepingCapacity: true)
      var count = 0
      for index in readers.indices where readers[index].label == readers[smallest].label {
        same.append(index)
        count += readers[index].remaining
      }
      try group(readers[smallest].label, count)
      for index in same {
        let reader = readers[index]
        while reader.remaining > 0 { try entry(try reader.nextEntry()) }
      }
      // Readers whose runs ended leave, from the back.
      for index in same.reversed() where !(try readers[index].nextGroup()) {
        readers.remove(at: index)
      }
    }
  }
}

/// Reads a label run: groups of a label and its entries.
private final class LabelRunReader {
  private let reader: SpillByteReader
  /// The current group's label.
  private(set) var label: [UInt8] = []
  /// Entries of the current group not read yet.
  private(set) var remaining = 0

  init(path: String, bufferBytes: Int) throws(CompileError) {
    reader = try SpillByteReader(path: path, bufferBytes: bufferBytes)
  }

  /// Moves to the next group (the current one read whole); false at the end.
  func nextGroup() throws(CompileError) -> Bool {
    guard try !reader.isAtEnd() else { return false }
    let bytes = try reader.lengthPrefixed()
    label.removeAll(keepingCapacity: true)
    label.append(contentsOf: bytes)
    remaining = Int(try reader.varint())
    return true
  }

  /// The current group's next entry.
  func nextEntry() throws(CompileError) -> IdentificationSpill.Key {
    remaining -= 1
    return try IdentificationSpill.Key(from: reader)
  }
}

/// Candidate entries with their label's rank and bytes, sorted in the
/// resolution order (``IdentificationSpill/Key/precedes(_:_:)``) in
/// bounded memory: gathered in a buffer of `bufferBytes`, spilled as
/// sorted runs whenever it fills, and merged when read back.
final class RankedCandidates {
  private struct Record {
    var key: IdentificationSpill.Key
    var rank: UInt32
    var labelOffset: UInt32
    var labelLength: UInt32
  }

  /// Bytes a buffered record may cost: its slot and the sort's scratch.
  private static let bytesPerRecord = MemoryLayout<Record>.stride * 3 / 2

  private var records: [Record] = []
  /// The labels of the buffered records, each rank's once (records come
  /// grouped by rank).
  private var labels: [UInt8] = []
  private var lastRank: UInt32?
  private var lastLabel: (offset: UInt32, length: UInt32) = (0, 0)
  private let files: SpillFiles
  private let bufferBytes: Int
  private var runs: [String] = []
  /// Runs written (merged ones included).
  private(set) var runsWritten = 0

  init(files: SpillFiles, bufferBytes: Int) {
    self.files = files
    // The build gives at least ``SpillPolicy/minimumBufferBytes``; tests less.
    self.bufferBytes = max(1 << 12, bufferBytes)
    // Reserved once (pages are touched as records come): no doubling past
    // the budget.
    records.reserveCapacity(self.bufferBytes / Self.bytesPerRecord + 1)
  }

  /// Adds an entry whose label has `rank` and the bytes `label`.
  func append(_ key: IdentificationSpill.Key, rank: UInt32, label: [UInt8]) throws(CompileError) {
    if rank != lastRank {
      lastRank = rank
      lastLabel = (UInt32(labels.count), UInt32(label.count))
      labels.append(contentsOf: label)
    }
    records.append(Record(key: key, rank: rank, labelOffset: lastLabel.offset, labelLength: lastLabel.length))
    if records.count * Self.bytesPerRecord + labels.count >= bufferBytes { try spill() }
  }

  /// Sorts the buffered records into a new run.
  private func spill() throws(CompileError) {
    guard !records.isEmpty else { return }
    records.sort { IdentificationSpill.Key.precedes($0.key, $1.key) }
    let writer = try SpillByteWriter(path: files.newPath())
    for record in records {
      try Self.write(
        record.key, rank: record.rank,
        label: labels[Int(record.labelOffset)..<Int(record.labelOffset + record.labelLength)], to: writer)
    }
    try writer.finish()
    runs.append(writer.path)
    runsWritten += 1
    records.removeAll(keepingCapacity: true)
    labels.removeAll(keepingCapacity: true)
    lastRank = nil
    if runs.count >= SortedRun.maximumFanIn {
      let merged = try Cursor(runs)
      let writer = try SpillByteWriter(path: files.newPath())
      while let record = try merged.next() {
        try Self.write(record.key, rank: record.rank, label: record.label, to: writer)
      }
      try writer.finish()
      merged.removeRuns()
      runs = [writer.path]
      runsWritten += 1
    }
  }

  private static func write<Label: Collection<UInt8>>(
    _ key: IdentificationSpill.Key, rank: UInt32, label: Label, to writer: SpillByteWriter
  ) throws(CompileError) {
    try key.write(to: writer)
    try writer.varint(UInt64(rank))
    try writer.lengthPrefixed(label)
  }

  /// Every record in order: the buffer is spilled and the runs merged.
  /// The sorter is spent afterwards.
  func finish() throws(CompileError) -> Cursor {
    try spill()
    records = []
    labels = []
    return try Cursor(runs)
  }

  /// The merged runs, front to back.
  final class Cursor {
    /// One record; `label` is valid until the next call to ``next()``.
    struct Entry {
      var key: IdentificationSpill.Key
      var rank: UInt32
      var label: UnsafeRawBufferPointer
    }

    private final class Run {
      let reader: SpillByteReader
      var key = IdentificationSpill.Key(number: 0, sequence: 0, line: 0, priority: 0, source: 0)
      var rank: UInt32 = 0
      var label = UnsafeRawBufferPointer(start: nil, count: 0)

      init(path: String, bufferBytes: Int) throws(CompileError) {
        reader = try SpillByteReader(path: path, bufferBytes: bufferBytes)
      }

      /// Reads the next record; false at the end.
      func advance() throws(CompileError) -> Bool {
        guard try !reader.isAtEnd() else { return false }
        key = try IdentificationSpill.Key(from: reader)
        rank = UInt32(truncatingIfNeeded: try reader.varint())
        label = try reader.lengthPrefixed()
        return true
      }
    }

    private var runs: [Run] = []
    private let paths: [String]
    /// The run whose record ``next()`` returned last, moved on at the next call.
    private var returned: Int?

    init(_ paths: [String]) throws(CompileError) {
      self.paths = paths
      let share = max(64 << 10, (4 << 20) / max(1, paths.count))
      for path in paths {
        let run = try Run(path: path, bufferBytes: share)
        if try run.advance() { runs.append(run) }
      }
    }

    /// The next record in resolution order, nil at the end.
    func next() throws(CompileError) -> Entry? {
      if let returned {
        self.returned = nil
        if try !runs[returned].advance() { runs.remove(at: returned) }
      }
      guard !runs.isEmpty else { return nil }
      var smallest = 0
      for index in runs.indices.dropFirst() where IdentificationSpill.Key.precedes(runs[index].key, runs[smallest].key) {
        smallest = index
      }
      returned = smallest
      let run = runs[smallest]
      return Entry(key: run.key, rank: run.rank, label: run.label)
    }

    /// Removes the run files.
    func removeRuns() {
      for path in paths { try? FileSystem.removeFile(path) }
    }
  }
}

/// A set of label ranks (``IdentificationSpill``) as a bitmap, with the
/// place of each member among them once ``index()`` has run.
package struct RankSet: Sendable {
  private var words: [UInt64]
  /// Members before each word.
  private var before: [UInt32] = []
  /// Ranks the set can hold (0..<capacity).
  package let capacity: Int

  package init(count: Int) {
    capacity = count
    words = [UInt64](repeating: 0, count: (count + 63) / 64)
  }

  @inline(__always)
  package mutating func insert(_ rank: UInt32) {
    words[Int(rank >> 6)] |= 1 << UInt64(rank & 63)
  }

  @inline(__always)
  package func contains(_ rank: UInt32) -> Bool {
    words[Int(rank >> 6)] & (1 << UInt64(rank & 63)) != 0
  }

  /// Counts the members before each word (after the last insert).
  package mutating func index() {
    before = []
    before.reserveCapacity(words.count + 1)
    var total: UInt32 = 0
    for word in words {
      before.append(total)
      total += UInt32(word.nonzeroBitCount)
    }
    before.append(total)
  }

  /// Members of the set (after ``index()``).
  package var count: Int { Int(before.last ?? 0) }

  /// How many members are below `rank` (after ``index()``): a member's
  /// label id in a dictionary of the members.
  @inline(__always)
  package func place(of rank: UInt32) -> UInt32 {
    let word = Int(rank >> 6)
    let below = words[word] & ((1 << UInt64(rank & 63)) &- 1)
    return before[word] + UInt32(below.nonzeroBitCount)
  }
}

/// Identification entries resolved from spilled runs: the winners in
/// number order, each with its label's rank and bytes and its source, in
/// a temporary file, and the dictionary of every label read, in rank
/// (byte) order, in another. Walked as many times as the blobs need.
package struct SpilledIdentification: Sendable {
  /// The winners: varint number gaps, ranks, winning sources (ZigZag) and
  /// length-prefixed labels.
  package let entriesPath: String
  /// Entries (winners).
  package let count: Int
  /// Every label read, length-prefixed, in rank order.
  package let dictionaryPath: String
  /// The ranks of the labels that won.
  package let used: RankSet
  /// Keeps the files until the last copy is gone.
  let files: SpillFiles

  /// Labels in the dictionary (those that won).
  package var labelCount: Int { used.count }

  /// Reads the entries front to back.
  package func cursor() throws(CompileError) -> SpilledEntryCursor {
    try SpilledEntryCursor(path: entriesPath)
  }

  /// The labels of `members` (ranks), in rank order, streamed to a blob writer.
  package func labels(_ members: RankSet) -> SpilledLabels {
    SpilledLabels(path: dictionaryPath, members: members)
  }

  /// The labels that won (the snapshot's dictionary).
  package var allLabels: SpilledLabels { labels(used) }
}

/// The entries of a ``SpilledIdentification``, one at a time.
package final class SpilledEntryCursor {
  private let reader: SpillByteReader
  /// The current entry's number, nil past the end.
  package private(set) var number: Int64?
  /// The current entry's label rank.
  package private(set) var rank: UInt32 = 0
  /// The config index of the source whose label the current entry carries.
  package private(set) var source: Int32 = 0
  /// The current entry's label, valid until the next ``advance()``.
  package private(set) var label = UnsafeRawBufferPointer(start: nil, count: 0)

  init(path: String) throws(CompileError) {
    reader = try SpillByteReader(path: path, bufferBytes: 1 << 18)
    try advance()
  }

  /// Moves to the next entry.
  package func advance() throws(CompileError) {
    guard try !reader.isAtEnd() else {
      number = nil
      return
    }
    number = (number ?? 0) &+ Int64(bitPattern: try reader.varint())
    rank = UInt32(truncatingIfNeeded: try reader.varint())
    source = Int32(truncatingIfNeeded: try reader.signed())
    // Read last: the bytes stay valid until the next read.
    label = try reader.lengthPrefixed()
  }
}

/// Some labels of a spilled dictionary, streamed to a blob writer
/// (``LabelStream``): those whose ranks are `members`, in rank order.
package struct SpilledLabels: LabelStream {
  let path: String
  let members: RankSet

  package var labelCount: Int { members.count }

  package func forEachLabel(_ body: (UnsafeRawBufferPointer) throws(BlobError) -> Void) throws(BlobError) {
    let reader: SpillByteReader
    do {
      reader = try SpillByteReader(path: path, bufferBytes: 1 << 18)
    } catch {
      throw Self.blobError(error)
    }
    var rank: UInt32 = 0
    while Int(rank) < members.capacity {
      let label: UnsafeRawBufferPointer
      do {
        label = try reader.lengthPrefixed()
      } catch {
        throw Self.blobError(error)
      }
      if members.contains(rank) { try body(label) }
      rank += 1
    }
  }

  /// A spill file that cannot be read is an I/O error of the blob.
  private static func blobError(_ error: CompileError) -> BlobError {
    if case .spill(let failure) = error { return .io(failure) }
    return .misuse("the spilled label dictionary could not be read: \(error)")
  }
}
