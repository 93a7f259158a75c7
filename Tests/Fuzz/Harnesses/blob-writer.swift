import CallDirectoryFormat

/// Fuzzes the blob writer's bulk path (the block scan, the Elias–Fano
/// encoder and the content digest's gap stream, with AVX-512 where the CPU
/// has it) against its one-number-at-a-time path: both must write the
/// same bytes, whose header's digest is the one `Snapshot` computes, and
/// the blob must read back (and verify) as the numbers written. A
/// difference traps: it is a finding.
///
/// Input: byte 0 picks how many numbers each bulk append takes (1 to 256,
/// or all); then each byte is a gap to the next number: its top two bits
/// pick 1 (a run), its low six bits plus 2, the next two bytes plus 64, or
/// the next four bytes shifted left by the low five bits (far jumps); the
/// first number is the first gap; a gap of 1 is repeated up to 128 times
/// (the byte after it). At most 2^15 numbers, all below
/// `BlobLimits.maxNumber`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  var input = FuzzInput(data, size)
  let chunkChoice = Int(input.takeByte())
  var numbers: [Int64] = []
  var value: Int64 = 0
  while !input.remaining.isEmpty, numbers.count < 1 << 15 {
    let byte = input.takeByte()
    var gap: Int64
    switch byte >> 6 {
    case 0: gap = 1
    case 1: gap = Int64(byte & 63) + 2
    case 2: gap = input.take(2).reduce(Int64(0)) { $0 << 8 | Int64($1) } + 64
    default: gap = input.take(4).reduce(Int64(0)) { $0 << 8 | Int64($1) } << Int64(byte & 31) + 1
    }
    // Repeats of the same byte stretch a run or an even spacing.
    let repeats = byte >> 6 == 0 ? Int(input.takeByte() & 127) + 1 : 1
    for _ in 0..<repeats {
      guard value <= BlobLimits.maxNumber - gap else { break }
      value += gap
      numbers.append(value)
    }
    if value >= BlobLimits.maxNumber - 1 { break }
  }
  let chunk = chunkChoice == 0 ? max(1, numbers.count) : chunkChoice

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
