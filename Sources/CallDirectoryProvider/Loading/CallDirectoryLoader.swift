import CallDirectoryFormat
import CalldirSystem

/// The device side of calldir: serves one Call Directory request from the
/// blobs in the app-group container, in constant memory.
///
/// Use it from the extension's `beginRequest(with:)`, synchronously (the
/// whole handler, with sharding and autorelease pools, is
/// `Examples/CallDirectoryExtension/CallDirectoryHandler.swift`):
///
///     final class CallDirectoryHandler: CXCallDirectoryProvider {
///       override func beginRequest(with context: CXCallDirectoryExtensionContext) {
///         guard let container = FileManager.default
///           .containerURL(forSecurityApplicationGroupIdentifier: "group.example") else {
///           context.cancelRequest(withError: CocoaError(.fileNoSuchFile))
///           return
///         }
///         CallDirectoryLoader(
///           layout: ProviderLayout(containerPath: container.path),
///           batchScope: { batch in autoreleasepool(invoking: batch) }
///         ).serve(context)
///       }
///     }
///
/// One request, in order:
/// 1. reads `isIncremental` (first, so that a `true` confirms incremental
///    loading);
/// 2. reads the provider state (see ``ProviderStateStore/loadForPlanning()``)
///    and every blob's header, and plans with ``LoadPlanner`` — when nothing
///    fits, or the state cannot be read, it cancels the request without a
///    single add or remove;
/// 3. streams the chosen blob (see ``stream(_:into:)``); a corrupt or
///    truncated frame, or a full snapshot whose entries miss the header's
///    content digest, cancels the request, so the system drops everything;
/// 4. records the target as pending in the state file, calls
///    `completeRequest`, and when the completion reports `expired == false`
///    records the target as loaded (on `true`, the previous state).
///
/// Memory does not depend on the dataset: numbers are read a batch at a
/// time with the format's bulk iterators, labels are looked up by id through
/// the reader's small cache, and nothing is collected.
public final class CallDirectoryLoader {
  /// Tuning knobs; the defaults suit an iOS extension.
  public struct Options: Hashable, Sendable {
    /// Numbers decoded per bulk read (default 4096: 32 KiB of `Int64`).
    public var batchSize: Int
    /// Whether a full snapshot's content digest is recomputed while
    /// streaming and checked before `completeRequest` (default `true`).
    public var verifiesContentDigest: Bool
    /// Whether a request may replace the held snapshot with an older
    /// version (default `false`: such a request is cancelled with
    /// ``CallDirectoryProviderError/downgrade(held:offered:)``).
    public var allowsDowngrade: Bool

    /// Creates options.
    public init(batchSize: Int = 4096, verifiesContentDigest: Bool = true, allowsDowngrade: Bool = false) {
      self.batchSize = max(1, batchSize)
      self.verifiesContentDigest = verifiesContentDigest
      self.allowsDowngrade = allowsDowngrade
    }
  }

  /// Runs one batch of entry calls: the decoding of at most
  /// ``Options/batchSize`` entries and their `add…`/`remove…` calls.
  ///
  /// The loader passes each batch to the scope and carries on when the scope
  /// returns; the scope must run `batch` exactly once, synchronously. On iOS,
  /// drain an autorelease pool per batch, so that whatever CallKit
  /// autoreleases while it takes the entries is freed batch by batch instead
  /// of piling up until the request ends (this module has no Foundation, so
  /// it cannot do it itself):
  ///
  ///     CallDirectoryLoader(layout: layout, batchScope: { batch in autoreleasepool(invoking: batch) })
  public typealias BatchScope = (_ batch: () -> Void) -> Void

  private enum Source {
    case paths([String])
    case directory(String)
  }

  private let source: Source
  /// The provider state file.
  public let stateStore: ProviderStateStore
  /// The options.
  public let options: Options
  /// The scope each batch of entry calls runs in (`nil`: none).
  private let batchScope: BatchScope?

  /// A loader over the blobs in `layout.dataDirectory`.
  ///
  /// - Parameters:
  ///   - layout: Where the blobs and the provider state are.
  ///   - options: Tuning knobs.
  ///   - batchScope: What each batch of entry calls runs in (see
  ///     ``BatchScope``); `nil` runs them as they are.
  public init(layout: ProviderLayout, options: Options = Options(), batchScope: BatchScope? = nil) {
    self.source = .directory(layout.dataDirectory)
    self.stateStore = ProviderStateStore(path: layout.statePath)
    self.options = options
    self.batchScope = batchScope
  }

  /// A loader over an explicit list of blobs.
  public init(blobPaths: [String], statePath: String, options: Options = Options(), batchScope: BatchScope? = nil) {
    self.source = .paths(blobPaths)
    self.stateStore = ProviderStateStore(path: statePath)
    self.options = options
    self.batchScope = batchScope
  }

  // MARK: - Planning

  /// Reads the header of every available blob.
  ///
  /// - Returns: The readable blobs and, for the others, why they were skipped.
  /// - Throws: ``CallDirectoryProviderError/dataDirectoryUnreadable(path:reason:)``.
  public func candidates() throws(CallDirectoryProviderError) -> (
    readable: [BlobCandidate], skipped: [CallDirectoryProviderError]
  ) {
    let paths: [String]
    switch source {
    case .paths(let list):
      paths = list
    case .directory(let directory):
      do {
        paths = try _DataDirectory.blobPaths(in: directory)
      } catch {
        throw .dataDirectoryUnreadable(path: directory, reason: error.description)
      }
    }
    var readable: [BlobCandidate] = []
    var skipped: [CallDirectoryProviderError] = []
    for path in paths {
      do {
        readable.append(try BlobCandidate(path: path))
      } catch {
        skipped.append(error)
      }
    }
    return (readable, skipped)
  }

  /// Plans a request from the state file and the available blobs.
  ///
  /// A state file that is not a valid state counts as "loaded snapshot
  /// unknown", so an incremental request then resets and loads a full
  /// snapshot (see ``ProviderStateStore/loadForPlanning()``).
  ///
  /// - Parameter isIncremental: What the context's `isIncremental` returned.
  /// - Throws: ``CallDirectoryProviderError``.
  public func plan(isIncremental: Bool) throws(CallDirectoryProviderError) -> LoadPlan {
    try plan(isIncremental: isIncremental, state: try stateStore.loadForPlanning())
  }

  private func plan(isIncremental: Bool, state: ProviderState) throws(CallDirectoryProviderError) -> LoadPlan {
    let found = try candidates()
    return try LoadPlanner.plan(
      isIncremental: isIncremental, state: state, candidates: found.readable, skipped: found.skipped,
      allowsDowngrade: options.allowsDowngrade)
  }

  // MARK: - Streaming

  /// Streams a plan's entry calls into `sink`, without ending the request.
  ///
  /// - ``LoadStrategy/complete``: every blocking number ascending, then every
  ///   identification entry ascending with its label.
  /// - ``LoadStrategy/replace``: `removeAllBlockingEntries()`,
  ///   `removeAllIdentificationEntries()`, then as `complete`.
  /// - ``LoadStrategy/delta``: blocking removes, identification removes,
  ///   blocking adds, identification adds, each ascending.
  /// - ``LoadStrategy/upToDate``: nothing.
  ///
  /// The blob's header is checked against the planned one before the first
  /// call. Each frame's checksum is verified by the reader before any of its
  /// numbers is passed on.
  ///
  /// - Returns: The calls made.
  /// - Throws: ``CallDirectoryProviderError/corruptBlob(path:_:)``,
  ///   ``CallDirectoryProviderError/digestMismatch(path:expected:actual:)``,
  ///   ``CallDirectoryProviderError/blobChanged(path:)`` or
  ///   ``CallDirectoryProviderError/unreadableBlob(path:_:)``; calls made
  ///   before the error stay made, so the caller must cancel the request.
  @discardableResult
  public func stream(_ plan: LoadPlan, into sink: some CallDirectoryEntrySink) throws(CallDirectoryProviderError)
    -> EntryCallCounts
  {
    var counts = EntryCallCounts()
    guard let blob = plan.blob, plan.strategy != .upToDate else { return counts }
    let reader: BlobReader
    do {
      reader = try BlobReader(path: blob.path)
    } catch {
      throw .reading(blob.path, error, otherwise: CallDirectoryProviderError.unreadableBlob)
    }
    guard reader.header == blob.header else { throw .blobChanged(path: blob.path) }
    let streamer = _EntryStreamer(reader: reader, sink: sink, batchSize: options.batchSize, batchScope: batchScope)
    do {
      switch plan.strategy {
      case .complete, .replace:
        if plan.strategy == .replace {
          sink.removeAllBlockingEntries()
          sink.removeAllIdentificationEntries()
          counts.removedAll = true
        }
        var digest = options.verifiesContentDigest ? ContentDigestBuilder() : nil
        counts.blockingAdds = try streamer.numbers(reader.blocking(), digest: &digest) {
          sink.addBlockingEntry(withNextSequentialPhoneNumber: $0)
        }
        counts.identificationAdds = try streamer.identification(reader.identification(), digest: &digest)
        if let digest {
          let actual = digest.finalize()
          guard actual == blob.header.contentDigest else {
            throw CallDirectoryProviderError.digestMismatch(
              path: blob.path, expected: blob.header.contentDigest, actual: actual)
          }
        }
      case .delta:
        var none: ContentDigestBuilder?
        counts.blockingRemoves = try streamer.numbers(reader.blockingRemoves(), digest: &none) {
          sink.removeBlockingEntry(withPhoneNumber: $0)
        }
        counts.identificationRemoves = try streamer.numbers(reader.identificationRemoves(), digest: &none) {
          sink.removeIdentificationEntry(withPhoneNumber: $0)
        }
        counts.blockingAdds = try streamer.numbers(reader.blockingAdds(), digest: &none) {
          sink.addBlockingEntry(withNextSequentialPhoneNumber: $0)
        }
        counts.identificationAdds = try streamer.identification(reader.identificationAdds(), digest: &none)
      case .upToDate:
        break
      }
    } catch let error as CallDirectoryProviderError {
      throw error
    } catch let error as BlobError {
      throw .reading(blob.path, error, otherwise: CallDirectoryProviderError.corruptBlob)
    } catch {
      throw .corruptBlob(path: blob.path, .corrupt(String(describing: error)))
    }
    return counts
  }

  // MARK: - Serving

  /// Serves one request on `context` and ends it (see the type's overview).
  ///
  /// Call it synchronously from `beginRequest(with:)`: the state file is
  /// written from the completion handler, which CallKitMock calls before
  /// `completeRequest` returns, so the extension process must not exit
  /// before this method returns.
  ///
  /// - Parameters:
  ///   - context: The request's context.
  ///   - completion: Called once with what happened, after the state file
  ///     was updated.
  public func serve(_ context: some CallDirectoryRequestContext, completion: ((LoadReport) -> Void)? = nil) {
    // Read first: before any add or remove, a `true` confirms incremental loading.
    let isIncremental = context.isIncremental
    var report = LoadReport(isIncremental: isIncremental, plan: nil, counts: EntryCallCounts(), outcome: .committed)
    func cancel(_ error: CallDirectoryProviderError) {
      report.outcome = .cancelled(error)
      context.cancelRequest(withError: error)
      completion?(report)
    }

    let previous: ProviderState
    let plan: LoadPlan
    do {
      previous = try stateStore.loadForPlanning()
      plan = try self.plan(isIncremental: isIncremental, state: previous)
    } catch {
      return cancel(error)
    }
    report.plan = plan
    do {
      report.counts = try stream(plan, into: context)
    } catch {
      return cancel(error)
    }
    let changesState = plan.strategy != .upToDate
    if changesState {
      do {
        try stateStore.save(ProviderState(loaded: previous.heldSnapshot, pending: plan.target))
      } catch {
        return cancel(error)
      }
    }
    let store = stateStore
    context.completeRequest { expired in
      report.outcome = expired ? .expired : .committed
      if changesState {
        do throws(CallDirectoryProviderError) {
          try store.save(expired ? previous : ProviderState(loaded: plan.target))
        } catch {
          report.stateError = error
        }
      }
      completion?(report)
    }
  }
}

@available(*, unavailable)
extension CallDirectoryLoader: Sendable {}

/// Moves numbers from the reader's bulk iterators into a sink, a batch at a
/// time, in fixed-size buffers; each batch runs in the loader's batch scope.
struct _EntryStreamer<Sink: CallDirectoryEntrySink> {
  let reader: BlobReader
  let sink: Sink
  let batchSize: Int
  let batchScope: CallDirectoryLoader.BatchScope?

  /// Runs one batch in the scope, passing its error on.
  private func inBatchScope(_ batch: () throws -> Void) throws {
    guard let batchScope else { return try batch() }
    var failure: (any Error)?
    batchScope {
      do {
        try batch()
      } catch {
        failure = error
      }
    }
    if let failure { throw failure }
  }

  /// Calls `body` for each number; adds them to `digest` as blocking numbers.
  func numbers(
    _ iterator: NumberIterator, digest: inout ContentDigestBuilder?, _ body: (Int64) -> Void
  ) throws -> UInt64 {
    let buffer = UnsafeMutableBufferPointer<Int64>.allocate(capacity: batchSize)
    defer { buffer.deallocate() }
    var total: UInt64 = 0
    while true {
      var count = 0
      try inBatchScope {
        count = try iterator.next(into: buffer)
        for index in 0..<count {
          let number = buffer[index]
          body(number)
          if digest != nil { try digest?.addBlocking(number) }
        }
      }
      if count == 0 { break }
      total += UInt64(count)
    }
    return total
  }

  /// Adds each identification entry with its resolved label to the sink.
  func identification(_ iterator: IdentificationIterator, digest: inout ContentDigestBuilder?) throws -> UInt64 {
    let numbers = UnsafeMutableBufferPointer<Int64>.allocate(capacity: batchSize)
    defer { numbers.deallocate() }
    let labels = UnsafeMutableBufferPointer<UInt32>.allocate(capacity: batchSize)
    defer { labels.deallocate() }
    var total: UInt64 = 0
    while true {
      var count = 0
      try inBatchScope {
        count = try iterator.next(numbers: numbers, labelIDs: labels)
        for index in 0..<count {
          let label = try reader.label(labels[index])
          sink.addIdentificationEntry(withNextSequentialPhoneNumber: numbers[index], label: label)
          if digest != nil { try digest?.addIdentification(numbers[index], label: label) }
        }
      }
      if count == 0 { break }
      total += UInt64(count)
    }
    return total
  }
}
