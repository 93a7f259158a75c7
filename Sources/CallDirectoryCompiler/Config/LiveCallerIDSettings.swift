import CallDirectorySources
import CalldirSystem

/// The config's `liveCallerID` object: how `calldir export live-caller-id`
/// turns a version into the inputs of Apple's `PIRProcessDatabase` for a
/// Live Caller ID Lookup extension. The build records it with each version
/// (as ``json``), and the export reads it from there, never from a config.
///
///     "liveCallerID": {
///       "useCase": "com.example.lookup",
///       "keywordForms": ["e164", "national"],
///       "cacheExpiryMinutes": 1440,
///       "block": {"shardCount": 16}
///     }
public struct LiveCallerIDSettings: Sendable, Hashable {
  /// How a number is written as a keyword: the text the phone asks about.
  public enum KeywordForm: String, Sendable, Hashable, CaseIterable {
    /// `+` and the E.164 digits: `+14085551212`. Always exported.
    case e164
    /// The digits of libphonenumber's national format: `02079460018`.
    case national
  }

  /// The settings of one use case (`block` or `identity`).
  public struct UseCase: Sendable, Hashable {
    /// The shard count the config fixes (a power of two); nil lets the
    /// first export choose it from the rows.
    public var shardCount: Int?

    public init(shardCount: Int? = nil) { self.shardCount = shardCount }
  }

  /// The values of keys the object omits.
  public enum Defaults {
    public static let keywordForms: [KeywordForm] = [.e164]
    /// A day.
    public static let cacheExpiryMinutes: UInt32 = 1440
    public static let rlweParameters = "n_4096_logq_27_28_28_logt_5"
    public static let trialsPerShard = 0
    /// Rows a use case may have before the export refuses it.
    public static let maxEntries = 100_000_000
    /// The largest shard count a config may fix.
    public static let maxShardCount = 65_536
  }

  /// The Live Caller ID Lookup extension's bundle identifier; the use cases
  /// are `<useCase>.block` and `<useCase>.identity`.
  public var useCase: String
  /// The forms each number is exported in, `e164` first.
  public var keywordForms: [KeywordForm]
  /// How long a phone may cache an identity (`CallIdentity.cache_expiry_minutes`).
  public var cacheExpiryMinutes: UInt32
  /// Apple's predefined RLWE parameters.
  public var rlweParameters: RLWEParameters
  /// `PIRProcessDatabase`'s self-test queries per shard.
  public var trialsPerShard: Int
  /// The most rows one use case may have.
  public var maxEntries: Int
  public var block: UseCase
  public var identity: UseCase

  public init(
    useCase: String, keywordForms: [KeywordForm] = Defaults.keywordForms,
    cacheExpiryMinutes: UInt32 = Defaults.cacheExpiryMinutes,
    rlweParameters: RLWEParameters = .default, trialsPerShard: Int = Defaults.trialsPerShard,
    maxEntries: Int = Defaults.maxEntries, block: UseCase = UseCase(), identity: UseCase = UseCase()
  ) {
    self.useCase = useCase
    self.keywordForms = keywordForms
    self.cacheExpiryMinutes = cacheExpiryMinutes
    self.rlweParameters = rlweParameters
    self.trialsPerShard = trialsPerShard
    self.maxEntries = maxEntries
    self.block = block
    self.identity = identity
  }

  /// The keys of the object.
  static let keys = [
    "useCase", "keywordForms", "cacheExpiryMinutes", "rlweParameters", "trialsPerShard", "maxEntries", "block",
    "identity",
  ]

  /// Every setting, defaults written out, in a fixed order: what the catalog
  /// records with a version (two configs that mean the same give the same
  /// text, so a build whose only change is to these settings is told by it).
  public var json: JSONValue {
    func useCaseJSON(_ settings: UseCase) -> JSONValue {
      ["shardCount": settings.shardCount.map { .int(Int64($0)) } ?? .null]
    }
    return [
      "useCase": .string(useCase),
      "keywordForms": .array(keywordForms.map { .string($0.rawValue) }),
      "cacheExpiryMinutes": .int(Int64(cacheExpiryMinutes)),
      "rlweParameters": .string(rlweParameters.name),
      "trialsPerShard": .int(Int64(trialsPerShard)),
      "maxEntries": .int(Int64(maxEntries)),
      "block": useCaseJSON(block),
      "identity": useCaseJSON(identity),
    ]
  }

  /// Reads the settings a version recorded (``json``'s text).
  /// - Throws: ``ConfigError`` naming the key at fault (`liveCallerID.…`).
  public init(recorded text: String) throws(ConfigError) {
    let value: JSONValue
    do {
      value = try JSONParser(maxDepth: 8).parse(Array(text.utf8))
    } catch {
      throw .invalidJSON(detail: "line \(error.line), column \(error.column): \(error.reasonText)")
    }
    self = try Self.parse(ConfigValue(value, path: "liveCallerID", failure: ConfigError.init))
  }

  /// Reads and checks the object `value` (`liveCallerID`).
  /// - Throws: ``ConfigError`` naming the key at fault.
  static func parse(_ value: ConfigValue) throws(ConfigError) -> LiveCallerIDSettings {
    let object = try value.object()
    try object.checkKnownKeys(keys, suggestingFrom: keys)
    guard let useCaseValue = object.member("useCase").ifNotNull else {
      throw .missingKey(keyPath: object.path, key: "useCase", note: "the Live Caller ID Lookup extension's bundle identifier")
    }
    var settings = LiveCallerIDSettings(useCase: try bundleIdentifier(useCaseValue))
    if let value = object.member("keywordForms").ifPresent {
      settings.keywordForms = try keywordForms(value)
    }
    if let value = object.member("cacheExpiryMinutes").ifPresent {
      settings.cacheExpiryMinutes = UInt32(try value.integer(between: 0, and: Int(UInt32.max)))
    }
    if let value = object.member("rlweParameters").ifPresent {
      let name = try value.string()
      guard let parameters = RLWEParameters(name: name) else {
        let names = RLWEParameters.all.map(\.name)
        var reason = "unknown RLWE parameters '\(name)' (expected one of Apple's predefined: "
          + names.joined(separator: ", ") + ")"
        if let hint = _suggestion(for: name, among: names) { reason += "; did you mean '\(hint)'?" }
        throw .invalidValue(keyPath: value.path, reason: reason)
      }
      settings.rlweParameters = parameters
    }
    if let value = object.member("trialsPerShard").ifPresent {
      settings.trialsPerShard = try value.integer(between: 0, and: 1000)
    }
    if let value = object.member("maxEntries").ifPresent {
      settings.maxEntries = try value.integer(between: 1, and: 1_000_000_000_000)
    }
    if let value = object.member("block").ifPresent { settings.block = try useCase(value) }
    if let value = object.member("identity").ifPresent { settings.identity = try useCase(value) }
    return settings
  }

  /// A bundle identifier: ASCII letters, digits, `-` and `.`, in
  /// non-empty dot-separated parts, at most 200 bytes (the use case names
  /// add `.identity`).
  private static func bundleIdentifier(_ value: ConfigValue) throws(ConfigError) -> String {
    let text = try value.string()
    let allowed = text.utf8.allSatisfy { byte in
      (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
        || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-")
        || byte == UInt8(ascii: ".")
    }
    let parts = text.split(separator: ".", omittingEmptySubsequences: false)
    guard !text.isEmpty, text.utf8.count <= 200, allowed, !parts.contains(where: \.isEmpty) else {
      throw .invalidValue(
        keyPath: value.path,
        reason: "'\(text)' is not a bundle identifier (letters, digits, '-' and '.', such as 'com.example.lookup')")
    }
    return text
  }

  private static func keywordForms(_ value: ConfigValue) throws(ConfigError) -> [KeywordForm] {
    var forms: Set<KeywordForm> = []
    let names = KeywordForm.allCases.map(\.rawValue)
    for element in try value.array(expected: "an array of strings") {
      let name = try element.string()
      guard let form = KeywordForm(rawValue: name) else {
        var reason = "unknown keyword form '\(name)' (expected one of: \(names.joined(separator: ", ")))"
        if let hint = _suggestion(for: name, among: names) { reason += "; did you mean '\(hint)'?" }
        throw .invalidValue(keyPath: element.path, reason: reason)
      }
      guard forms.insert(form).inserted else {
        throw .invalidValue(keyPath: element.path, reason: "'\(name)' is listed twice")
      }
    }
    guard forms.contains(.e164) else {
      throw .invalidValue(
        keyPath: value.path, reason: "must list 'e164': every number is exported as the phone presents it, '+' and its digits")
    }
    return KeywordForm.allCases.filter { forms.contains($0) }
  }

  private static func useCase(_ value: ConfigValue) throws(ConfigError) -> UseCase {
    let object = try value.object()
    try object.checkKnownKeys(["shardCount"], suggestingFrom: ["shardCount"])
    var settings = UseCase()
    if let value = object.member("shardCount").ifNotNull {
      let count = try value.integer(between: 1, and: Defaults.maxShardCount)
      guard count & (count - 1) == 0 else {
        throw .invalidValue(
          keyPath: value.path,
          reason: "must be a power of two (1, 2, 4, …), got \(count): one lookup's shard then implies the other's")
      }
      settings.shardCount = count
    }
    return settings
  }
}

/// One of Apple's predefined RLWE parameter sets
/// (`PredefinedRlweParameters` in swift-homomorphic-encryption), with what
/// sizing needs of it: the bytes one plaintext holds.
public struct RLWEParameters: Sendable, Hashable {
  /// The name `PIRProcessDatabase` reads (`n_4096_logq_27_28_28_logt_5`).
  public let name: String
  /// The polynomial degree N.
  public let polyDegree: Int
  /// log2 of the plaintext modulus t, rounded down (the bits one
  /// coefficient carries).
  public let plaintextBits: Int

  /// `polyDegree × plaintextBits / 8`, as Apple's `bytesPerPlaintext`.
  public var bytesPerPlaintext: Int { polyDegree * plaintextBits / 8 }

  /// The bits of each coefficient modulus, as the name spells them
  /// (`logq_27_28_28` → 27, 28, 28; `logq_3x55` → 55, 55, 55).
  public var coefficientModulusBits: [Int] {
    let parts = name.split(separator: "_")
    guard let start = parts.firstIndex(of: "logq"), let end = parts.firstIndex(of: "logt"), start < end else { return [] }
    return parts[(start + 1)..<end].flatMap { part -> [Int] in
      let pieces = part.split(separator: "x")
      if pieces.count == 2, let count = Int(pieces[0]), let bits = Int(pieces[1]) {
        return Array(repeating: bits, count: count)
      }
      return Int(part).map { [$0] } ?? []
    }
  }

  /// The set named `name`, nil for a name Apple does not predefine (or
  /// one of its insecure test sets).
  public init?(name: String) {
    guard let found = Self.all.first(where: { $0.name == name }) else { return nil }
    self = found
  }

  private init(_ name: String, degree: Int, plaintextModulus: UInt64) {
    self.name = name
    polyDegree = degree
    plaintextBits = 63 - plaintextModulus.leadingZeroBitCount
  }

  /// `n_4096_logq_27_28_28_logt_5`, Apple's example for Live Caller ID Lookup.
  public static let `default` = all[5]

  /// The secure sets of swift-homomorphic-encryption 6867588, with their
  /// plaintext moduli.
  public static let all: [RLWEParameters] = [
    RLWEParameters("n_4096_logq_16_33_33_logt_4", degree: 4096, plaintextModulus: 11),
    RLWEParameters("n_4096_logq_27_28_28_logt_13", degree: 4096, plaintextModulus: 4099),
    RLWEParameters("n_4096_logq_27_28_28_logt_16", degree: 4096, plaintextModulus: 40961),
    RLWEParameters("n_4096_logq_27_28_28_logt_17", degree: 4096, plaintextModulus: 65537),
    RLWEParameters("n_4096_logq_27_28_28_logt_4", degree: 4096, plaintextModulus: 11),
    RLWEParameters("n_4096_logq_27_28_28_logt_5", degree: 4096, plaintextModulus: 17),
    RLWEParameters("n_4096_logq_27_28_28_logt_6", degree: 4096, plaintextModulus: 37),
    RLWEParameters("n_8192_logq_28_60_60_logt_20", degree: 8192, plaintextModulus: 557_057),
    RLWEParameters("n_8192_logq_29_60_60_logt_15", degree: 8192, plaintextModulus: 16411),
    RLWEParameters("n_8192_logq_3x55_logt_24", degree: 8192, plaintextModulus: 8_404_993),
    RLWEParameters("n_8192_logq_3x55_logt_29", degree: 8192, plaintextModulus: 268_582_913),
    RLWEParameters("n_8192_logq_3x55_logt_30", degree: 8192, plaintextModulus: 536_903_681),
    RLWEParameters("n_8192_logq_3x55_logt_42", degree: 8192, plaintextModulus: 2_199_023_288_321),
    RLWEParameters("n_8192_logq_40_60_60_logt_26", degree: 8192, plaintextModulus: 33_832_961),
  ]
}

/// What kind of caller an identify source names: Live Caller ID Lookup's
/// `IdentityCategory`, from the source's `category` key.
public enum IdentityCategory: UInt8, Sendable, Hashable, CaseIterable {
  case unspecified = 0
  case person = 1
  case business = 2

  /// The config's spelling (`person`, `business`; `unspecified` for none).
  public var name: String {
    switch self {
    case .unspecified: "unspecified"
    case .person: "person"
    case .business: "business"
    }
  }
}
