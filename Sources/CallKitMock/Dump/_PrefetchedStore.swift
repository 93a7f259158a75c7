import CalldirHost
import CalldirSystem

/// A run of entries decoded from a store.
enum _EntryChunk {
  case blocking([Int64])
  case identification([IdentificationEntry])
  /// The store has no more entries.
  case end
}

/// One store read a chunk ahead: while the caller works through a chunk,
/// the next one is decoded on a worker thread.
///
/// An ``OrderedPipeline`` of one job, the store's decoder: taking a chunk
/// waits for the job in flight, then starts it again, so the store is read
/// by one thread at a time and strictly in order.
final class _PrefetchedStore {
  private let pipeline: OrderedPipeline<_StoreChunkJob>

  /// Starts decoding the first chunk; a `nil` reader is an empty store.
  init(reader: _StoreReader?) {
    let job = _StoreChunkJob(reader: reader)
    pipeline = OrderedPipeline(window: 1, makeJob: { job }, work: { $0.run() })
    pipeline.submit()
  }

  /// The next chunk; ``_EntryChunk/end`` from the end on.
  func next() throws(_DeviceStorageError) -> _EntryChunk {
    var chunk = _EntryChunk.end
    _ = try pipeline.nextJob { (job: _StoreChunkJob) throws(_DeviceStorageError) in chunk = try job.take() }
    if case .end = chunk { return chunk }
    pipeline.submit()
    return chunk
  }
}

/// Decodes the next chunk of a store (on a pipeline worker).
///
/// `@unchecked Sendable`: it is touched by one thread at a time, handed to
/// the worker and back by the pipeline's semaphore.
final class _StoreChunkJob: @unchecked Sendable {
  static let chunkSize = 4096
  private let reader: _StoreReader?
  private var blockingFinished = false
  private var output = _EntryChunk.end
  private var failure: _DeviceStorageError?

  init(reader: _StoreReader?) {
    self.reader = reader
  }

  /// Decodes up to ``chunkSize`` entries: blocking numbers until they run
  /// out, then identification entries.
  func run() {
    guard let reader, failure == nil else {
      output = .end
      return
    }
    do throws(_DeviceStorageError) {
      if !blockingFinished {
        var numbers: [Int64] = []
        numbers.reserveCapacity(Self.chunkSize)
        while numbers.count < Self.chunkSize, let number = try reader.nextBlocking() { numbers.append(number) }
        if !numbers.isEmpty {
          output = .blocking(numbers)
          return
        }
        blockingFinished = true
      }
      var entries: [IdentificationEntry] = []
      while entries.count < Self.chunkSize, let entry = try reader.nextIdentification() {
        entries.append(IdentificationEntry(number: entry.number, label: String(decoding: entry.label, as: UTF8.self)))
      }
      output = entries.isEmpty ? .end : .identification(entries)
    } catch {
      failure = error
      output = .end
    }
  }

  /// The decoded chunk, or the decoding error.
  func take() throws(_DeviceStorageError) -> _EntryChunk {
    if let failure { throw failure }
    defer { output = .end }
    return output
  }
}
