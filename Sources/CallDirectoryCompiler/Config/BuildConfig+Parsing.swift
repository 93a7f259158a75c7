import CallDirectorySources
import CalldirSystem

extension BuildConfig {
  /// Reads and validates a config file.
  ///
  /// - Parameters:
  ///   - path: The config file; relative source paths resolve against its
  ///     directory.
  ///   - registry: The formats `format` may name.
  ///   - checkFiles: Whether every source file must exist now.
  /// - Throws: ``ConfigError``.
  public static func load(
    contentsOf path: String,
    registry: SourceFormatRegistry = .standard,
    checkFiles: Bool = true
  ) throws(ConfigError) -> BuildConfig {
    let absolute = _absolutePath(path)
    let data = try _readConfigFile(absolute)
    let config = try parse(
      data, baseDirectory: _directoryName(absolute), registry: registry)
    if checkFiles { try config.checkSourceFiles() }
    return config
  }

  /// Validates config JSON.
  ///
  /// The text is read by the strict parser: a key given twice, nesting
  /// deeper than 64 levels or anything after the value is an error with
  /// its line and column.
  ///
  /// - Parameters:
  ///   - json: The UTF-8 JSON text (a UTF-8 BOM is allowed).
  ///   - baseDirectory: The directory relative source paths resolve
  ///     against.
  ///   - registry: The formats `format` may name.
  /// - Throws: ``ConfigError``; the first problem found, in key order.
  public static func parse(
    _ json: [UInt8], baseDirectory: String,
    registry: SourceFormatRegistry = .standard
  ) throws(ConfigError) -> BuildConfig {
    let root: JSONValue
    do {
      root = try JSONParser(maxDepth: 64).parse(json)
    } catch {
      throw .invalidJSON(detail: "line \(error.line), column \(error.column): \(error.reasonText)")
    }
    var parser = _ConfigParser(
      registry: registry, baseDirectory: _absolutePath(baseDirectory))
    return try parser.parseRoot(root)
  }

  /// Throws when a source file is missing or is not a regular file (a
  /// directory; a named pipe, socket or device, which a build could not
  /// read twice, or might read without end).
  ///
  /// - Throws: ``ConfigError/fileNotFound(keyPath:path:)`` or
  ///   ``ConfigError/invalidValue(keyPath:reason:)``.
  public func checkSourceFiles() throws(ConfigError) {
    for spec in sources {
      guard let status = try? FileSystem.status(spec.path) else {
        throw .fileNotFound(keyPath: "\(spec.keyPath).path", path: spec.path)
      }
      if status.kind != .regular {
        throw .notAFile(keyPath: "\(spec.keyPath).path", path: spec.path, kind: status.kind.description)
      }
      if let icon = spec.icon {
        guard let status = try? FileSystem.status(icon) else {
          throw .fileNotFound(keyPath: "\(spec.keyPath).icon", path: icon)
        }
        if status.kind != .regular {
          throw .notAFile(keyPath: "\(spec.keyPath).icon", path: icon, kind: status.kind.description)
        }
      }
    }
  }
}

/// Walks the decoded JSON, checking keys and types in schema order.
private struct _ConfigParser {
  let registry: SourceFormatRegistry
  let baseDirectory: String

  static let rootKeys = [
    "dataset", "defaultRegion", "maxRejectRatio", "maxRemovalRatio", "maxInvalidRatio", "deltaHistory",
    "maxEntriesPerExtension", "maxExtensions", "maxRangeSize", "fullEvery", "manifestLifetimeDays", "signingKey",
    "sources", "liveCallerID",
  ]
  static let commonSourceKeys = [
    "path", "format", "list", "region", "priority", "maxRemovalRatio", "minReports", "maxAgeDays", "labelPolicy",
    "category", "icon",
  ] + NumberRules.keys

  mutating func parseRoot(_ root: JSONValue) throws(ConfigError) -> BuildConfig
  {
    guard case .object(let members) = root else {
      throw .wrongType(
        keyPath: "(root)", expected: "an object", found: root.typeName)
    }
    let object = Dictionary(members, uniquingKeysWith: { first, _ in first })
    try checkUnknownKeys(
      object, prefix: "", known: Self.rootKeys + ["$schema"],
      suggestFrom: Self.rootKeys)
    var config = BuildConfig(baseDirectory: baseDirectory)
    try readChecks(object, into: &config)
    try readOutputSettings(object, into: &config)
    config.sources = try sources(object["sources"], defaultRegion: config.defaultRegion)
    Self.markSharedPaths(&config.sources)
    return config
  }

  /// The keys that say how a build is checked: `defaultRegion`, the ratios
  /// and `deltaHistory`.
  func readChecks(_ object: [String: JSONValue], into config: inout BuildConfig) throws(ConfigError) {
    if let value = object["defaultRegion"] {
      config.defaultRegion = try region(value, at: "defaultRegion")
    }
    if let value = object["maxRejectRatio"] {
      config.maxRejectRatio = try ratio(value, at: "maxRejectRatio")
    }
    if let value = object["maxRemovalRatio"] {
      config.maxRemovalRatio = try ratio(value, at: "maxRemovalRatio")
    }
    if let value = object["maxInvalidRatio"] {
      config.maxInvalidRatio = try ratio(value, at: "maxInvalidRatio")
    }
    if let value = object["deltaHistory"] {
      config.deltaHistory = try integer(
        value, at: "deltaHistory", minimum: 0, maximum: 1000)
    }
  }

  /// The keys that shape what a build publishes: the dataset, the
  /// extension limits, `fullEvery`, the manifest's lifetime and signing key,
  /// `maxRangeSize` and `liveCallerID`.
  func readOutputSettings(_ object: [String: JSONValue], into config: inout BuildConfig) throws(ConfigError) {
    if let value = object["dataset"] {
      config.dataset = try dataset(value, at: "dataset")
    }
    if let value = object["maxEntriesPerExtension"] {
      config.maxEntriesPerExtension = try integer(
        value, at: "maxEntriesPerExtension", minimum: 1,
        maximum: BuildConfig.Defaults.extensionEntryLimit)
    }
    if let value = object["maxExtensions"] {
      config.maxExtensions = try integer(value, at: "maxExtensions", minimum: 1, maximum: 1000)
    }
    if let value = object["fullEvery"] {
      config.fullEvery = try integer(value, at: "fullEvery", minimum: 1, maximum: 100_000)
    }
    if let value = object["manifestLifetimeDays"] {
      config.manifestLifetimeDays = try integer(
        value, at: "manifestLifetimeDays", minimum: 1, maximum: BuildConfig.Defaults.manifestLifetimeDaysLimit)
    }
    if let value = object["signingKey"] {
      let path = try string(value, at: "signingKey")
      if path.isEmpty { throw .invalidValue(keyPath: "signingKey", reason: "must not be empty") }
      config.signingKey = _resolve(path, against: baseDirectory)
    }
    if let value = object["maxRangeSize"] {
      config.maxRangeSize = Int64(try integer(
        value, at: "maxRangeSize", minimum: 1, maximum: Int.max))
    }
    if let value = object["liveCallerID"] {
      config.liveCallerID = try LiveCallerIDSettings.parse(value, at: "liveCallerID")
    }
  }

  /// The `sources` array, each entry parsed in order.
  func sources(_ value: JSONValue?, defaultRegion: String) throws(ConfigError) -> [SourceSpec] {
    guard let sourcesValue = value else {
      throw .missingKey(keyPath: "", key: "sources", note: nil)
    }
    guard case .array(let entries) = sourcesValue else {
      throw .wrongType(
        keyPath: "sources", expected: "an array",
        found: sourcesValue.typeName)
    }
    if entries.isEmpty {
      throw .invalidValue(
        keyPath: "sources", reason: "must list at least one source")
    }
    var sources: [SourceSpec] = []
    for (index, entry) in entries.enumerated() {
      sources.append(try source(entry, index: index, defaultRegion: defaultRegion))
    }
    return sources
  }

  /// A file read by several sources (one feeding two lists) is named with
  /// its list wherever its messages and rejects could be mistaken.
  static func markSharedPaths(_ sources: inout [SourceSpec]) {
    let paths = Dictionary(sources.map { ($0.path, 1) }, uniquingKeysWith: +)
    for index in sources.indices where paths[sources[index].path, default: 0] > 1 {
      sources[index].sharesPath = true
    }
  }

  func source(
    _ value: JSONValue, index: Int, defaultRegion: String
  ) throws(ConfigError) -> SourceSpec {
    let at = "sources[\(index)]"
    let object = try sourceObject(value, at: at)
    let format = try sourceFormat(object, at: at)
    let rawPath = try sourcePath(object, at: at)
    let list = try sourceList(object, at: at)

    // region, priority
    var sourceRegion = format.preset?.region ?? defaultRegion
    if let value = object["region"] {
      sourceRegion = try region(value, at: "\(at).region")
    }
    var priority = 0
    if let value = object["priority"] {
      priority = try integer(
        value, at: "\(at).priority", minimum: -1_000_000,
        maximum: 1_000_000)
    }
    var maxRemovalRatio: Double?
    if let value = object["maxRemovalRatio"] {
      maxRemovalRatio = try ratio(value, at: "\(at).maxRemovalRatio")
    }

    let options = try formatOptions(object, format: format, list: list, at: at)
    let evidence = try evidenceRules(object, at: at, list: list, options: options)
    try checkRanges(options, list: list, evidence: evidence, at: at)
    try checkLabels(format, options: options, list: list, at: at)
    var spec = SourceSpec(
      index: index, path: _resolve(rawPath, against: baseDirectory),
      format: format.name, list: list, region: sourceRegion,
      priority: priority, options: options, writtenPath: rawPath,
      maxRemovalRatio: maxRemovalRatio)
    spec.evidence = evidence
    spec.regionIsDefault = object["region"] == nil && format.preset?.region == nil
    spec.numberRules = try NumberRules.parse(object, at: at)
    try identityKeys(object, at: at, list: list, into: &spec)
    do {
      _ = try format.makeReader(input: spec.input, options: options)
    } catch {
      throw .invalidValue(keyPath: "\(at).\(error.key)", reason: error.reason)
    }
    return spec
  }

  /// A source entry as an object, its keys checked against the common keys
  /// and every format's options (suggestions from its own format's).
  func sourceObject(_ value: JSONValue, at: String) throws(ConfigError) -> [String: JSONValue] {
    guard case .object(let members) = value else {
      throw .wrongType(
        keyPath: at, expected: "an object", found: value.typeName)
    }
    let object = Dictionary(members, uniquingKeysWith: { first, _ in first })
    let allKeys = Self.commonSourceKeys + registry.allOptionNames
    var format: SourceFormat?
    if case .string(let name)? = object["format"] { format = registry[name] }
    let suggestKeys =
      Self.commonSourceKeys
      + (format?.options.map(\.name) ?? registry.allOptionNames)
    try checkUnknownKeys(
      object, prefix: "\(at).", known: allKeys, suggestFrom: suggestKeys)
    return object
  }

  /// The source's `format`, which must be known and support every option
  /// key the source sets.
  func sourceFormat(_ object: [String: JSONValue], at: String) throws(ConfigError) -> SourceFormat {
    guard let formatValue = object["format"] else {
      throw .missingKey(keyPath: at, key: "format", note: nil)
    }
    let formatName = try string(formatValue, at: "\(at).format")
    guard let format = registry[formatName] else {
      var reason =
        "unknown format '\(formatName)' (expected one of: "
        + registry.names.joined(separator: ", ") + ")"
      if let hint = _suggestion(for: formatName, among: registry.names) {
        reason += "; did you mean '\(hint)'?"
      }
      throw .invalidValue(keyPath: "\(at).format", reason: reason)
    }
    let optionNames = Set(format.options.map(\.name))
    for key in object.keys.sorted()
    where !Self.commonSourceKeys.contains(key) && !optionNames.contains(key) {
      throw .unsupportedKey(keyPath: "\(at).\(key)", format: format.name)
    }
    return format
  }

  /// The source's `path` as written: not empty, no nul character.
  func sourcePath(_ object: [String: JSONValue], at: String) throws(ConfigError) -> String {
    guard let pathValue = object["path"] else {
      throw .missingKey(keyPath: at, key: "path", note: nil)
    }
    let rawPath = try string(pathValue, at: "\(at).path")
    if rawPath.isEmpty {
      throw .invalidValue(keyPath: "\(at).path", reason: "must not be empty")
    }
    if rawPath.contains("\u{0}") {
      throw .invalidValue(
        keyPath: "\(at).path", reason: "must not contain a nul character")
    }
    return rawPath
  }

  /// The source's `list`.
  func sourceList(_ object: [String: JSONValue], at: String) throws(ConfigError) -> SourceList {
    guard let listValue = object["list"] else {
      throw .missingKey(keyPath: at, key: "list", note: nil)
    }
    let listName = try string(listValue, at: "\(at).list")
    guard let list = SourceList(rawValue: listName) else {
      let names = SourceList.allCases.map(\.rawValue).sorted()
      var reason =
        "unknown list '\(listName)' (expected one of: "
        + names.joined(separator: ", ") + ")"
      if let hint = _suggestion(for: listName, among: names) {
        reason += "; did you mean '\(hint)'?"
      }
      throw .invalidValue(keyPath: "\(at).list", reason: reason)
    }
    return list
  }

  /// The format's options the source sets (required ones checked), with
  /// the format's preset applied over them.
  func formatOptions(
    _ object: [String: JSONValue], format: SourceFormat, list: SourceList, at: String
  ) throws(ConfigError) -> SourceOptions {
    var options: SourceOptions = [:]
    for option in format.options {
      guard let value = object[option.name] else {
        if option.isRequired, !option.alternatives.contains(where: { object[$0] != nil }) {
          throw .missingKey(
            keyPath: at, key: option.name,
            note: "required by format '\(format.name)'")
        }
        continue
      }
      options[value: option.name] = try optionValue(value, kind: option.kind, at: "\(at).\(option.name)")
    }
    if let preset = format.preset {
      do {
        options = try preset.options(over: options, list: list)
      } catch {
        throw .invalidValue(keyPath: "\(at).\(error.key)", reason: error.reason)
      }
    }
    return options
  }

  /// A source of ranges (`rangeStart`, a wildcard block, a range written in
  /// one cell) cannot feed the identify list, nor count reports.
  func checkRanges(
    _ options: SourceOptions, list: SourceList, evidence: EvidenceRules, at: String
  ) throws(ConfigError) {
    if list == .identify, options[value: "rangeStart"] != nil {
      throw .invalidValue(
        keyPath: "\(at).rangeStart",
        reason: "a range cannot carry a label, so it cannot feed the 'identify' list")
    }
    for key in ["wildcard", "rangeSeparator"] where options[key] != nil {
      if list == .identify {
        throw .invalidValue(
          keyPath: "\(at).\(key)",
          reason: "a range cannot carry a label, so it cannot feed the 'identify' list")
      }
      if !evidence.isDefault || options["dateColumn"] != nil {
        throw .invalidValue(
          keyPath: "\(at).\(key)",
          reason: "reports are counted per number, so a source of ranges cannot use evidence rules or dateColumn")
      }
    }
  }

  /// An identify source's format must give labels (its label column set).
  func checkLabels(
    _ format: SourceFormat, options: SourceOptions, list: SourceList, at: String
  ) throws(ConfigError) {
    guard list == .identify else { return }
    switch format.labels {
    case .none:
      throw .invalidValue(
        keyPath: "\(at).list",
        reason: "format '\(format.name)' has no labels, so it cannot "
          + "feed the 'identify' list")
    case .column(let option) where options[option] == nil:
      throw .missingKey(
        keyPath: at, key: option,
        note: "the 'identify' list needs labels")
    case .column, .intrinsic:
      break
    }
  }

  /// `category` and `icon`, which only an identify source may set.
  func identityKeys(
    _ object: [String: JSONValue], at: String, list: SourceList, into spec: inout SourceSpec
  ) throws(ConfigError) {
    for key in ["category", "icon"] where object[key] != nil && list != .identify {
      throw .invalidValue(
        keyPath: "\(at).\(key)", reason: "only an 'identify' source names callers, so '\(key)' belongs on one")
    }
    if let value = object["category"] {
      let name = try string(value, at: "\(at).category")
      let names = ["person", "business"]
      guard let category = IdentityCategory.allCases.first(where: { $0.name == name && $0 != .unspecified }) else {
        var reason = "unknown category '\(name)' (expected one of: \(names.joined(separator: ", ")))"
        if let hint = _suggestion(for: name, among: names) { reason += "; did you mean '\(hint)'?" }
        throw .invalidValue(keyPath: "\(at).category", reason: reason)
      }
      spec.category = category
    }
    if let value = object["icon"] {
      let path = try string(value, at: "\(at).icon")
      if path.isEmpty || path.contains("\u{0}") {
        throw .invalidValue(keyPath: "\(at).icon", reason: "must be a file's path (not empty, no nul character)")
      }
      spec.icon = _resolve(path, against: baseDirectory)
      spec.writtenIcon = path
    }
  }

  /// `minReports`, `maxAgeDays` and `labelPolicy`.
  func evidenceRules(
    _ object: [String: JSONValue], at: String, list: SourceList, options: SourceOptions
  ) throws(ConfigError) -> EvidenceRules {
    var rules = EvidenceRules()
    if let value = object["minReports"] {
      rules.minReports = try integer(value, at: "\(at).minReports", minimum: 1, maximum: 1_000_000)
    }
    if let value = object["maxAgeDays"] {
      rules.maxAgeDays = try integer(value, at: "\(at).maxAgeDays", minimum: 0, maximum: 1_000_000)
      if options["dateColumn"] == nil {
        throw .missingKey(keyPath: at, key: "dateColumn", note: "maxAgeDays counts reports by their date")
      }
    }
    if let value = object["labelPolicy"] {
      let name = try string(value, at: "\(at).labelPolicy")
      guard let policy = LabelPolicy(rawValue: name) else {
        let names = LabelPolicy.allCases.map(\.rawValue)
        var reason = "unknown label policy '\(name)' (expected one of: \(names.joined(separator: ", ")))"
        if let hint = _suggestion(for: name, among: names) { reason += "; did you mean '\(hint)'?" }
        throw .invalidValue(keyPath: "\(at).labelPolicy", reason: reason)
      }
      if list != .identify {
        throw .invalidValue(keyPath: "\(at).labelPolicy", reason: "only an 'identify' source has labels to choose from")
      }
      rules.labelPolicy = policy
    }
    if !rules.isDefault || options["dateColumn"] != nil, options[value: "rangeStart"] != nil {
      throw .invalidValue(
        keyPath: "\(at).\(object["minReports"] != nil ? "minReports" : object["maxAgeDays"] != nil ? "maxAgeDays" : "dateColumn")",
        reason: "reports are counted per number, so a range source cannot use evidence rules")
    }
    return rules
  }

  // MARK: - Values

  /// A format option's value, checked against its kind.
  func optionValue(
    _ value: JSONValue, kind: SourceFormat.Option.Kind, at keyPath: String
  ) throws(ConfigError) -> SourceOptionValue {
    switch kind {
    case .string:
      let text = try string(value, at: keyPath)
      if text.isEmpty { throw .invalidValue(keyPath: keyPath, reason: "must not be empty") }
      return .string(text)
    case .text:
      return .string(try string(value, at: keyPath))
    case .stringArraysByKey:
      let members = try nonEmptyObject(value, at: keyPath)
      var result: [String: SourceOptionValue] = [:]
      for (key, member) in members {
        guard case .array(let items) = member else {
          throw .wrongType(keyPath: "\(keyPath).\(key)", expected: "an array of strings", found: member.typeName)
        }
        if items.isEmpty {
          throw .invalidValue(keyPath: "\(keyPath).\(key)", reason: "must list at least one value")
        }
        var list: [String] = []
        for (index, item) in items.enumerated() {
          list.append(try string(item, at: "\(keyPath).\(key)[\(index)]"))
        }
        result[key] = .strings(list)
      }
      return .object(result)
    case .stringsByKey:
      let members = try nonEmptyObject(value, at: keyPath)
      var result: [String: SourceOptionValue] = [:]
      for (key, member) in members {
        result[key] = .string(try region(member, at: "\(keyPath).\(key)"))
      }
      return .object(result)
    case .textByKey:
      let members = try nonEmptyObject(value, at: keyPath)
      var result: [String: SourceOptionValue] = [:]
      for (key, member) in members {
        result[key] = .string(try string(member, at: "\(keyPath).\(key)"))
      }
      return .object(result)
    case .stringOrStrings:
      if case .array = value { return try optionValue(value, kind: .strings, at: keyPath) }
      return try optionValue(value, kind: .string, at: keyPath)
    case .strings:
      guard case .array(let items) = value else {
        throw .wrongType(keyPath: keyPath, expected: "an array of strings", found: value.typeName)
      }
      if items.isEmpty { throw .invalidValue(keyPath: keyPath, reason: "must list at least one value") }
      var list: [String] = []
      for (index, item) in items.enumerated() {
        let text = try string(item, at: "\(keyPath)[\(index)]")
        if text.isEmpty { throw .invalidValue(keyPath: "\(keyPath)[\(index)]", reason: "must not be empty") }
        list.append(text)
      }
      return .strings(list)
    }
  }

  /// A non-empty object whose keys are non-empty column names or values.
  func nonEmptyObject(
    _ value: JSONValue, at keyPath: String
  ) throws(ConfigError) -> [(key: String, value: JSONValue)] {
    guard case .object(let members) = value else {
      throw .wrongType(keyPath: keyPath, expected: "an object", found: value.typeName)
    }
    if members.isEmpty {
      throw .invalidValue(keyPath: keyPath, reason: "must not be empty")
    }
    if members.contains(where: { $0.key.isEmpty }) {
      throw .invalidValue(keyPath: keyPath, reason: "keys must not be empty")
    }
    return members
  }

  func checkUnknownKeys(
    _ object: [String: JSONValue], prefix: String, known: [String],
    suggestFrom: [String]
  ) throws(ConfigError) {
    for key in object.keys.sorted() where !known.contains(key) {
      throw .unknownKey(
        keyPath: "\(prefix)\(key)",
        suggestion: _suggestion(for: key, among: suggestFrom))
    }
  }

  func string(_ value: JSONValue, at keyPath: String) throws(ConfigError)
    -> String
  {
    guard case .string(let text) = value else {
      throw .wrongType(
        keyPath: keyPath, expected: "a string", found: value.typeName)
    }
    return text
  }

  func region(_ value: JSONValue, at keyPath: String) throws(ConfigError)
    -> String
  {
    let text = try string(value, at: keyPath)
    let scalars = Array(text.unicodeScalars)
    let isCode =
      scalars.count == 2
      && scalars.allSatisfy { ("A"..."Z").contains($0) }
    guard isCode else {
      var reason =
        "invalid region '\(text)' (expected two uppercase "
        + "letters such as 'US', or 'ZZ' for none)"
      let upper = text.uppercased()
      if upper != text, upper.unicodeScalars.count == 2,
        upper.unicodeScalars.allSatisfy({ ("A"..."Z").contains($0) })
      {
        reason += "; did you mean '\(upper)'?"
      }
      throw .invalidValue(keyPath: keyPath, reason: reason)
    }
    return text
  }

  /// A dataset name: 1 to 64 bytes of UTF-8, printable, such as
  /// `com.example.blocklist` (it goes into every blob's header).
  func dataset(_ value: JSONValue, at keyPath: String) throws(ConfigError) -> String {
    let text = try string(value, at: keyPath)
    guard !text.isEmpty, text.utf8.count <= 64,
      !text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F || $0 == " " })
    else {
      throw .invalidValue(
        keyPath: keyPath,
        reason: "must be 1 to 64 bytes without spaces or control characters, such as 'com.example.blocklist'")
    }
    return text
  }

  func ratio(_ value: JSONValue, at keyPath: String) throws(ConfigError)
    -> Double
  {
    let number: Double
    switch value {
    case .int(let integer): number = Double(integer)
    case .double(let double): number = double
    default:
      throw .wrongType(
        keyPath: keyPath, expected: "a number", found: value.typeName)
    }
    guard number >= 0, number <= 1 else {
      throw .invalidValue(
        keyPath: keyPath, reason: "must be between 0 and 1, got \(number)")
    }
    return number
  }

  func integer(
    _ value: JSONValue, at keyPath: String, minimum: Int, maximum: Int
  ) throws(ConfigError) -> Int {
    guard case .int(let integer) = value else {
      throw .wrongType(
        keyPath: keyPath, expected: "an integer", found: value.typeName)
    }
    guard integer >= Int64(minimum), integer <= Int64(maximum) else {
      throw .invalidValue(
        keyPath: keyPath,
        reason: "must be between \(minimum) and \(maximum), got \(integer)")
    }
    return Int(integer)
  }
}

// MARK: - Files and paths

/// Reads a whole config file (at most 16 MiB), front to back once.
private func _readConfigFile(_ path: String) throws(ConfigError) -> [UInt8] {
  do {
    return try FileSystem.contents(of: path)
  } catch {
    throw .unreadable(error.errno == .fileTooLarge ? FileError(operation: "read", path: path, errno: .fileTooLarge, detail: "file too large") : error)
  }
}

/// `path` made absolute against the working directory, `.`/`..` removed.
package func _absolutePath(_ path: String) -> String {
  if path.hasPrefix("/") { return _normalize(path) }
  return _normalize(CurrentProcess.workingDirectory + "/" + path)
}

/// `path` resolved against `directory` unless it is absolute.
func _resolve(_ path: String, against directory: String) -> String {
  path.hasPrefix("/") ? _normalize(path) : _normalize(directory + "/" + path)
}

/// Removes empty, `.` and `..` components lexically.
func _normalize(_ path: String) -> String {
  var parts: [Substring] = []
  for part in path.split(separator: "/", omittingEmptySubsequences: true) {
    if part == "." { continue }
    if part == ".." {
      if !parts.isEmpty { parts.removeLast() }
      continue
    }
    parts.append(part)
  }
  return "/" + parts.joined(separator: "/")
}

/// The directory part of an absolute path.
func _directoryName(_ path: String) -> String {
  guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else {
    return "/"
  }
  return String(path[..<slash])
}
