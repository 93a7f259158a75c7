/// A regular expression over decimal digits, in the subset libphonenumber's
/// metadata uses: digit literals, `\d`, classes such as `[2-9]`, groups
/// `(…)` and `(?:…)`, alternation, `?`, `{n}`, `{n,m}` and a final `$`.
///
/// Patterns are compiled once into a small instruction program. Matching runs
/// on a buffer of digit values (0–9) with Python/Java semantics: alternatives
/// and quantifiers are tried in order (leftmost-first, greedy), so the
/// capture groups of a prefix match are exactly those libphonenumber sees.
final class DigitPattern: Sendable {
  /// The source text, kept for messages.
  let source: String
  /// The compiled program; the last instruction is `match`.
  let program: [Instruction]
  /// The number of capturing groups.
  let groupCount: Int
  /// For each capturing group g (at index g − 1), the innermost capturing
  /// group it is written inside, or 0 for none: two groups neither of
  /// which holds the other never overlap in a match.
  let groupParents: [Int]
  /// The digits of a pattern that is a plain digit string (`0`, `011`), the
  /// common case for national and international prefixes; nil otherwise.
  let literal: [UInt8]?
  /// The digits a match can start with (bit d for digit d), when
  /// `mayMatchEmpty` is false: a quick "no prefix match" test.
  let firstDigits: UInt16
  /// Whether a match might consume no digit (then `firstDigits` proves nothing).
  let mayMatchEmpty: Bool

  /// Compiles `source`.
  /// - Throws: `DigitPatternError` when the text is outside the supported subset.
  init(_ source: String) throws(DigitPatternError) {
    var parser = Parser(Array(source.unicodeScalars))
    let tree = try parser.parseAlternation()
    guard parser.isAtEnd else {
      throw DigitPatternError(pattern: source, offset: parser.offset, reason: "unexpected character")
    }
    var compiler = Compiler()
    compiler.emit(tree)
    compiler.program.append(.match)
    self.source = source
    self.program = compiler.program
    self.groupCount = parser.groupCount
    self.groupParents = parser.groupParents
    (self.literal, self.firstDigits, self.mayMatchEmpty) = Self.analyze(compiler.program)
  }

  /// The literal digits of a program that is only single-digit steps, and
  /// the first-digit set of any program (end assertions treated as passable,
  /// so both facts are conservative).
  private static func analyze(_ program: [Instruction]) -> (literal: [UInt8]?, first: UInt16, empty: Bool) {
    var literal: [UInt8]? = []
    for instruction in program.dropLast() {
      if case .digit(let mask) = instruction, mask.nonzeroBitCount == 1 {
        literal?.append(UInt8(mask.trailingZeroBitCount))
      } else {
        literal = nil
        break
      }
    }
    if literal?.isEmpty == true { literal = nil }
    var seen = Set<Int>()
    var stack = [0]
    var first: UInt16 = 0
    var empty = false
    while let pc = stack.popLast() {
      guard pc < program.count, seen.insert(pc).inserted else { continue }
      switch program[pc] {
      case .digit(let mask): first |= mask
      case .split(let preferred, let alternative): stack.append(alternative); stack.append(preferred)
      case .jump(let target): stack.append(target)
      case .save, .assertEnd: stack.append(pc + 1)
      case .match: empty = true
      }
    }
    return (literal, first, empty)
  }
}

/// Why a numbering-plan pattern could not be compiled.
struct DigitPatternError: Error, CustomStringConvertible {
  let pattern: String
  let offset: Int
  let reason: String

  var description: String { "pattern '\(pattern)' at offset \(offset): \(reason)" }
}

extension DigitPattern {
  /// One step of a compiled pattern.
  enum Instruction: Sendable, Equatable {
    /// Consume one digit whose bit is set in the mask (bit d for digit d).
    case digit(UInt16)
    /// Continue at both targets, the first one preferred.
    case split(Int, Int)
    /// Continue at the target.
    case jump(Int)
    /// Record the current position in capture slot n (2·group, 2·group+1).
    case save(Int)
    /// Succeed only at the end of the input.
    case assertEnd
    /// The pattern matched.
    case match
  }

  /// The parsed form of a pattern.
  /// Only the cases holding one node are boxed: digit classes, the most
  /// common node, and the array cases are not (parsing allocated a box per
  /// digit class, which dominated a calling code's compilation).
  enum Node {
    case digits(UInt16)
    case sequence([Node])
    case alternation([Node])
    indirect case group(Node, capture: Int?)
    indirect case repetition(Node, min: Int, max: Int)
    case endAnchor
  }
}

// MARK: - Parsing

extension DigitPattern {
  fileprivate struct Parser {
    let scalars: [Unicode.Scalar]
    var offset = 0
    var groupCount = 0
    var groupParents: [Int] = []
    /// The capturing groups open at `offset`, innermost last.
    var openGroups: [Int] = []

    init(_ scalars: [Unicode.Scalar]) { self.scalars = scalars }

    var isAtEnd: Bool { offset == scalars.count }
    var current: Unicode.Scalar? { offset < scalars.count ? scalars[offset] : nil }

    func failure(_ reason: String) -> DigitPatternError {
      DigitPatternError(pattern: String(String.UnicodeScalarView(scalars)), offset: offset, reason: reason)
    }

    mutating func parseAlternation() throws(DigitPatternError) -> Node {
      var branches = [try parseSequence()]
      while current == "|" {
        offset += 1
        branches.append(try parseSequence())
      }
      return branches.count == 1 ? branches[0] : .alternation(branches)
    }

    mutating func parseSequence() throws(DigitPatternError) -> Node {
      var items: [Node] = []
      while let scalar = current, scalar != "|", scalar != ")" {
        var atom = try parseAtom()
        atom = try parseQuantifiers(on: atom)
        items.append(atom)
      }
      return items.count == 1 ? items[0] : .sequence(items)
    }

    mutating func parseAtom() throws(DigitPatternError) -> Node {
      guard let scalar = current else { throw failure("unexpected end") }
      switch scalar {
      case "0"..."9":
        offset += 1
        return .digits(1 << UInt16(scalar.value - 48))
      case "\\":
        offset += 1
        guard current == "d" else { throw failure("only \\d is supported") }
        offset += 1
        return .digits(0x3FF)
      case "[":
        return try parseClass()
      case "(":
        offset += 1
        var capture: Int? = nil
        if current == "?" {
          offset += 1
          guard current == ":" else { throw failure("only (?: groups are supported") }
          offset += 1
        } else {
          groupCount += 1
          capture = groupCount
          groupParents.append(openGroups.last ?? 0)
          openGroups.append(groupCount)
        }
        let inner = try parseAlternation()
        guard current == ")" else { throw failure("missing ')'") }
        offset += 1
        if capture != nil { openGroups.removeLast() }
        return .group(inner, capture: capture)
      case "$":
        offset += 1
        return .endAnchor
      default:
        throw failure("unsupported character '\(scalar)'")
      }
    }

    mutating func parseClass() throws(DigitPatternError) -> Node {
      offset += 1  // [
      var mask: UInt16 = 0
      while let scalar = current, scalar != "]" {
        let low: UInt16
        if scalar == "\\" {
          offset += 1
          guard current == "d" else { throw failure("only \\d is supported in a class") }
          offset += 1
          mask |= 0x3FF
          continue
        }
        guard ("0"..."9").contains(scalar) else { throw failure("class holds a non-digit") }
        low = UInt16(scalar.value - 48)
        offset += 1
        if current == "-", offset + 1 < scalars.count, scalars[offset + 1] != "]" {
          offset += 1
          guard let upperScalar = current, ("0"..."9").contains(upperScalar) else {
            throw failure("bad class range")
          }
          let high = UInt16(upperScalar.value - 48)
          guard low <= high else { throw failure("reversed class range") }
          for digit in low...high { mask |= 1 << digit }
          offset += 1
        } else {
          mask |= 1 << low
        }
      }
      guard current == "]" else { throw failure("missing ']'") }
      offset += 1
      return .digits(mask)
    }

    mutating func parseQuantifiers(on atom: Node) throws(DigitPatternError) -> Node {
      var node = atom
      while let scalar = current {
        if scalar == "?" {
          offset += 1
          node = .repetition(node, min: 0, max: 1)
        } else if scalar == "{" {
          offset += 1
          let low = try parseCount()
          var high = low
          if current == "," {
            offset += 1
            high = try parseCount()
          }
          guard current == "}" else { throw failure("missing '}'") }
          offset += 1
          guard low <= high, high <= 64 else { throw failure("bad repetition bounds") }
          node = .repetition(node, min: low, max: high)
        } else {
          break
        }
      }
      return node
    }

    mutating func parseCount() throws(DigitPatternError) -> Int {
      var value = 0
      var seen = false
      while let scalar = current, ("0"..."9").contains(scalar), value < 1000 {
        value = value * 10 + Int(scalar.value - 48)
        offset += 1
        seen = true
      }
      guard seen else { throw failure("missing repetition count") }
      return value
    }
  }
}

// MARK: - Compiling

extension DigitPattern {
  fileprivate struct Compiler {
    var program: [Instruction] = []

    mutating func emit(_ node: Node) {
      switch node {
      case .digits(let mask):
        program.append(.digit(mask))
      case .sequence(let items):
        for item in items { emit(item) }
      case .alternation(let branches):
        var jumpsToEnd: [Int] = []
        for (index, branch) in branches.enumerated() {
          if index < branches.count - 1 {
            let split = program.count
            program.append(.split(split + 1, -1))
            emit(branch)
            jumpsToEnd.append(program.count)
            program.append(.jump(-1))
            program[split] = .split(split + 1, program.count)
          } else {
            emit(branch)
          }
        }
        for jump in jumpsToEnd { program[jump] = .jump(program.count) }
      case .group(let inner, let capture):
        if let capture { program.append(.save(2 * capture)) }
        emit(inner)
        if let capture { program.append(.save(2 * capture + 1)) }
      case .repetition(let inner, let min, let max):
        for _ in 0..<min { emit(inner) }
        // Greedy optional copies, nested so that "a{0,2}" never matches the
        // second copy without the first: split(L1, end) a split(L2, end) a end.
        var splits: [Int] = []
        for _ in min..<max {
          splits.append(program.count)
          program.append(.split(program.count + 1, -1))
          emit(inner)
        }
        for split in splits { program[split] = .split(split + 1, program.count) }
      case .endAnchor:
        program.append(.assertEnd)
      }
    }
  }
}
