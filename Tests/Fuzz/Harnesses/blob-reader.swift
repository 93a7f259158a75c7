import CallDirectoryFormat

/// Fuzzes `BlobReader` and `BlobLookup` on a blob in memory: the header,
/// then one of `verify()`; every number section read one entry at a time,
/// in batches, chunk by chunk and as stretches (all must agree); lookups of numbers
/// the blob holds, their neighbours and numbers taken from the input; or
/// the labels and whole-blob reads.
///
/// Input: byte 0 holds the options (`BlobReaderOptions`: bit 0 reseals the
/// checksums, see `BlobResealing`; bit 1 recomputes the content digest in
/// `verify()`; bits 2–3 pick one of the four reads), the rest is the blob. One read per
/// input keeps the section cursors, each with its 256 KiB frame buffer,
/// few enough to fuzz fast.
///
/// Runs are valid however long (`1######…` is one run), so anything that
/// expands them (the digest, `next()`, whole-blob reads) runs only on blobs
/// recording at most `BlobReadingLimits.entryLimit` entries; the rest is
/// bounded by the input's size.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  var input = FuzzInput(data, size)
  let options = BlobReaderOptions(&input)
  var blob = input.rest
  if options.reseals { BlobResealing.reseal(&blob) }
  _ = try? BlobReader.readHeader(bytes: blob)
  guard let reader = try? BlobReader(bytes: blob) else { return 0 }
  let sections = reader.header.sections.map(\.section).filter(\.isNumberSection)
  let entries = reader.header.sections.reduce(UInt64(0)) { $0 &+ $1.entryCount }
  let expandable = entries <= BlobReadingLimits.entryLimit

  switch options.read {
  case .verify:
    _ = try? reader.verify(recomputingDigest: options.recomputesDigest && expandable)
  case .sections:
    for section in sections {
      let found = SectionReading.check(reader, section, expandingRuns: expandable)
      StretchReading.check(reader, section, cutsNear: found)
    }
  case .lookups:
    let found = sections.flatMap { SectionReading.check(reader, $0, expandingRuns: false) }
    LookupProbing.probe(BlobLookup(reader: reader), sections: sections, near: found, input: blob)
  case .labelsAndWholeBlob:
    try? reader.forEachLabel { _, _ in true }
    if expandable {
      _ = try? reader.readSnapshot()
      _ = try? reader.readDelta()
    }
  }
  return 0
}
