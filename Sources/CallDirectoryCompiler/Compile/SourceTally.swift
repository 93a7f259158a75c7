import CallDirectorySources

/// What one source gave so far, with its rejects reported as they come.
struct SourceTally {
  let spec: SourceSpec
  let rejects: RejectLog
  var accepted = 0
  var rejected = 0
  /// Rejected data lines by reason: the first ``maximumReasons`` distinct
  /// reasons, then every other one under ``otherReasons`` (a reason that
  /// names what the line holds, such as a range's ends, is new on every
  /// line; the rejects report has them all).
  var reasons: [String: Int] = [:]
  /// The most distinct reasons a source's tally keeps.
  static let maximumReasons = 100
  /// Where rejects of further distinct reasons are counted.
  static let otherReasons = "other reasons (see the rejects report)"
  /// Numbers left out for not being of the source's `types`.
  var typeFiltered = 0
  /// Numbers written without a country code, for the wrong-region guard.
  var national = NationalTally()
  /// The numbers accepted lines hold (ranges in full), saturating.
  var acceptedNumbers = 0
  /// The numbers rejected lines hold (``SourceReport/rejectedNumbers``).
  var rejectedNumbers = 0

  /// The source's path as the config writes it, as reports name it.
  var path: String { spec.writtenPath }

  /// Reports a rejected data line with its text (escaped and cut,
  /// ``_LineText``), holding `numbers` numbers.
  mutating func reject(line: Int, reason: String, text: String, numbers: Int = 1) throws(CompileError) {
    rejected += 1
    rejectedNumbers = rejectedNumbers.addingSaturating(numbers)
    if reasons.count < Self.maximumReasons || reasons[reason] != nil {
      reasons[reason, default: 0] += 1
    } else {
      reasons[Self.otherReasons, default: 0] += 1
    }
    // A file two sources read says which list each of its rejects is about.
    try rejects.add(
      path: path, line: line, reason: spec.sharesPath ? "\(reason) (\(spec.list.rawValue) list)" : reason, text: text)
  }
}

extension SourceTally {
  /// Counts accepted lines holding `numbers` numbers.
  mutating func accept(lines: Int, numbers: Int) {
    accepted += lines
    acceptedNumbers = acceptedNumbers.addingSaturating(numbers)
  }
}
