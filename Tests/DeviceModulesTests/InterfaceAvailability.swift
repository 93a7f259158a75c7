import Foundation

/// An OS version, compared component by component (`15.4` > `15`).
struct OSVersion: Comparable, CustomStringConvertible {
  var components: [Int]

  init(_ components: [Int]) {
    var trimmed = components
    while trimmed.count > 1, trimmed.last == 0 { trimmed.removeLast() }
    self.components = trimmed
  }

  init?(_ text: Substring) {
    let parts = text.split(separator: ".").map { Int($0) }
    guard !parts.isEmpty, !parts.contains(nil) else { return nil }
    self.init(parts.map { $0! })
  }

  static let zero = OSVersion([0])

  static func < (left: OSVersion, right: OSVersion) -> Bool {
    for index in 0..<max(left.components.count, right.components.count) {
      let a = index < left.components.count ? left.components[index] : 0
      let b = index < right.components.count ? right.components[index] : 0
      if a != b { return a < b }
    }
    return false
  }

  var description: String { components.count == 1 ? "\(components[0]).0" : components.map(String.init).joined(separator: ".") }
}

/// The iOS availability of every public name the toolchain's Swift
/// modules declare, read from their `.swiftinterface` files: the Linux
/// toolchain ships them with Apple's `@available` attributes written out
/// (`@available(macOS 15.0, iOS 18.0, …) public struct Mutex`), though its
/// compiler checks none of them when it builds for Linux.
///
/// A name maps to the earliest iOS release any of its declarations is
/// available in (a declaration without an iOS version counts as always
/// available; members take their type's or extension's version when it is
/// later). A name all of whose declarations are newer than the floor is a
/// newer API wherever it is used; a name that also has an older
/// declaration (`contains`, `split`, `sleep`) cannot be told apart by name.
struct InterfaceAvailability {
  private(set) var earliestIOS: [String: OSVersion] = [:]
  /// The names declared outside any type or extension (types, free
  /// functions, global values): only these can be used without a dot.
  private(set) var topLevel: Set<String> = []

  /// The directory of the running Swift runtime (`lib/swift/linux`), where
  /// the toolchain's module interfaces are; found through the loaded
  /// `libswiftCore.so`.
  static func runtimeDirectory() -> URL? {
    // Read to the end: procfs files report a size of 0.
    guard let handle = FileHandle(forReadingAtPath: "/proc/self/maps") else { return nil }
    defer { try? handle.close() }
    let maps = String(decoding: handle.readDataToEndOfFile(), as: UTF8.self)
    for line in maps.split(separator: "\n") {
      guard let start = line.firstIndex(of: "/"), line.hasSuffix("/libswiftCore.so") else { continue }
      return URL(fileURLWithPath: String(line[start...])).deletingLastPathComponent()
    }
    return nil
  }

  /// The modules whose interfaces are read: the standard library and the
  /// modules that come with it.
  static let modules = [
    "Swift", "_Concurrency", "_StringProcessing", "RegexBuilder", "Synchronization", "Observation", "Distributed",
  ]

  /// Reads the public `.swiftinterface` of each of ``modules`` under
  /// `directory`; throws when one is missing (the check would silently
  /// miss its names).
  init(runtimeDirectory directory: URL) throws {
    for module in Self.modules {
      let folder = directory.appendingPathComponent("\(module).swiftmodule")
      let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        .filter { $0.hasSuffix(".swiftinterface") && !$0.hasSuffix(".private.swiftinterface") }
      guard let file = files.sorted().first else {
        throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: folder.path])
      }
      add(interface: try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8))
    }
  }

  init() {}

  /// The names all of whose declarations are newer than `floor`, with
  /// their earliest version.
  func names(newerThan floor: OSVersion) -> [String: OSVersion] {
    earliestIOS.filter { $0.value > floor }
  }

  /// Whether `name` is declared at the top level somewhere (a type, a free
  /// function): a use of it without a dot may be it; a name declared only
  /// as a member is used as one (`x.name`, `.name`), so a bare `name(…)`
  /// is a C function or a local of the same name.
  func isTopLevel(_ name: String) -> Bool { topLevel.contains(name) }

  /// Adds the declarations of one interface.
  mutating func add(interface text: String) {
    // One entry per open brace: the version (nil: unavailable on iOS) and
    // whether the brace opened an enum, whose cases carry no `public`.
    var contexts: [(version: OSVersion?, isEnum: Bool)] = []
    // The attributes read since the last declaration.
    var pendingVersion = OSVersion.zero
    var pendingUnavailable = false
    for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
      var line = Substring(rawLine.drop { $0 == " " || $0 == "\t" })
      if line.hasPrefix("//") || line.hasPrefix("#") { continue }
      // Leading attributes.
      while line.hasPrefix("@") {
        let (attribute, rest) = Self.splitAttribute(line)
        if attribute.hasPrefix("@available(") {
          if let version = Self.iOSVersion(of: attribute) {
            pendingVersion = max(pendingVersion, version)
          } else if Self.isUnavailable(attribute) {
            pendingUnavailable = true
          }
        }
        line = Substring(rest.drop { $0 == " " })
      }
      if line.isEmpty { continue }
      let outer = contexts.last.map { $0.version } ?? .zero
      let effective: OSVersion? = pendingUnavailable ? nil : outer.map { max($0, pendingVersion) }
      pendingVersion = .zero
      pendingUnavailable = false

      let declaration = Self.declaration(in: line, insideEnum: contexts.last?.isEnum ?? false)
      if let declaration, let effective {
        for name in declaration.names {
          earliestIOS[name] = min(earliestIOS[name] ?? effective, effective)
          if contexts.isEmpty { topLevel.insert(name) }
        }
      }
      let lineContext = (version: declaration == nil ? outer : effective, isEnum: declaration?.keyword == "enum")
      var inString = false
      var previous: Character = " "
      for character in line {
        if character == "\"" && previous != "\\" { inString.toggle() }
        if !inString {
          if character == "{" {
            contexts.append(lineContext)
          } else if character == "}" {
            if !contexts.isEmpty { contexts.removeLast() }
          }
        }
        previous = character
      }
    }
  }

  /// `@name(…)` (parentheses balanced) or `@name`, and what follows it.
  private static func splitAttribute(_ line: Substring) -> (Substring, Substring) {
    var index = line.index(after: line.startIndex)
    while index < line.endIndex, line[index].isLetter || line[index].isNumber || line[index] == "_" {
      index = line.index(after: index)
    }
    guard index < line.endIndex, line[index] == "(" else { return (line[..<index], line[index...]) }
    var depth = 0
    while index < line.endIndex {
      if line[index] == "(" { depth += 1 }
      if line[index] == ")" {
        depth -= 1
        if depth == 0 { return (line[...index], line[line.index(after: index)...]) }
      }
      index = line.index(after: index)
    }
    return (line, line[line.endIndex...])
  }

  /// The iOS version in `@available(macOS 15.0, iOS 18.0, …)` or
  /// `@available(iOS, introduced: 16.0)`.
  private static func iOSVersion(of attribute: Substring) -> OSVersion? {
    let arguments = attribute.dropFirst("@available(".count).dropLast()
    let items = arguments.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
    for item in items {
      let words = item.split(separator: " ")
      if words.count == 2, words[0] == "iOS", let version = OSVersion(words[1]) { return version }
    }
    if items.first == "iOS", let introduced = items.first(where: { $0.hasPrefix("introduced:") }) {
      return OSVersion(Substring(introduced.dropFirst("introduced:".count).trimmingCharacters(in: .whitespaces)))
    }
    return nil
  }

  /// `@available(*, unavailable)` and `@available(iOS, unavailable)`.
  private static func isUnavailable(_ attribute: Substring) -> Bool {
    let items = attribute.dropFirst("@available(".count).dropLast().split(separator: ",")
      .map { $0.trimmingCharacters(in: .whitespaces) }
    return (items.first == "*" || items.first == "iOS") && items.contains("unavailable")
  }

  private static let modifiers: Set<Substring> = [
    "public", "open", "final", "static", "class", "mutating", "nonmutating", "override", "convenience", "required",
    "indirect", "nonisolated", "dynamic", "lazy", "borrowing", "consuming", "__consuming", "prefix", "postfix", "infix",
    "weak", "unowned", "optional", "distributed", "isolated", "package", "internal", "fileprivate", "private",
    "@usableFromInline",
  ]

  private static let keywords: Set<Substring> = [
    "func", "var", "let", "struct", "class", "enum", "protocol", "actor", "typealias", "associatedtype", "case", "init",
    "subscript", "extension", "macro", "deinit",
  ]

  /// The public names a declaration line declares (none for `init`,
  /// `subscript`, `extension`), and its keyword; nil when the line
  /// declares nothing public (code in an inlinable body, a local name).
  private static func declaration(in line: Substring, insideEnum: Bool) -> (keyword: Substring, names: [String])? {
    var words = line.split(whereSeparator: { $0 == " " || $0 == "(" || $0 == "<" || $0 == ":" || $0 == "{" })[...]
    var isPublic = false
    while let word = words.first, modifiers.contains(word) || word.hasPrefix("(") {
      if word == "public" || word == "open" { isPublic = true }
      words = words.dropFirst()
      // `class func`: the modifier; `class Name`: the keyword.
      if word == "class", let next = words.first, !keywords.contains(next) && !modifiers.contains(next) {
        words = ["class"] + words
        break
      }
    }
    guard let keyword = words.first, keywords.contains(keyword) else { return nil }
    guard isPublic || (keyword == "case" && insideEnum) else { return nil }
    switch keyword {
    case "init", "subscript", "extension", "deinit":
      return (keyword, [])
    case "case":
      // `case a, b(x: Int)`: the names at the start of each item.
      let rest = line[line.range(of: "case ")!.upperBound...]
      var names: [String] = []
      var depth = 0
      var current = ""
      var atStart = true
      for character in rest {
        if character == "(" { depth += 1 }
        if character == ")" { depth -= 1 }
        if depth == 0 && character == "," {
          if !current.isEmpty { names.append(current) }
          current = ""
          atStart = true
          continue
        }
        if atStart {
          if character.isLetter || character.isNumber || character == "_" {
            current.append(character)
          } else if !current.isEmpty || character != " " {
            atStart = false
          }
        }
      }
      if !current.isEmpty { names.append(current) }
      return (keyword, names)
    default:
      guard let name = words.dropFirst().first else { return (keyword, []) }
      let identifier = name.prefix { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "`" }
        .replacingOccurrences(of: "`", with: "")
      return (keyword, identifier.isEmpty ? [] : [identifier])
    }
  }
}
