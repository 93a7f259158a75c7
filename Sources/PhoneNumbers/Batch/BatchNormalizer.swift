import CalldirHost
import CalldirSystem

/// `calldir normalize` over a stream: reads it in blocks of whole lines,
/// normalizes them with the byte API on every core, and hands the results on
/// strictly in input order, byte for byte what normalizing the lines one by
/// one prints (a number, or `INVALID<TAB>reason`; or one JSON object per
/// line, with libphonenumber's validity and number type). With
/// ``requireValid``, possible numbers that are not valid are rejected too
/// (`INVALID<TAB>invalid for region XX`). With ``national``, each
/// number's line also gives the digits of its national format
/// (``NationalFormatter``): after a tab, or as JSON's `national`.
///
/// Lines end at LF; a CR before it is dropped; a last line without LF still
/// counts. In a stream whose lines end in CR alone (``LineEndings``), each
/// CR ends a line. Each line's bytes are normalized as its UTF-8 text
/// (ill-formed sequences read as U+FFFD, as `String(decoding:as:)` does).
///
/// Memory stays bounded whatever the input: a line longer than
/// ``chunkSize`` is answered from its first ``chunkSize`` bytes, cut back
/// to a whole character, and the rest of it is read past, not kept. Its
/// answer is what the whole line's would be (`INVALID<TAB>too long`: libphonenumber
/// parses at most 250 characters), but its JSON `input` is that first part.
public struct BatchNormalizer {
  public let normalizer: PhoneNumberNormalizer
  public let region: RegionMetadata?
  public let json: Bool
  /// The longest line held whole (at least 4 KiB): a longer one is
  /// answered from its first part.
  public var chunkSize = 4 << 20
  /// Blocks normalized at once, at most 8 (``Parallel/coreCount``, which
  /// `CALLDIR_THREADS` overrides); twice as many are read ahead of the
  /// output.
  public var threadCount = min(8, Parallel.coreCount)
  /// Whether numbers must also be valid (`normalize --valid`).
  public var requireValid = false
  /// Whether each number's national format is given too (`normalize --national`).
  public var national = false

  /// The most bytes of whole lines a job normalizes at once.
  static let blockBytes = 1 << 18

  public init(
    normalizer: PhoneNumberNormalizer, region: RegionMetadata?, json: Bool, requireValid: Bool = false,
    national: Bool = false
  ) {
    self.normalizer = normalizer
    self.region = region
    self.json = json
    self.requireValid = requireValid
    self.national = national
  }

  /// Normalizes every line of `input`, handing each block's output to
  /// `write`, in input order; `write` returns false to stop (a closed pipe).
  ///
  /// This thread reads blocks of whole lines (``LineBlockReader``) while
  /// workers normalize the blocks before them (``OrderedPipeline``). When
  /// a pipe or terminal has nothing more ready, the lines at hand are
  /// answered before waiting for more.
  /// - Throws: the ``FileError`` of a failed read.
  public func run(input: FileDescriptor, name: String = "standard input", write: (UnsafeRawBufferPointer) -> Bool) throws(FileError) {
    // 4 KiB hold more than the 250 characters libphonenumber parses.
    let longestLine = max(chunkSize, 1 << 12)
    let blockBytes = min(longestLine, Self.blockBytes)
    let lines = LineBlockReader(
      try ChunkedInput(.descriptor(input, name: name), chunkSize: blockBytes), maxLineBytes: longestLine,
      tooLongLines: .truncate, minimumBytes: blockBytes, decidesLineEndings: true)
    let pipeline = OrderedPipeline(
      window: 2 * max(1, threadCount),
      makeJob: {
        _NormalizeJob(
          blockBytes: blockBytes, reader: FormattedNumberReader(normalizer, region: region), normalizer: normalizer,
          region: region, json: json, requireValid: requireValid,
          formatter: national ? NationalFormatter(plan: normalizer.plan) : nil)
      },
      work: { $0.run() })
    var writable = true
    func fold(_ job: _NormalizeJob) {
      if writable && job.output.count > 0 { writable = write(UnsafeRawBufferPointer(job.output.elements)) }
      job.reset()
    }
    do {
      while writable, let block = try lines.next() {
        pipeline.nextJob(fold: fold).load(block.bytes)
        pipeline.submit()
        if block.inputPaused { pipeline.finish(fold: fold) }
      }
    } catch {
      // What was read before the failure is answered.
      pipeline.finish(fold: fold)
      throw error
    }
    pipeline.finish(fold: fold)
  }
}
