import Foundation

/// A Swift source file as code: comments and the text of string literals
/// left out (the code of their interpolations kept), so that a name in a
/// doc comment or a message is not taken for a use.
struct SourceScanner {
  /// An identifier of the code, with its line (from 1).
  struct Token: Equatable {
    var text: String
    var line: Int
    /// The next character of the code after it that is not a space.
    var next: Character?
    /// The code's previous word before it (`func` in `func name`).
    var previousWord: String?
    /// Whether a `.` comes right before it (a member: `x.name`, `.name`).
    var isMember: Bool
  }

  /// The code, comments and literal text replaced by spaces (line breaks kept).
  let code: String
  let tokens: [Token]

  /// - Parameter condition: A compilation condition whose regions
  ///   (`#if CONDITION`, the `#else` of `#if !CONDITION`) are left out, as
  ///   a build without it compiles the file; nil keeps every line.
  init(_ source: String, without condition: String? = nil) {
    let stripped = Self.strip(Array(source.unicodeScalars))
    guard let condition else {
      code = stripped
      tokens = Self.tokenize(code)
      return
    }
    let whole = SourceScanner(code: stripped)
    var lines = stripped.split(separator: "\n", omittingEmptySubsequences: false).map { _ in Substring() }
    for (number, text) in whole.lines(without: condition) { lines[number - 1] = text }
    code = lines.joined(separator: "\n")
    tokens = Self.tokenize(code)
  }

  private init(code: String) {
    self.code = code
    tokens = []
  }

  /// The lines of code outside `#if CONDITION` regions (and inside their
  /// `#else`), as a build without `CONDITION` compiles them: every other
  /// `#if` keeps both branches.
  func lines(without condition: String) -> [(number: Int, text: Substring)] {
    // Per open #if: whether it tests the condition, and whether the
    // current branch is compiled only with it.
    var stack: [(tests: Bool, onlyWith: Bool)] = []
    var result: [(Int, Substring)] = []
    for (index, line) in code.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      let trimmed = line.drop { $0 == " " }
      if trimmed.hasPrefix("#if ") {
        let expression = trimmed.dropFirst(4).trimmingCharacters(in: .whitespaces)
        if expression == condition {
          stack.append((true, true))
        } else if expression == "!" + condition {
          stack.append((true, false))
        } else {
          stack.append((false, false))
        }
        continue
      }
      if trimmed.hasPrefix("#else"), let last = stack.last {
        stack[stack.count - 1] = (last.tests, last.tests ? !last.onlyWith : false)
        continue
      }
      if trimmed.hasPrefix("#elseif"), stack.last != nil {
        stack[stack.count - 1].onlyWith = false
        continue
      }
      if trimmed.hasPrefix("#endif") {
        if !stack.isEmpty { stack.removeLast() }
        continue
      }
      if stack.contains(where: { $0.onlyWith }) { continue }
      result.append((index + 1, line))
    }
    return result
  }

  private static func strip(_ scalars: [Unicode.Scalar]) -> String {
    var out = String.UnicodeScalarView()
    var index = 0
    func blank(_ scalar: Unicode.Scalar) { out.append(scalar == "\n" ? "\n" : " ") }
    func at(_ offset: Int) -> Unicode.Scalar? { index + offset < scalars.count ? scalars[index + offset] : nil }
    // Open string literals: their closing delimiter, and the depth of
    // parentheses of an interpolation open in them (0: in the text).
    var strings: [(close: [Unicode.Scalar], parentheses: Int)] = []
    while index < scalars.count {
      let scalar = scalars[index]
      if let last = strings.last, last.parentheses == 0 {
        // In a literal's text.
        let hashes = last.close.dropFirst(last.close.first == "\"" && last.close.count >= 3 && last.close[1] == "\"" ? 3 : 1)
        if scalar == "\\" && Array(scalars[(index + 1)..<min(scalars.count, index + 1 + hashes.count)]) == Array(hashes) {
          let after = index + 1 + hashes.count
          if after < scalars.count && scalars[after] == "(" {
            for _ in index...after { out.append(" ") }
            index = after + 1
            strings[strings.count - 1].parentheses = 1
            out.removeLast()
            out.append("(")
            continue
          }
          blank(scalar)
          if after < scalars.count { blank(scalars[after]) }
          index = after + 1
          continue
        }
        if Array(scalars[index..<min(scalars.count, index + last.close.count)]) == last.close {
          for _ in 0..<last.close.count { out.append(" ") }
          index += last.close.count
          strings.removeLast()
          continue
        }
        blank(scalar)
        index += 1
        continue
      }
      // In code (perhaps an interpolation's).
      if scalar == "/" && at(1) == "/" {
        while index < scalars.count && scalars[index] != "\n" {
          out.append(" ")
          index += 1
        }
        continue
      }
      if scalar == "/" && at(1) == "*" {
        var depth = 0
        repeat {
          if scalars[index] == "/" && at(1) == "*" {
            depth += 1
            out.append(" ")
            out.append(" ")
            index += 2
          } else if scalars[index] == "*" && at(1) == "/" {
            depth -= 1
            out.append(" ")
            out.append(" ")
            index += 2
          } else {
            blank(scalars[index])
            index += 1
          }
        } while depth > 0 && index < scalars.count
        continue
      }
      if scalar == "#" || scalar == "\"" {
        var hashes = 0
        while at(hashes) == "#" { hashes += 1 }
        if at(hashes) == "\"" {
          let triple = at(hashes + 1) == "\"" && at(hashes + 2) == "\""
          let quotes: [Unicode.Scalar] = triple ? ["\"", "\"", "\""] : ["\""]
          let close = quotes + Array(repeating: "#", count: hashes)
          for _ in 0..<(hashes + quotes.count) { out.append(" ") }
          index += hashes + quotes.count
          strings.append((close, 0))
          continue
        }
      }
      if var last = strings.last {
        if scalar == "(" { last.parentheses += 1 }
        if scalar == ")" { last.parentheses -= 1 }
        strings[strings.count - 1] = last
        if last.parentheses == 0 {
          out.append(" ")
          index += 1
          continue
        }
      }
      out.append(scalar)
      index += 1
    }
    return String(out)
  }

  private static func tokenize(_ code: String) -> [Token] {
    var tokens: [Token] = []
    let characters = Array(code)
    var line = 1
    var index = 0
    var previousWord: String?
    var lastSignificant: Character = " "
    while index < characters.count {
      let character = characters[index]
      if character == "\n" { line += 1 }
      guard character.isLetter || character == "_" || character == "`" else {
        if !character.isWhitespace { lastSignificant = character }
        index += 1
        continue
      }
      var end = index
      while end < characters.count, characters[end].isLetter || characters[end].isNumber || characters[end] == "_"
        || characters[end] == "`"
      {
        end += 1
      }
      let text = String(characters[index..<end]).replacingOccurrences(of: "`", with: "")
      var after = end
      while after < characters.count, characters[after] == " " { after += 1 }
      let next = after < characters.count ? characters[after] : nil
      // `#if`, `#available`, `@inlinable`: directives and attributes.
      let isDirective = index > 0 && (characters[index - 1] == "#" || characters[index - 1] == "@")
      if !isDirective {
        tokens.append(Token(text: text, line: line, next: next, previousWord: previousWord, isMember: lastSignificant == "."))
      }
      previousWord = text
      lastSignificant = characters[end - 1]
      index = end
    }
    return tokens
  }
}
