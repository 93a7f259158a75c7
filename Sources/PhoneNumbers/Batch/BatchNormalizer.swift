import CalldirHost
import CalldirSystem

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// `calldir normalize` over a stream: reads it in large chunks, normalizes
/// whole lines with the byte API on every core, and hands the results on
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
/// Memory stays bounded whatever the input: a line longer than a chunk
/// (``chunkSize``) is answered from its first chunk, cut back to a whole
/// character, and the rest of it is read past, not kept. Its answer is
/// what the whole line's would be (`INVALID<TAB>too long`: libphonenumber
/// parses at most 250 characters), but its JSON `input` is that first part.
public struct BatchNormalizer {
  public let normalizer: PhoneNumberNormalizer
  public let region: RegionMetadata?
  public let json: Bool
  /// Bytes read per batch (at least 4 KiB), and the longest line held whole.
  public var chunkSize = 4 << 20
  /// Threads per batch, at most 8 (``Parallel/coreCount``, which
  /// `CALLDIR_THREADS` overrides).
  public var threadCount = min(8, Parallel.coreCount)
  /// Whether numbers must also be valid (`normalize --valid`).
  public var requireValid = false
  /// Whether each number's national format is given too (`normalize --national`).
  public var national = false

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

  /// Normalizes every line of `input`, handing each batch's output to
  /// `write`, which returns false to stop (a closed pipe).
  /// - Throws: the ``FileError`` of a failed read.
  public func run(input: FileDescriptor, name: String = "standard input", write: (UnsafeRawBufferPointer) -> Bool) throws(FileError) {
    // 4 KiB hold more than the 250 characters libphonenumber parses.
    let capacity = max(chunkSize, 1 << 12)
    let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
    defer { buffer.deallocate() }
    let outputs = (0..<max(1, threadCount)).map { _ in _ByteBuffer() }
    // One per thread, kept from block to block: what each learned of the
    // list's shapes serves the next block too.
    let readers = outputs.map { _ in FormattedNumberReader(normalizer, region: region) }
    let formatters = outputs.map { _ in national ? NationalFormatter(plan: normalizer.plan) : nil }
    var filled = 0
    var atEnd = false
    var writable = true
    // Inside a line longer than the buffer, already answered: read past it.
    var skippingLine = false
    // Whether lines end in CR alone, decided on the stream's first bytes.
    var endsLinesWithCarriageReturns: Bool? = nil
    while !atEnd && writable {
      // Fill the buffer while input is at hand; when a pipe or terminal has
      // nothing more right now, go on with the lines read so far rather than
      // wait for a whole chunk.
      while filled < capacity {
        let count: Int
        do {
          count = try input.read(into: UnsafeMutableRawBufferPointer(start: buffer + filled, count: capacity - filled))
        } catch {
          throw FileError(operation: "read", path: name, errno: error)
        }
        if count == 0 {
          atEnd = true
          break
        }
        if endsLinesWithCarriageReturns == true {
          LineEndings.replaceCarriageReturns(UnsafeMutableBufferPointer(start: buffer + filled, count: count))
        }
        filled += count
        if endsLinesWithCarriageReturns == nil, filled >= LineEndings.sampleBytes || filled == capacity {
          endsLinesWithCarriageReturns = decideLineEndings(buffer, filled)
        }
        if filled < capacity && !input.hasInputReady && memchr(buffer, 0x0A, filled) != nil { break }
      }
      if endsLinesWithCarriageReturns == nil { endsLinesWithCarriageReturns = decideLineEndings(buffer, filled) }
      if skippingLine {
        guard let newline = memchr(buffer, 0x0A, filled) else {
          filled = 0
          continue
        }
        let next = UnsafeMutableRawPointer(newline).assumingMemoryBound(to: UInt8.self) + 1 - buffer
        filled -= next
        buffer.update(from: buffer + next, count: filled)
        skippingLine = false
      }
      // Whole lines only, except for an unterminated last line.
      var end = filled
      if !atEnd {
        while end > 0 && buffer[end - 1] != 0x0A { end -= 1 }
        if end == 0 {
          // Part of a line: read on, unless it fills the buffer.
          guard filled == capacity else { continue }
          end = Self.characterBoundary(before: filled, in: buffer)
          skippingLine = true
        }
      }
      process(UnsafeBufferPointer(start: buffer, count: end), outputs: outputs, readers: readers, formatters: formatters)
      for part in outputs where part.count > 0 {
        if writable { writable = write(UnsafeRawBufferPointer(start: part.base, count: part.count)) }
        part.count = 0
      }
      let rest = skippingLine ? 0 : filled - end
      if rest > 0 { buffer.update(from: buffer + end, count: rest) }
      filled = rest
    }
  }

  /// Whether the stream whose first `count` bytes are at `buffer` ends its
  /// lines in CR alone; if so, its CRs there become LFs.
  private func decideLineEndings(_ buffer: UnsafeMutablePointer<UInt8>, _ count: Int) -> Bool {
    let sample = UnsafeBufferPointer(start: buffer, count: min(count, LineEndings.sampleBytes))
    guard LineEndings.endInCarriageReturnsAlone(sample) else { return false }
    LineEndings.replaceCarriageReturns(UnsafeMutableBufferPointer(start: buffer, count: count))
    return true
  }

  /// The start of the character that `count` bytes at `bytes` end in,
  /// when it may be cut short, else `count`: the first part of an
  /// overlong line ends on a whole character.
  private static func characterBoundary(before count: Int, in bytes: UnsafePointer<UInt8>) -> Int {
    var start = count
    // Up to three continuation bytes, then their lead byte.
    while start > 0 && count - start < 3 && bytes[start - 1] & 0xC0 == 0x80 { start -= 1 }
    if start > 0 && bytes[start - 1] >= 0xC0 { return start - 1 }
    return start
  }

  /// Normalizes the lines of `block` (whole lines; at the end of the input
  /// the last may lack its LF) into `outputs`, one part per thread.
  private func process(
    _ block: UnsafeBufferPointer<UInt8>, outputs: [_ByteBuffer], readers: [FormattedNumberReader],
    formatters: [NationalFormatter?]
  ) {
    guard let base = block.baseAddress, block.count > 0 else { return }
    // Small batches are not worth a thread.
    let parts = block.count < 1 << 16 ? 1 : outputs.count
    var bounds = [0]
    for part in 1..<max(parts, 1) {
      var cut = max(block.count * part / parts, bounds[bounds.count - 1])
      while cut < block.count && base[cut - 1] != 0x0A { cut += 1 }
      bounds.append(cut)
    }
    bounds.append(block.count)
    let jobs = (0..<parts).map { part in
      _NormalizeJob(
        lines: UnsafeBufferPointer(start: base + bounds[part], count: bounds[part + 1] - bounds[part]),
        output: outputs[part], reader: readers[part], normalizer: normalizer, region: region, json: json,
        requireValid: requireValid, formatter: formatters[part])
    }
    Parallel.forEach(parts: parts) { part in jobs[part].run() }
  }
}
