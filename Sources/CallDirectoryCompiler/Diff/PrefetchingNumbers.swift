import CallDirectoryFormat
import CalldirSystem

/// Decodes a ``NumberPieceSource`` one batch ahead on another thread, so
/// a merge of two streams decodes them on two cores.
///
/// Built on an ``OrderedPipeline`` of one job: the job decodes the next
/// batch (up to ``batchCapacity`` numbers, runs kept as ranges) while the
/// consumer works through the previous one, which it took over by swapping
/// storage with the job. Only the job in flight touches the source, and
/// the pipeline hands it over with balanced semaphores: an error in either
/// stream ends the walk, the error travels with its batch in stream order,
/// and going away waits for the job in flight, so nothing is left running
/// or waiting (the crash this replaces disposed of a semaphore still below
/// its initial value).
final class PrefetchingNumbers: NumberPieceSource {
  /// The most numbers of buffers a batch holds; runs take no room.
  static let batchCapacity = 1 << 16

  private let pipeline: OrderedPipeline<PieceBatch>
  /// The batch the consumer reads.
  private let current = PieceBatch(source: nil)
  private var next = 0
  private var isRunning = false

  /// Starts decoding `source` in the background.
  init(_ source: any NumberPieceSource) {
    let batch = PieceBatch(source: source)
    pipeline = OrderedPipeline(window: 1, makeJob: { batch }, work: { $0.decode() })
    _ = pipeline.nextJob { (_: PieceBatch) in }
    pipeline.submit()
    isRunning = true
  }

  /// The next piece, in stream order; `nil` after the last one.
  /// - Throws: The source's error, where the stream broke.
  func nextPiece() throws(BlobError) -> NumberPiece? {
    while next == current.pieces.count {
      if let error = current.error { throw error }
      guard isRunning else { return nil }
      _ = pipeline.nextJob { (job: PieceBatch) in current.takeContents(of: job) }
      next = 0
      if current.error == nil && !current.reachedEnd {
        pipeline.submit()
      } else {
        isRunning = false
      }
    }
    let piece = current.pieces[next]
    next += 1
    switch piece {
    case .run(let range, let label):
      return .run(range, label: label)
    case .values(let start, let count):
      return .values(
        numbers: UnsafeBufferPointer(start: current.numbers + start, count: count),
        labels: current.hasLabels ? UnsafeBufferPointer(start: current.labels + start, count: count) : nil)
    }
  }
}

/// One batch of decoded pieces, with the storage their buffers point into.
///
/// `@unchecked Sendable`: the pipeline runs at most one ``decode()`` at a
/// time and orders it before and after every ``takeContents(of:)``.
final class PieceBatch: @unchecked Sendable {
  /// A piece as stored: a run, or `count` entries from `start` of the
  /// batch's storage.
  enum StoredPiece {
    case run(ClosedRange<Int64>, label: UInt32)
    case values(start: Int, count: Int)
  }

  private let source: (any NumberPieceSource)?
  private(set) var pieces: [StoredPiece] = []
  private(set) var numbers: UnsafeMutablePointer<Int64>
  private(set) var labels: UnsafeMutablePointer<UInt32>
  private(set) var hasLabels = false
  private(set) var error: BlobError?
  private(set) var reachedEnd = false

  init(source: (any NumberPieceSource)?) {
    self.source = source
    numbers = .allocate(capacity: PrefetchingNumbers.batchCapacity)
    labels = .allocate(capacity: PrefetchingNumbers.batchCapacity)
  }

  deinit {
    numbers.deallocate()
    labels.deallocate()
  }

  /// Decodes pieces until the storage is nearly full, the source ends or fails.
  func decode() {
    pieces.removeAll(keepingCapacity: true)
    guard let source else { return }
    var filled = 0
    do throws(BlobError) {
      while filled + NumberIterator.chunkCapacity <= PrefetchingNumbers.batchCapacity, pieces.count < 4096 {
        switch try source.nextPiece() {
        case .run(let range, let label)?:
          pieces.append(.run(range, label: label))
        case .values(let values, let ids)?:
          guard let base = values.baseAddress else { continue }
          guard values.count <= PrefetchingNumbers.batchCapacity - filled else {
            throw BlobError.misuse("a piece of \(values.count) numbers exceeds the prefetch batch")
          }
          (numbers + filled).update(from: base, count: values.count)
          if let ids, let idBase = ids.baseAddress {
            (labels + filled).update(from: idBase, count: values.count)
            hasLabels = true
          }
          pieces.append(.values(start: filled, count: values.count))
          filled += values.count
        case nil:
          reachedEnd = true
          return
        }
      }
    } catch {
      self.error = error
    }
  }

  /// Takes over `other`'s pieces and storage, giving it this batch's
  /// storage to decode into next.
  func takeContents(of other: PieceBatch) {
    swap(&pieces, &other.pieces)
    swap(&numbers, &other.numbers)
    swap(&labels, &other.labels)
    hasLabels = other.hasLabels
    error = other.error
    reachedEnd = other.reachedEnd
  }
}
