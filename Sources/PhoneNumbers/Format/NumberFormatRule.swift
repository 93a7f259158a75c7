/// One of libphonenumber's national number formats (a row of
/// `data/number-formats.tsv`, see `schemas/numbering-plan.md`), compiled
/// for libphonenumber's `format_number(…, NATIONAL)`: the pattern a
/// national significant number must match whole, the leading-digits
/// pattern it must start with, and the replacement that writes it, reduced
/// to the digits it produces (separators are dropped: calldir wants the
/// national format's digits).
struct NumberFormatRule: Sendable {
  /// The pattern (`pattern` column), with its groups.
  let pattern: DigitPattern
  /// The last of the row's leading-digits patterns, the one
  /// `format_number` checks (`_choose_formatting_pattern_for_number`:
  /// "the most detailed"); nil when the row has none.
  let leadingDigits: DigitPattern?
  /// The replacement for the national format, as digits and group
  /// references: the format with its first group reference replaced by
  /// the national prefix formatting rule (whose `$FG` is that reference),
  /// as `_format_nsn_using_pattern` does; the format alone when the row
  /// has no rule. Separators are left out.
  let replacement: [RegionMetadata.TransformPart]
  /// Whether every digit step of `pattern` takes any digit (`\d`): then a
  /// match, its groups, and so the whole substitution depend only on the
  /// number's length, and can be worked out once per length.
  let dependsOnLengthAlone: Bool

  /// The longest national number this formats (libphonenumber's
  /// `_MAX_LENGTH_FOR_NSN`).
  static let maximumNationalLength = 17

  /// The most digits a substitution may write, for any national number of
  /// at most ``maximumNationalLength`` digits (``NationalDigits/capacity``).
  static let maximumOutputLength = NationalDigits.capacity

  /// Compiles one row's fields.
  /// - Throws: a reason (lower case) when a field is outside what the
  ///   table allows.
  init(pattern patternText: Substring, format: Substring, leadingDigits: Substring, nationalPrefixRule: Substring)
    throws(NumberFormatRuleError)
  {
    let pattern: DigitPattern
    do {
      pattern = try DigitPattern(String(patternText))
    } catch {
      throw NumberFormatRuleError(reason: error.description)
    }
    guard !pattern.mayMatchEmpty else {
      throw NumberFormatRuleError(reason: "pattern '\(patternText)' may match no digit")
    }
    var leading: DigitPattern? = nil
    if !leadingDigits.isEmpty {
      // Every one is checked; the last is used.
      for text in leadingDigits.split(separator: " ", omittingEmptySubsequences: false) {
        guard !text.isEmpty else { throw NumberFormatRuleError(reason: "empty leading-digits pattern") }
        do {
          leading = try DigitPattern(String(text))
        } catch {
          throw NumberFormatRuleError(reason: error.description)
        }
      }
    }
    let formatParts = try Self.parseFormat(format, groupCount: pattern.groupCount)
    let ruleParts = try Self.parseNationalPrefixRule(nationalPrefixRule)
    var replacement = formatParts
    if let ruleParts, let first = formatParts.firstIndex(where: { if case .group = $0.part { true } else { false } }),
      case .group(let group) = formatParts[first].part
    {
      // re.sub(_FIRST_GROUP_PATTERN, rule, format, count=1): the rule's
      // `\1` is the reference it replaces.
      let expanded = ruleParts.map { item in item.isFirstGroup ? FormatItem(part: .group(group)) : item }
      replacement.replaceSubrange(first...first, with: expanded)
    }
    self.pattern = pattern
    self.leadingDigits = leading
    self.replacement = Self.merged(replacement.map(\.part))
    self.dependsOnLengthAlone = pattern.program.allSatisfy { instruction in
      if case .digit(let mask) = instruction { return mask == 0x3FF }
      return true
    }
    try checkOutputBound()
  }

  /// A piece of a format or rule while it is read.
  private struct FormatItem {
    var part: RegionMetadata.TransformPart
    var isFirstGroup = false
  }

  /// `$1`…`$9` and text; the text's digits are kept.
  private static func parseFormat(_ text: Substring, groupCount: Int) throws(NumberFormatRuleError) -> [FormatItem] {
    var items: [FormatItem] = []
    let bytes = Array(text.utf8)
    var index = 0
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "$") {
        guard index + 1 < bytes.count, (49...57).contains(bytes[index + 1]) else {
          throw NumberFormatRuleError(reason: "bad group reference in format '\(text)'")
        }
        let group = Int(bytes[index + 1] - 48)
        guard group <= groupCount else {
          throw NumberFormatRuleError(reason: "format '\(text)' refers to group \(group) of \(groupCount)")
        }
        // `$15` would be group 15 to Python: the table never writes it.
        guard index + 2 >= bytes.count || !(48...57).contains(bytes[index + 2]) else {
          throw NumberFormatRuleError(reason: "digit right after a group reference in format '\(text)'")
        }
        items.append(FormatItem(part: .group(group)))
        index += 2
      } else {
        if (48...57).contains(byte) { items.append(FormatItem(part: .digits([byte - 48]))) }
        index += 1
      }
    }
    return items
  }

  /// `$FG` and text (nil for an empty rule: none).
  private static func parseNationalPrefixRule(_ text: Substring) throws(NumberFormatRuleError) -> [FormatItem]? {
    guard !text.isEmpty else { return nil }
    var items: [FormatItem] = []
    let bytes = Array(text.utf8)
    var index = 0
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "$") {
        guard index + 2 < bytes.count, bytes[index + 1] == UInt8(ascii: "F"), bytes[index + 2] == UInt8(ascii: "G") else {
          throw NumberFormatRuleError(reason: "bad reference in national prefix rule '\(text)' (only $FG)")
        }
        items.append(FormatItem(part: .group(0), isFirstGroup: true))
        index += 3
      } else {
        if (48...57).contains(byte) { items.append(FormatItem(part: .digits([byte - 48]))) }
        index += 1
      }
    }
    return items
  }

  /// Adjacent literal digits joined into one part.
  private static func merged(_ parts: [RegionMetadata.TransformPart]) -> [RegionMetadata.TransformPart] {
    var result: [RegionMetadata.TransformPart] = []
    for part in parts {
      if case .digits(let more) = part, case .digits(let some)? = result.last {
        result[result.count - 1] = .digits(some + more)
      } else {
        result.append(part)
      }
    }
    return result
  }

  /// Refuses a rule whose output could exceed ``maximumOutputLength``
  /// digits for a national number of at most ``maximumNationalLength``:
  /// a substitution writes the digits between matches once and, per
  /// match, the replacement's literal digits and its groups' digits,
  /// which fit in the match when no group is used twice or inside
  /// another used one; there are at most length / (shortest match)
  /// matches.
  private func checkOutputBound() throws(NumberFormatRuleError) {
    var groups: [Int] = []
    var literals = 0
    for part in replacement {
      switch part {
      case .digits(let digits): literals += digits.count
      case .group(let group): groups.append(group)
      }
    }
    func ancestors(of group: Int) -> Set<Int> {
      var result = Set<Int>()
      var current = group
      while current > 0, current <= pattern.groupParents.count {
        current = pattern.groupParents[current - 1]
        if current > 0 { result.insert(current) }
      }
      return result
    }
    for (index, group) in groups.enumerated() {
      for other in groups[(index + 1)...] where other == group || ancestors(of: group).contains(other)
        || ancestors(of: other).contains(group)
      {
        throw NumberFormatRuleError(reason: "format refers to overlapping groups \(group) and \(other)")
      }
    }
    let shortest = max(1, Self.shortestMatch(pattern.program))
    let bound = Self.maximumNationalLength + Self.maximumNationalLength / shortest * literals
    guard bound <= Self.maximumOutputLength else {
      throw NumberFormatRuleError(reason: "format could write \(bound) digits (at most \(Self.maximumOutputLength))")
    }
  }

  /// The fewest digits a match of `program` consumes (a shortest path,
  /// digit steps costing one).
  static func shortestMatch(_ program: [DigitPattern.Instruction]) -> Int {
    var distance = [Int](repeating: Int.max, count: program.count)
    var queue: [(pc: Int, cost: Int)] = [(0, 0)]
    var best = Int.max
    // Costs only grow by 0 or 1: a deque as two lists, the cheaper first.
    var next: [(pc: Int, cost: Int)] = []
    while !queue.isEmpty || !next.isEmpty {
      if queue.isEmpty { (queue, next) = (next, []) }
      let (pc, cost) = queue.removeLast()
      guard pc < program.count, cost < distance[pc] else { continue }
      distance[pc] = cost
      switch program[pc] {
      case .digit: next.append((pc + 1, cost + 1))
      case .split(let first, let second): queue.append((first, cost)); queue.append((second, cost))
      case .jump(let target): queue.append((target, cost))
      case .save, .assertEnd: queue.append((pc + 1, cost))
      case .match: best = min(best, cost)
      }
    }
    return best == Int.max ? 0 : best
  }
}

/// Why a row of the formats table could not be compiled.
struct NumberFormatRuleError: Error, CustomStringConvertible {
  let reason: String
  var description: String { reason }
}

extension NumberFormatRule {
  /// One step of a substitution's output: a literal digit, or the digits
  /// of the input between two offsets.
  enum Output: Equatable {
    case digit(UInt8)
    case copy(Int, Int)
  }

  /// Python's `re.sub(pattern, replacement, digits)` on a national number
  /// (values 0–9): the digits between matches as they are, each match
  /// (leftmost, then the first in priority order; never empty) replaced
  /// by ``replacement``, a group that took no part giving nothing.
  /// Hands each piece of the output to `emit`, in order.
  @inline(__always)
  func substitute(_ digits: UnsafeBufferPointer<UInt8>, emit: (Output) -> Void) {
    withUnsafeTemporaryAllocation(of: Int.self, capacity: pattern.captureSlotCount) { slots in
      let captures = slots.baseAddress!
      var position = 0
      var copiedUpTo = 0
      while position < digits.count {
        let rest = UnsafeBufferPointer(rebasing: digits[position...])
        let length = pattern.prefixMatchEnd(rest, captures: captures)
        guard length > 0 else {
          position += 1
          continue
        }
        if copiedUpTo < position { emit(.copy(copiedUpTo, position)) }
        for part in replacement {
          switch part {
          case .digits(let literal):
            for digit in literal { emit(.digit(digit)) }
          case .group(let group):
            let lower = captures[2 * group]
            let upper = captures[2 * group + 1]
            if lower >= 0 && upper > lower { emit(.copy(position + lower, position + upper)) }
          }
        }
        position += length
        copiedUpTo = position
      }
      if copiedUpTo < digits.count { emit(.copy(copiedUpTo, digits.count)) }
    }
  }
}
