import CallDirectoryFormat

/// Validates a blob: first the format's own full check
/// (``BlobReader/verify(recomputingDigest:)``: checksums, structure, order,
/// range, labels), then one streaming pass over every number section that
/// checks each list as CallKit would and each label an entry uses.
///
/// Memory stays constant: 4096-entry batches, a 64 KiB label buffer, and at
/// most ``_LabelIssues/capacity`` remembered problem labels.
struct _BlobValidator {
  let reader: BlobReader
  let input: any _RandomAccessInput
  let path: String
  let options: ValidationOptions
  let log: _ViolationLog

  static let batch = 4096

  func run() throws(ValidationError) -> [ListCount] {
    let header = reader.header
    _ = try blob { try reader.verify(recomputingDigest: options.recomputesDigest) }
    let hasLabeledEntries = header.sections.contains { $0.section.carriesLabels && $0.entryCount > 0 }
    let labels = hasLabeledEntries ? try scanLabels() : _LabelIssues()

    let numbers = UnsafeMutableBufferPointer<Int64>.allocate(capacity: Self.batch)
    let labelIDs = UnsafeMutableBufferPointer<UInt32>.allocate(capacity: Self.batch)
    defer {
      numbers.deallocate()
      labelIDs.deallocate()
    }
    var lists: [ListCount] = []
    for section in header.kind.sectionOrder where section.isNumberSection {
      var checker = _ListChecker(list: section)
      var index: UInt64 = 0
      if section.carriesLabels {
        let iterator = try blob { try reader.entries(section) }
        while true {
          let got = try blob { try iterator.next(numbers: numbers, labelIDs: labelIDs) }
          if got == 0 { break }
          for position in 0..<got {
            index += 1
            let number = numbers[position]
            check(number, index: index, section: section, checker: &checker)
            if !labels.isClean {
              try checkLabel(labelIDs[position], of: number, index: index, section: section, labels: labels)
            }
          }
        }
      } else {
        let iterator = try blob { try reader.numbers(section) }
        while true {
          let got = try blob { try iterator.next(into: numbers) }
          if got == 0 { break }
          for position in 0..<got {
            index += 1
            check(numbers[position], index: index, section: section, checker: &checker)
          }
        }
      }
      lists.append(ListCount(list: section, entries: index))
    }
    return lists
  }

  // MARK: Entries

  private func check(_ number: Int64, index: UInt64, section: BlobSection, checker: inout _ListChecker) {
    guard number >= 1, number <= _NumberField.maxNumber else {
      log.record(.outOfRange, at: .entry(section: section, index: index), list: section, number: number) {
        "out of range: \(number) is not in 1...\(_NumberField.maxNumber)"
      }
      return
    }
    // Digit counts are irrelevant here: a blob cannot be sorted as text.
    let outcome = checker.accept(number, digits: 0)
    if case .ascending = outcome { return }
    log.record(outcome, number: number, list: section, at: .entry(section: section, index: index))
  }

  private func checkLabel(
    _ id: UInt32, of number: Int64, index: UInt64, section: BlobSection, labels: _LabelIssues
  ) throws(ValidationError) {
    let issue: _LabelIssue?
    if UInt64(id) < labels.scannedCount {
      issue = labels.issues[id]
    } else {
      var text = try blob { try reader.label(id) }
      issue = text.withUTF8 { _LabelCheck.inspect($0, controls: options.reportsControlCharacters) }
    }
    guard let issue else { return }
    log.record(issue.kind, at: .entry(section: section, index: index), list: section, number: number) {
      issue.message(number: number)
    }
  }

  // MARK: Labels

  /// Reads the label section front to back and keeps the ids of labels
  /// that are empty, not UTF-8 or (if enabled) hold control characters.
  private func scanLabels() throws(ValidationError) -> _LabelIssues {
    var result = _LabelIssues()
    guard let info = reader.header.info(.labels), info.entryCount > 0 else { return result }
    let count = info.entryCount
    result.labelCount = count
    let (tableLength, overflow) = (count &+ 1).multipliedReportingOverflow(by: 4)
    guard !overflow, count < UInt64(UInt32.max), tableLength <= info.length else {
      throw .invalidBlob(path: path, .corrupt("label table does not fit its section"))
    }
    var table = _SequentialRange(input: input, offset: info.offset, length: tableLength, path: path)
    var text = _SequentialRange(
      input: input, offset: info.offset + tableLength, length: info.length - tableLength, path: path)
    var start = try table.readUInt32()
    var id: UInt64 = 0
    while id < count {
      let end = try table.readUInt32()
      guard end >= start, end - start <= UInt32(BlobLimits.maxLabelBytes) else {
        throw .invalidBlob(path: path, .corrupt("label \(id) has invalid offsets \(start)..<\(end)"))
      }
      let controls = options.reportsControlCharacters
      let issue = try text.read(Int(end - start)) { _LabelCheck.inspect($0, controls: controls) }
      if let issue {
        guard result.issues.count < _LabelIssues.capacity else {
          result.scannedCount = id
          return result
        }
        result.issues[UInt32(id)] = issue
      }
      start = end
      id += 1
    }
    result.scannedCount = count
    return result
  }

  private func blob<T>(_ body: () throws -> T) throws(ValidationError) -> T {
    do {
      return try body()
    } catch let error as BlobError {
      throw .invalidBlob(path: path, error)
    } catch let error as ValidationError {
      throw error
    } catch {
      throw .unexpected(String(describing: error))
    }
  }
}

/// The labels of a blob that have a problem, by id.
struct _LabelIssues {
  /// The most problem labels remembered; labels past the first
  /// `capacity` problems are checked on demand through the reader.
  static let capacity = 65_536
  var issues: [UInt32: _LabelIssue] = [:]
  /// Ids below this were scanned; ``issues`` is complete for them.
  var scannedCount: UInt64 = 0
  /// The number of labels in the dictionary.
  var labelCount: UInt64 = 0

  /// Whether every label was scanned and none has a problem.
  var isClean: Bool { issues.isEmpty && scannedCount >= labelCount }

  init() {}
}

/// Reads a byte range of a random-access input front to back through a
/// 64 KiB buffer.
struct _SequentialRange {
  static let chunk = 65_536
  private let input: any _RandomAccessInput
  private let path: String
  private var offset: UInt64
  private var remaining: UInt64
  private var buffer = [UInt8](repeating: 0, count: _SequentialRange.chunk)
  private var position = 0
  private var filled = 0

  init(input: any _RandomAccessInput, offset: UInt64, length: UInt64, path: String) {
    self.input = input
    self.offset = offset
    self.remaining = length
    self.path = path
  }

  /// Passes the next `count` (at most ``chunk``) bytes to `body`.
  mutating func read<T>(
    _ count: Int, _ body: (UnsafeBufferPointer<UInt8>) -> T
  ) throws(ValidationError) -> T {
    guard count <= Self.chunk, UInt64(count) <= remaining + UInt64(filled - position) else {
      throw .invalidBlob(path: path, .truncated(section: .labels))
    }
    if filled - position < count {
      let kept = filled - position
      let from = position
      buffer.withUnsafeMutableBytes { raw in
        if kept > 0, let base = raw.baseAddress { base.copyMemory(from: base + from, byteCount: kept) }
      }
      position = 0
      filled = kept
      let want = Int(min(UInt64(Self.chunk - kept), remaining))
      let got: Int
      do {
        let (input, offset) = (input, offset)
        got = try buffer.withUnsafeMutableBytes { raw in
          try input.read(at: offset, into: UnsafeMutableRawBufferPointer(rebasing: raw[kept..<(kept + want)]))
        }
      } catch let error as ValidationError {
        throw error
      } catch {
        throw .unexpected(String(describing: error))
      }
      guard got == want else { throw .invalidBlob(path: path, .truncated(section: .labels)) }
      filled += got
      offset += UInt64(got)
      remaining -= UInt64(got)
    }
    let at = position
    position += count
    return buffer.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[at..<(at + count)])) }
  }

  /// The next little-endian `UInt32`.
  mutating func readUInt32() throws(ValidationError) -> UInt32 {
    try read(4) { bytes in
      bytes.reversed().reduce(UInt32(0)) { ($0 << 8) | UInt32($1) }
    }
  }
}
