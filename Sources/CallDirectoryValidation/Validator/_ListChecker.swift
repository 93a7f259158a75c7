import CallDirectoryFormat

/// The ordering state of one list, as CallKit keeps it: each number must be
/// greater than the one before it in the same list.
///
/// After a violation the offending number becomes the new reference, so one
/// misplaced entry yields one violation, not one per following entry.
///
/// It also tracks whether the list is ordered as *text*: how many
/// out-of-order pairs are in text order (`"10"` before `"9"`) and how many
/// adjacent pairs descend as text. A list sorted with plain `sort` has the
/// first but none of the second.
struct _ListChecker {
  enum Outcome {
    case ascending
    case outOfOrder(previous: Int64)
    case duplicate(previous: Int64)
  }

  let list: BlobSection
  /// The last accepted number, 0 before the first.
  private(set) var previous: Int64 = 0
  private var previousDigits = 0
  /// Out-of-order pairs that are ascending as text.
  private(set) var textOrderedViolations: UInt64 = 0
  /// Adjacent pairs that descend as text.
  private(set) var textDescents: UInt64 = 0
  /// The first out-of-order pair that is ascending as text.
  private(set) var textExample: (previous: Int64, number: Int64)?

  init(list: BlobSection) {
    self.list = list
  }

  /// Checks `number` (in `1...Int64.max - 1`) against the previous one.
  /// - Parameter digits: Its decimal digit count.
  mutating func accept(_ number: Int64, digits: Int) -> Outcome {
    let last = previous
    let lastDigits = previousDigits
    previous = number
    previousDigits = digits
    if last == 0 { return .ascending }
    if number > last {
      if digits != lastDigits, Self.textLess(number, digits, last, lastDigits) { textDescents += 1 }
      return .ascending
    }
    if number == last { return .duplicate(previous: last) }
    if Self.textLess(last, lastDigits, number, digits) {
      textOrderedViolations += 1
      if textExample == nil { textExample = (last, number) }
    } else {
      textDescents += 1
    }
    return .outOfOrder(previous: last)
  }

  /// Whether the violations look like text sorting: at least one
  /// out-of-order pair in text order, and text descents are rare (under a
  /// tenth of those pairs; zero for byte-wise `sort` output).
  var looksTextSorted: Bool {
    textOrderedViolations > 0 && textDescents.multipliedReportingOverflow(by: 10).partialValue < textOrderedViolations
  }

  private static let powersOfTen: [UInt64] = (0...19).map { power in
    (0..<power).reduce(UInt64(1)) { value, _ in value &* 10 }
  }

  /// Whether the decimal text of `a` sorts before that of `b` byte-wise.
  /// Both are positive with at most 19 digits.
  static func textLess(_ a: Int64, _ aDigits: Int, _ b: Int64, _ bDigits: Int) -> Bool {
    if aDigits == bDigits { return a < b }
    var x = UInt64(a)
    var y = UInt64(b)
    // Pad the shorter one with zeros: x·10^k < 10^19 fits in UInt64.
    if aDigits < bDigits {
      x &*= powersOfTen[min(19, bDigits - aDigits)]
    } else {
      y &*= powersOfTen[min(19, aDigits - bDigits)]
    }
    if x != y { return x < y }
    return aDigits < bDigits
  }
}

extension _ViolationLog {
  /// Records an order violation (nothing for ``_ListChecker/Outcome/ascending``).
  func record(_ outcome: _ListChecker.Outcome, number: Int64, list: BlobSection, at location: ViolationLocation) {
    switch outcome {
    case .ascending:
      break
    case .outOfOrder(let previous):
      record(.outOfOrder, at: location, list: list, number: number, previous: previous) {
        "out of order: \(number) after \(previous) in \(_Display.list(list))"
      }
    case .duplicate(let previous):
      record(.duplicate, at: location, list: list, number: number, previous: previous) {
        "duplicate: \(number) repeats the previous entry of \(_Display.list(list))"
      }
    }
  }
}
