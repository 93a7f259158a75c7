import CallDirectoryFormat

/// Validates a blob: first the format's own full check
/// (``BlobReader/verify(recomputingDigest:)``: checksums, structure, order,
/// range, labels), then one streaming pass over every number section that
/// checks each list as CallKit would and each label an entry uses.
///
/// Work is O(runs), not O(numbers): the iterators hand a run block over as
/// one range, checked in O(1). Memory stays constant: 4096-entry chunks, a
/// 64 KiB label buffer, and at most ``_LabelIssues/capacity`` remembered
/// problem labels.
struct _BlobValidator {
  let reader: BlobReader
  let path: String
  let options: ValidationOptions
  let log: _ViolationLog

  func run() throws(ValidationError) -> [ListCount] {
    let header = reader.header
    _ = try blob { () throws(BlobError) in try reader.verify(recomputingDigest: options.recomputesDigest) }
    let hasLabeledEntries = header.sections.contains { $0.section.carriesLabels && $0.entryCount > 0 }
    let labels = hasLabeledEntries ? try scanLabels() : _LabelIssues()

    var lists: [ListCount] = []
    for section in header.kind.sectionOrder where section.isNumberSection {
      var checker = _ListChecker(list: section)
      var index: UInt64 = 0  // entries checked so far
      if section.carriesLabels {
        let iterator = try blob { () throws(BlobError) in try reader.entries(section) }
        while let chunk = try blob({ () throws(BlobError) in try iterator.nextChunk() }) {
          switch chunk {
          case .run(let range, let id):
            check(run: range, after: index, section: section, checker: &checker)
            if !labels.isClean {
              try checkLabel(id, ofRun: range, after: index, section: section, labels: labels)
            }
            index += chunk.count
          case .entries(let numbers, let ids):
            for position in 0..<numbers.count {
              index += 1
              let number = numbers[position]
              check(number, index: index, section: section, checker: &checker)
              if !labels.isClean {
                try checkLabel(ids[position], ofRun: number...number, after: index - 1, section: section, labels: labels)
              }
            }
          }
        }
      } else {
        let iterator = try blob { () throws(BlobError) in try reader.numbers(section) }
        while let chunk = try blob({ () throws(BlobError) in try iterator.nextChunk() }) {
          switch chunk {
          case .run(let range):
            check(run: range, after: index, section: section, checker: &checker)
            index += chunk.count
          case .numbers(let numbers):
            for number in numbers {
              index += 1
              check(number, index: index, section: section, checker: &checker)
            }
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

  /// Checks a run of consecutive numbers, entries `index + 1 ...`, in
  /// O(1): its first number against the list so far and its range; the
  /// numbers inside it ascend by construction.
  private func check(run range: ClosedRange<Int64>, after index: UInt64, section: BlobSection, checker: inout _ListChecker) {
    check(range.lowerBound, index: index + 1, section: section, checker: &checker)
    guard range.upperBound > range.lowerBound else { return }
    check(range.upperBound, index: index + UInt64(range.upperBound - range.lowerBound) + 1, section: section, checker: &checker)
  }

  /// Checks the label of the entries of `range` (entries `index + 1 ...`):
  /// one label lookup for the whole run; a problem counts once per entry
  /// and is reported for as many entries as the report limit allows.
  private func checkLabel(
    _ id: UInt32, ofRun range: ClosedRange<Int64>, after index: UInt64, section: BlobSection,
    labels: _LabelIssues
  ) throws(ValidationError) {
    let issue: _LabelIssue?
    if UInt64(id) < labels.scannedCount {
      issue = labels.issues[id]
    } else {
      var text = try blob { () throws(BlobError) in try reader.label(id) }
      issue = text.withUTF8 { _LabelCheck.inspect($0, controls: options.reportsControlCharacters) }
    }
    guard let issue else { return }
    let entries = UInt64(range.upperBound - range.lowerBound) + 1
    let reported = min(entries, log.reportsLeft)
    var offset: UInt64 = 0
    while offset < reported {
      let number = range.lowerBound + Int64(offset)
      log.record(issue.kind, at: .entry(section: section, index: index + offset + 1), list: section, number: number) {
        issue.message(number: number)
      }
      offset += 1
    }
    log.count(issue.kind, times: entries - reported)
  }

  // MARK: Labels

  /// Reads the label section front to back and keeps the ids of labels
  /// that are empty, not UTF-8 or (if enabled) hold control characters.
  private func scanLabels() throws(ValidationError) -> _LabelIssues {
    var result = _LabelIssues()
    result.labelCount = UInt64(reader.labelCount)
    let controls = options.reportsControlCharacters
    var complete = true
    try blob { () throws(BlobError) in
      try reader.forEachLabel { id, utf8 in
        let issue = utf8.withMemoryRebound(to: UInt8.self) { _LabelCheck.inspect($0, controls: controls) }
        if let issue {
          guard result.issues.count < _LabelIssues.capacity else {
            result.scannedCount = UInt64(id)
            complete = false
            return false
          }
          result.issues[id] = issue
        }
        return true
      }
    }
    if complete { result.scannedCount = result.labelCount }
    return result
  }

  private func blob<T>(_ body: () throws(BlobError) -> T) throws(ValidationError) -> T {
    do {
      return try body()
    } catch {
      throw ValidationError(error, path: path)
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
