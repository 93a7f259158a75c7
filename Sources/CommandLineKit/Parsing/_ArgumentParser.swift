/// Parses the arguments of one command (after its subcommand path).
struct _ArgumentParser {
  /// What the tokens asked for.
  enum Outcome {
    case parsed(values: [String: [String]], flags: Set<String>)
    case help
    case version
  }

  let specs: [ArgumentSpec]
  /// Whether `--version` is accepted here (the root command only).
  let acceptsVersion: Bool

  private var longNames: [String: ArgumentSpec] {
    var result: [String: ArgumentSpec] = [:]
    for spec in specs where !spec.isPositional { result[spec.name] = spec }
    return result
  }

  private var shortNames: [Character: ArgumentSpec] {
    var result: [Character: ArgumentSpec] = [:]
    for spec in specs { if let short = spec.short { result[short] = spec } }
    return result
  }

  /// The long spellings offered as suggestions for an unknown option.
  var knownLongSpellings: [String] {
    specs.filter { !$0.isPositional }.map(\._longSpelling)
      + (acceptsVersion ? ["--version"] : []) + ["--help"]
  }

  func parse(_ tokens: ArraySlice<String>) throws(UsageError) -> Outcome {
    if let request = helpOrVersion(in: tokens) { return request }
    var scanner = _TokenScanner(tokens: tokens, longs: longNames, shorts: shortNames, parser: self)
    try scanner.scan()
    var values = scanner.values
    for spec in specs {
      if case .option(isRequired: true, _) = spec.kind, values[spec.name] == nil, spec.defaultValue == nil {
        throw .missingArgument(spec._displayName)
      }
    }
    try assign(scanner.positionals[...], to: &values)
    return .parsed(values: values, flags: scanner.flags)
  }

  /// `--help` or `-h` (or `--version` where accepted) anywhere before `--`
  /// answers instead of parsing.
  private func helpOrVersion(in tokens: ArraySlice<String>) -> Outcome? {
    for token in tokens {
      if token == "--" { break }
      if token == "--help" || token == "-h" { return .help }
      if acceptsVersion, token == "--version" { return .version }
    }
    return nil
  }

  private func assign(_ positionals: ArraySlice<String>, to values: inout [String: [String]]) throws(UsageError) {
    var remaining = positionals
    for spec in specs {
      guard case .positional(let arity) = spec.kind else { continue }
      switch arity {
      case .required:
        guard let value = remaining.popFirst() else { throw .missingArgument(spec._displayName) }
        values[spec.name] = [value]
      case .optional:
        if let value = remaining.popFirst() { values[spec.name] = [value] }
      case .zeroOrMore:
        values[spec.name] = Array(remaining)
        remaining = []
      case .oneOrMore:
        guard !remaining.isEmpty else { throw .missingArgument(spec._displayName) }
        values[spec.name] = Array(remaining)
        remaining = []
      }
    }
    if let extra = remaining.first { throw .unexpectedArgument(extra) }
  }

  /// Whether `token` is a value rather than an option: it does not start
  /// with `-`, is `-` alone (stdin), or is a negative number when no short
  /// option is a digit.
  func looksLikeValue(_ token: String, shorts: [Character: ArgumentSpec]) -> Bool {
    guard token.hasPrefix("-") else { return true }
    if token == "-" { return true }
    let rest = token.dropFirst()
    guard let first = rest.first, first.isASCII, first.isNumber || first == "." else { return false }
    if shorts.keys.contains(where: { $0.isNumber }) { return false }
    return Double(rest) != nil
  }
}

/// One pass over a command's words: options with their values, flags, and
/// the positional words left for ``_ArgumentParser`` to assign.
private struct _TokenScanner {
  let tokens: ArraySlice<String>
  let longs: [String: ArgumentSpec]
  let shorts: [Character: ArgumentSpec]
  let parser: _ArgumentParser
  private(set) var values: [String: [String]] = [:]
  private(set) var flags: Set<String> = []
  private(set) var positionals: [String] = []
  private var index: ArraySlice<String>.Index

  init(tokens: ArraySlice<String>, longs: [String: ArgumentSpec], shorts: [Character: ArgumentSpec], parser: _ArgumentParser) {
    self.tokens = tokens
    self.longs = longs
    self.shorts = shorts
    self.parser = parser
    index = tokens.startIndex
  }

  mutating func scan() throws(UsageError) {
    var optionsEnded = false
    while index < tokens.endIndex {
      let token = tokens[index]
      index += 1
      if optionsEnded || parser.looksLikeValue(token, shorts: shorts) {
        positionals.append(token)
      } else if token == "--" {
        optionsEnded = true
      } else if token.hasPrefix("--") {
        try scanLong(token.dropFirst(2))
      } else {
        try scanShortCluster(Array(token.dropFirst()))
      }
    }
  }

  /// `--name`, `--name value` or `--name=value`.
  private mutating func scanLong(_ body: Substring) throws(UsageError) {
    let name: String
    let inlineValue: String?
    if let equals = body.firstIndex(of: "=") {
      name = String(body[..<equals])
      inlineValue = String(body[body.index(after: equals)...])
    } else {
      name = String(body)
      inlineValue = nil
    }
    guard let spec = longs[name] else {
      let spelling = "--" + name
      throw .unknownOption(
        spelling, suggestion: _Suggestions.bestMatch(for: spelling, among: parser.knownLongSpellings))
    }
    if spec.kind == .flag {
      if let inlineValue { throw .unexpectedValue(option: spec._longSpelling, value: inlineValue) }
      flags.insert(spec.name)
    } else if let inlineValue {
      try record(spec, inlineValue)
    } else {
      try record(spec, try nextValue(for: spec._longSpelling))
    }
  }

  /// A cluster of short names: `-v`, `-vq`, `-o file`, `-ofile`, `-o=file`.
  private mutating func scanShortCluster(_ characters: [Character]) throws(UsageError) {
    var position = 0
    while position < characters.count {
      let short = characters[position]
      position += 1
      guard let spec = shorts[short] else {
        throw .unknownOption("-" + String(short), suggestion: nil)
      }
      if spec.kind == .flag {
        flags.insert(spec.name)
        continue
      }
      var rest = characters[position...]
      if rest.first == "=" { rest = rest.dropFirst() }
      let spelling = "-" + String(short)
      try record(spec, rest.isEmpty ? try nextValue(for: spelling) : String(rest))
      return
    }
  }

  /// No option takes an empty value: `--store ''` is a mistake (an unset
  /// shell variable), never a path or a setting.
  private mutating func record(_ spec: ArgumentSpec, _ value: String) throws(UsageError) {
    if value.isEmpty { throw .invalidValue(value, argument: spec._longSpelling, expected: "a value that is not empty") }
    if spec._isRepeatable {
      values[spec.name, default: []].append(value)
    } else {
      values[spec.name] = [value]
    }
  }

  /// The word after an option as its value, when it is one.
  private mutating func nextValue(for spelling: String) throws(UsageError) -> String {
    guard index < tokens.endIndex, parser.looksLikeValue(tokens[index], shorts: shorts) else {
      throw .missingValue(option: spelling)
    }
    defer { index += 1 }
    return tokens[index]
  }
}
