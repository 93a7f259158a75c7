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
    let object = try ConfigValue(root, path: "", failure: ConfigError.init).object()
    try object.checkKnownKeys(Self.rootKeys + ["$schema"], suggestingFrom: Self.rootKeys)
    var config = BuildConfig(baseDirectory: baseDirectory)
    try readChecks(object, into: &config)
    try readOutputSettings(object, into: &config)
    config.sources = try sources(object.member("sources"), defaultRegion: config.defaultRegion)
    Self.markSharedPaths(&config.sources)
    return config
  }

  /// The keys that say how a build is checked: `defaultRegion`, the ratios
  /// and `deltaHistory`.
  func readChecks(_ object: ConfigValue, into config: inout BuildConfig) throws(ConfigError) {
    if let value = object.member("defaultRegion").ifPresent {
      config.defaultRegion = try region(value)
    }
    if let value = object.member("maxRejectRatio").ifPresent {
      config.maxRejectRatio = try value.ratio()
    }
    if let value = object.member("maxRemovalRatio").ifPresent {
      config.maxRemovalRatio = try value.ratio()
    }
    if let value = object.member("maxInvalidRatio").ifPresent {
      config.maxInvalidRatio = try value.ratio()
    }
    if let value = object.member("deltaHistory").ifPresent {
      config.deltaHistory = try value.integer(between: 0, and: 1000)
    }
  }

  /// The keys that shape what a build publishes: the dataset, the
  /// extension limits, `fullEvery`, the manifest's lifetime and signing key,
  /// `maxRangeSize` and `liveCallerID`.
  func readOutputSettings(_ object: ConfigValue, into config: inout BuildConfig) throws(ConfigError) {
    if let value = object.member("dataset").ifPresent {
      config.dataset = try dataset(value)
    }
    if let value = object.member("maxEntriesPerExtension").ifPresent {
      config.maxEntriesPerExtension = try value.integer(between: 1, and: BuildConfig.Defaults.extensionEntryLimit)
    }
    if let value = object.member("maxExtensions").ifPresent {
      config.maxExtensions = try value.integer(between: 1, and: 1000)
    }
    if let value = object.member("fullEvery").ifPresent {
      config.fullEvery = try value.integer(between: 1, and: 100_000)
    }
    if let value = object.member("manifestLifetimeDays").ifPresent {
      config.manifestLifetimeDays = try value.integer(
        between: 1, and: BuildConfig.Defaults.manifestLifetimeDaysLimit)
    }
    if let value = object.member("signingKey").ifPresent {
      let path = try value.string()
      if path.isEmpty { throw .invalidValue(keyPath: value.path, reason: "must not be empty") }
      config.signingKey = _resolve(path, against: baseDirectory)
    }
    if let value = object.member("maxRangeSize").ifPresent {
      config.maxRangeSize = Int64(try value.integer(between: 1, and: Int.max))
    }
    if let value = object.member("liveCallerID").ifPresent {
      config.liveCallerID = try LiveCallerIDSettings.parse(value)
    }
  }

  /// The `sources` array, each entry parsed in order.
  func sources(_ value: ConfigValue, defaultRegion: String) throws(ConfigError) -> [SourceSpec] {
    guard value.isPresent else {
      throw .missingKey(keyPath: "", key: "sources", note: nil)
    }
    let entries = try value.array()
    if entries.isEmpty {
      throw .invalidValue(
        keyPath: value.path, reason: "must list at least one source")
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
    _ value: ConfigValue, index: Int, defaultRegion: String
  ) throws(ConfigError) -> SourceSpec {
    let object = try sourceObject(value)
    let format = try sourceFormat(object)
    let rawPath = try sourcePath(object)
    let list = try sourceList(object)

    // region, priority
    var sourceRegion = format.preset?.region ?? defaultRegion
    if let value = object.member("region").ifPresent {
      sourceRegion = try region(value)
    }
    var priority = 0
    if let value = object.member("priority").ifPresent {
      priority = try value.integer(between: -1_000_000, and: 1_000_000)
    }
    var maxRemovalRatio: Double?
    if let value = object.member("maxRemovalRatio").ifPresent {
      maxRemovalRatio = try value.ratio()
    }

    let options = try formatOptions(object, format: format, list: list)
    let evidence = try evidenceRules(object, list: list, options: options)
    try checkRanges(options, list: list, evidence: evidence, at: object.path)
    try checkLabels(format, options: options, list: list, at: object.path)
    var spec = SourceSpec(
      index: index, path: _resolve(rawPath, against: baseDirectory),
      format: format.name, list: list, region: sourceRegion,
      priority: priority, options: options, writtenPath: rawPath,
      maxRemovalRatio: maxRemovalRatio)
    spec.evidence = evidence
    spec.regionIsDefault = !object.member("region").isPresent && format.preset?.region == nil
    spec.numberRules = try NumberRules.parse(object)
    try identityKeys(object, list: list, into: &spec)
    do {
      _ = try format.makeReader(input: spec.input, options: options)
    } catch {
      throw .invalidValue(keyPath: object.path(of: error.key), reason: error.reason)
    }
    return spec
  }

  /// A source entry as an object, its keys checked against the common keys
  /// and every format's options (suggestions from its own format's).
  func sourceObject(_ value: ConfigValue) throws(ConfigError) -> ConfigValue {
    let object = try value.object()
    var format: SourceFormat?
    if case .string(let name)? = object.member("format").value { format = registry[name] }
    try object.checkKnownKeys(
      Self.commonSourceKeys + registry.allOptionNames,
      suggestingFrom: Self.commonSourceKeys + (format?.options.map(\.name) ?? registry.allOptionNames))
    return object
  }

  /// The source's `format`, which must be known and support every option
  /// key the source sets.
  func sourceFormat(_ object: ConfigValue) throws(ConfigError) -> SourceFormat {
    let formatValue = try object.required("format")
    let formatName = try formatValue.string()
    guard let format = registry[formatName] else {
      var reason =
        "unknown format '\(formatName)' (expected one of: "
        + registry.names.joined(separator: ", ") + ")"
      if let hint = _suggestion(for: formatName, among: registry.names) {
        reason += "; did you mean '\(hint)'?"
      }
      throw .invalidValue(keyPath: formatValue.path, reason: reason)
    }
    if let key = object.unknownKey(among: Self.commonSourceKeys + format.options.map(\.name)) {
      throw .unsupportedKey(keyPath: object.path(of: key), format: format.name)
    }
    return format
  }

  /// The source's `path` as written: not empty, no nul character.
  func sourcePath(_ object: ConfigValue) throws(ConfigError) -> String {
    let pathValue = try object.required("path")
    let rawPath = try pathValue.string()
    if rawPath.isEmpty {
      throw .invalidValue(keyPath: pathValue.path, reason: "must not be empty")
    }
    if rawPath.contains("\u{0}") {
      throw .invalidValue(
        keyPath: pathValue.path, reason: "must not contain a nul character")
    }
    return rawPath
  }

  /// The source's `list`.
  func sourceList(_ object: ConfigValue) throws(ConfigError) -> SourceList {
    let listValue = try object.required("list")
    let listName = try listValue.string()
    guard let list = SourceList(rawValue: listName) else {
      let names = SourceList.allCases.map(\.rawValue).sorted()
      var reason =
        "unknown list '\(listName)' (expected one of: "
        + names.joined(separator: ", ") + ")"
      if let hint = _suggestion(for: listName, among: names) {
        reason += "; did you mean '\(hint)'?"
      }
      throw .invalidValue(keyPath: listValue.path, reason: reason)
    }
    return list
  }

  /// The format's options the source sets (required ones checked), with
  /// the format's preset applied over them.
  func formatOptions(
    _ object: ConfigValue, format: SourceFormat, list: SourceList
  ) throws(ConfigError) -> SourceOptions {
    var options: SourceOptions = [:]
    for option in format.options {
      guard let value = object.member(option.name).ifPresent else {
        if option.isRequired, !option.alternatives.contains(where: { object.member($0).isPresent }) {
          throw .missingKey(
            keyPath: object.path, key: option.name,
            note: "required by format '\(format.name)'")
        }
        continue
      }
      options[value: option.name] = try optionValue(value, kind: option.kind)
    }
    if let preset = format.preset {
      do {
        options = try preset.options(over: options, list: list)
      } catch {
        throw .invalidValue(keyPath: object.path(of: error.key), reason: error.reason)
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
    _ object: ConfigValue, list: SourceList, into spec: inout SourceSpec
  ) throws(ConfigError) {
    for key in ["category", "icon"] where object.member(key).isPresent && list != .identify {
      throw .invalidValue(
        keyPath: object.path(of: key), reason: "only an 'identify' source names callers, so '\(key)' belongs on one")
    }
    if let value = object.member("category").ifPresent {
      let name = try value.string()
      let names = ["person", "business"]
      guard let category = IdentityCategory.allCases.first(where: { $0.name == name && $0 != .unspecified }) else {
        var reason = "unknown category '\(name)' (expected one of: \(names.joined(separator: ", ")))"
        if let hint = _suggestion(for: name, among: names) { reason += "; did you mean '\(hint)'?" }
        throw .invalidValue(keyPath: value.path, reason: reason)
      }
      spec.category = category
    }
    if let value = object.member("icon").ifPresent {
      let path = try value.string()
      if path.isEmpty || path.contains("\u{0}") {
        throw .invalidValue(keyPath: value.path, reason: "must be a file's path (not empty, no nul character)")
      }
      spec.icon = _resolve(path, against: baseDirectory)
      spec.writtenIcon = path
    }
  }

  /// `minReports`, `maxAgeDays` and `labelPolicy`.
  func evidenceRules(
    _ object: ConfigValue, list: SourceList, options: SourceOptions
  ) throws(ConfigError) -> EvidenceRules {
    var rules = EvidenceRules()
    if let value = object.member("minReports").ifPresent {
      rules.minReports = try value.integer(between: 1, and: 1_000_000)
    }
    if let value = object.member("maxAgeDays").ifPresent {
      rules.maxAgeDays = try value.integer(between: 0, and: 1_000_000)
      if options["dateColumn"] == nil {
        throw .missingKey(keyPath: object.path, key: "dateColumn", note: "maxAgeDays counts reports by their date")
      }
    }
    if let value = object.member("labelPolicy").ifPresent {
      let name = try value.string()
      guard let policy = LabelPolicy(rawValue: name) else {
        let names = LabelPolicy.allCases.map(\.rawValue)
        var reason = "unknown label policy '\(name)' (expected one of: \(names.joined(separator: ", ")))"
        if let hint = _suggestion(for: name, among: names) { reason += "; did you mean '\(hint)'?" }
        throw .invalidValue(keyPath: value.path, reason: reason)
      }
      if list != .identify {
        throw .invalidValue(keyPath: value.path, reason: "only an 'identify' source has labels to choose from")
      }
      rules.labelPolicy = policy
    }
    if !rules.isDefault || options["dateColumn"] != nil, options[value: "rangeStart"] != nil {
      let key = ["minReports", "maxAgeDays"].first { object.member($0).isPresent } ?? "dateColumn"
      throw .invalidValue(
        keyPath: object.path(of: key), reason: "reports are counted per number, so a range source cannot use evidence rules")
    }
    return rules
  }

  // MARK: - Values

  /// A format option's value, checked against its kind.
  func optionValue(
    _ value: ConfigValue, kind: SourceFormat.Option.Kind
  ) throws(ConfigError) -> SourceOptionValue {
    switch kind {
    case .string:
      let text = try value.string()
      if text.isEmpty { throw .invalidValue(keyPath: value.path, reason: "must not be empty") }
      return .string(text)
    case .text:
      return .string(try value.string())
    case .stringArraysByKey:
      var result: [String: SourceOptionValue] = [:]
      for (key, member) in try nonEmptyObject(value) {
        let items = try member.array(expected: "an array of strings")
        if items.isEmpty {
          throw .invalidValue(keyPath: member.path, reason: "must list at least one value")
        }
        var list: [String] = []
        for item in items { list.append(try item.string()) }
        result[key] = .strings(list)
      }
      return .object(result)
    case .stringsByKey:
      var result: [String: SourceOptionValue] = [:]
      for (key, member) in try nonEmptyObject(value) {
        result[key] = .string(try region(member))
      }
      return .object(result)
    case .textByKey:
      var result: [String: SourceOptionValue] = [:]
      for (key, member) in try nonEmptyObject(value) {
        result[key] = .string(try member.string())
      }
      return .object(result)
    case .stringOrStrings:
      if case .array? = value.value { return try optionValue(value, kind: .strings) }
      return try optionValue(value, kind: .string)
    case .strings:
      let items = try value.array(expected: "an array of strings")
      if items.isEmpty { throw .invalidValue(keyPath: value.path, reason: "must list at least one value") }
      var list: [String] = []
      for item in items {
        let text = try item.string()
        if text.isEmpty { throw .invalidValue(keyPath: item.path, reason: "must not be empty") }
        list.append(text)
      }
      return .strings(list)
    }
  }

  /// A non-empty object whose keys are non-empty column names or values.
  func nonEmptyObject(_ value: ConfigValue) throws(ConfigError) -> [(key: String, value: ConfigValue)] {
    let members = try value.members()
    if members.isEmpty {
      throw .invalidValue(keyPath: value.path, reason: "must not be empty")
    }
    if members.contains(where: { $0.key.isEmpty }) {
      throw .invalidValue(keyPath: value.path, reason: "keys must not be empty")
    }
    return members
  }

  func region(_ value: ConfigValue) throws(ConfigError) -> String {
    let text = try value.string()
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
      throw .invalidValue(keyPath: value.path, reason: reason)
    }
    return text
  }

  /// A dataset name: 1 to 64 bytes of UTF-8, printable, such as
  /// `com.example.blocklist` (it goes into every blob's header).
  func dataset(_ value: ConfigValue) throws(ConfigError) -> String {
    let text = try value.string()
    guard !text.isEmpty, text.utf8.count <= 64,
      !text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F || $0 == " " })
    else {
      throw .invalidValue(
        keyPath: value.path,
        reason: "must be 1 to 64 bytes without spaces or control characters, such as 'com.example.blocklist'")
    }
    return text
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
