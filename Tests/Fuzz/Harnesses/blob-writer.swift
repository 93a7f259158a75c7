import CallDirectoryFormat

/// Fuzzes the blob writer's bulk path (the block scan, the Elias–Fano
/// encoder and the content digest's gap stream, with AVX-512 where the CPU
/// has it) against its one-number-at-a-time path: both must write the
/// same bytes, whose header's digest is the one `Snapshot` computes, and
/// the blob must read back (and verify) as the numbers written. A
/// difference traps: it is a finding.
///
/// Input: byte 0 picks how many numbers each bulk append takes, the rest
/// are gaps between ascending numbers (`BlobWriterInput`).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  var input = FuzzInput(data, size)
  let decoded = BlobWriterInput(&input)
  let numbers = decoded.numbers
  let chunk = decoded.chunk

  let bulk = MemoryBlobSink()
  let single = MemoryBlobSink()
  do {
    let bulkWriter = try FullSnapshotWriter(sink: bulk, version: 1)
    var start = 0
    while start < numbers.count {
      let end = min(numbers.count, start + chunk)
      try numbers[start..<end].withUnsafeBufferPointer { try bulkWriter.appendBlocking(contentsOf: $0) }
      start = end
    }
    let bulkHeader = try bulkWriter.finish()
    let singleWriter = try FullSnapshotWriter(sink: single, version: 1)
    for number in numbers { try singleWriter.appendBlocking(number) }
    _ = try singleWriter.finish()
    fuzzCheck(bulk.bytes == single.bytes, "bulk and one-by-one blobs differ for \(numbers.count) numbers in chunks of \(chunk)")
    let expected = try Snapshot(version: 1, blocking: numbers, identification: []).contentDigest()
    fuzzCheck(bulkHeader.contentDigest == expected, "the header's digest is not the snapshot's for \(numbers.count) numbers")
    let reader = try BlobReader(bytes: bulk.bytes)
    _ = try reader.verify()
    let read = try reader.readSnapshot()
    fuzzCheck(read.blocking == numbers, "the blob reads back other numbers than \(numbers.count) written")
  } catch {
    fuzzCheck(false, "writing or reading \(numbers.count) ascending numbers failed: \(error)")
  }
  return 0
}
