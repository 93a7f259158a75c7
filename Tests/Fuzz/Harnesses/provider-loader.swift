import CallDirectoryFormat
import CallDirectoryProvider

/// Fuzzes `CallDirectoryLoader.stream(_:into:)`: a full snapshot (loaded
/// complete or replacing) or a delta, read from a file, applied into a sink
/// that checks CallKit's rules on every call (`OrderCheckingSink`); when the
/// load succeeds, its counts must be the calls the sink saw.
///
/// Input: bytes 0 and 1 hold the options (`ProviderLoaderOptions`: reseal
/// the checksums, replace rather than complete a full snapshot, verify the
/// content digest; the batch size), the rest is the blob.
///
/// Every entry is one sink call, so blobs recording more than
/// `BlobReadingLimits.entryLimit` entries are only planned, not streamed.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  var input = FuzzInput(data, size)
  let options = ProviderLoaderOptions(&input)
  var blob = input.rest
  if options.reseals { BlobResealing.reseal(&blob) }
  let path = blob.withUnsafeBufferPointer { ScratchFile.write($0, named: "blob.cdir") }
  guard let candidate = try? BlobCandidate(path: path) else { return 0 }
  let entries = candidate.header.sections.reduce(UInt64(0)) { $0 &+ $1.entryCount }
  guard entries <= BlobReadingLimits.entryLimit else { return 0 }

  let strategy: LoadStrategy =
    switch candidate.header.kind {
    case .full: options.replaces ? .replace : .complete
    case .delta: .delta
    }
  let plan = LoadPlan(strategy: strategy, blob: candidate, target: candidate.target, held: candidate.base)
  let loader = CallDirectoryLoader(
    blobPaths: [path], statePath: "\(ScratchFile.directory)/state.json",
    options: .init(batchSize: options.batchSize, verifiesContentDigest: options.verifiesDigest))
  let sink = OrderCheckingSink(isIncremental: plan.isIncremental)
  guard let counts = try? loader.stream(plan, into: sink) else { return 0 }
  fuzzCheck(counts == sink.counts, "the loader reports \(counts), the sink saw \(sink.counts)")
  return 0
}
