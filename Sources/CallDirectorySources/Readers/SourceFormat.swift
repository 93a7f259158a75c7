/// Describes one source format: its name, the options a config may set and
/// how to build its reader.
///
/// Adding a format means registering a new `SourceFormat` in a
/// ``SourceFormatRegistry``; neither the config parser nor the compiler
/// changes.
///
///     var registry = SourceFormatRegistry.standard
///     registry.register(SourceFormat(
///       name: "markdown", summary: "a table with a number column",
///       options: [.init(name: "number", isRequired: true,
///                       summary: "column header")],
///       labels: .none) { input, options throws(SourceOptionError) in
///         MarkdownReader(input: input, column: options["number"] ?? "")
///       })
public struct SourceFormat: Sendable {
  /// Where a format's records get their labels.
  public enum Labels: Sendable, Hashable {
    /// The format has no labels; it cannot feed the `identify` list.
    case none
    /// Labels come from a column named by this option key (e.g. `label`);
    /// the `identify` list requires the option.
    case column(option: String)
    /// The format always carries labels (e.g. vCard `FN`).
    case intrinsic
  }

  /// A format-specific config key such as `number`, `label` or `delimiter`.
  public struct Option: Sendable, Hashable {
    /// The JSON shape of an option's value.
    public enum Kind: Sendable, Hashable {
      /// A non-empty string.
      case string
      /// A string, possibly empty (`records`: the JSON Pointer `""` is the
      /// whole document).
      case text
      /// An object whose values are non-empty arrays of strings (`where`).
      case stringArraysByKey
      /// An object whose values are region codes (`regions`).
      case stringsByKey
      /// A string, or a non-empty array of strings (`number`: one column or
      /// several).
      case stringOrStrings
      /// A non-empty array of non-empty strings (`operators`).
      case strings
      /// An object whose values are strings (`rewritePrefixes`).
      case textByKey
    }

    /// The JSON key inside a source entry.
    public var name: String
    /// Whether a source of this format must set it (unless it sets one of
    /// ``alternatives``).
    public var isRequired: Bool
    /// One line for help and schemas.
    public var summary: String
    /// The shape of the value.
    public var kind: Kind
    /// Keys that stand in for a required option: `number` is not needed
    /// when `rangeStart` is set.
    public var alternatives: [String]

    /// Creates an option; by default its value is a JSON string.
    public init(
      name: String, isRequired: Bool, summary: String, kind: Kind = .string, alternatives: [String] = []
    ) {
      self.name = name
      self.isRequired = isRequired
      self.summary = summary
      self.kind = kind
      self.alternatives = alternatives
    }
  }

  /// Builds a reader from the input and the option values a config set.
  public typealias Factory =
    @Sendable (
      _ input: SourceInput, _ options: SourceOptions
    ) throws(SourceOptionError) -> any SourceReader

  /// The `format` value in a config, lowercase.
  public var name: String
  /// One line describing the format.
  public var summary: String
  /// The format-specific keys a source entry may set.
  public var options: [Option]
  /// Where labels come from.
  public var labels: Labels
  /// Builds a reader.
  public var factory: Factory
  /// For a preset (`arcep-majnum`, `ftc-dnc`, …): the generic keys it
  /// stands for, which a source's own keys override.
  public var preset: Preset?

  /// Creates a format description.
  public init(
    name: String, summary: String, options: [Option] = [],
    labels: Labels = .none, preset: Preset? = nil, factory: @escaping Factory
  ) {
    self.name = name
    self.summary = summary
    self.options = options
    self.labels = labels
    self.preset = preset
    self.factory = factory
  }

  /// A named set of generic keys for a file people download as published.
  public struct Preset: Sendable {
    /// Option values the preset sets (`delimiter`, `encoding`, columns, …).
    public var options: SourceOptions
    /// More option values for a source that feeds the `identify` list
    /// (the label column).
    public var identifyOptions: SourceOptions
    /// The region of the file's national numbers, unless the source sets
    /// `region`.
    public var region: String?
    /// Turns the preset's own keys into generic ones (`operators` into a
    /// `where` on the operator column), after the source's keys were laid
    /// over ``options``.
    public var expand: @Sendable (inout SourceOptions) throws(SourceOptionError) -> Void

    /// Creates a preset.
    public init(
      options: SourceOptions, identifyOptions: SourceOptions = [:], region: String? = nil,
      expand: @escaping @Sendable (inout SourceOptions) throws(SourceOptionError) -> Void = { _ throws(SourceOptionError) in }
    ) {
      self.options = options
      self.identifyOptions = identifyOptions
      self.region = region
      self.expand = expand
    }

    /// The options of a source of this preset: the preset's values, the
    /// source's own over them, expanded.
    public func options(over own: SourceOptions, list: SourceList) throws(SourceOptionError) -> SourceOptions {
      var merged = options
      if list == .identify {
        for key in identifyOptions.keys { merged[value: key] = identifyOptions[value: key] }
      }
      for key in own.keys { merged[value: key] = own[value: key] }
      try expand(&merged)
      return merged
    }
  }

  /// Builds a reader for `input` with the given option values.
  ///
  /// - Throws: ``SourceOptionError`` when an option value is not usable.
  public func makeReader(
    input: SourceInput, options: SourceOptions = [:]
  ) throws(SourceOptionError) -> any SourceReader {
    try factory(input, options)
  }
}

/// An option value a format cannot use, e.g. a two-character delimiter.
public struct SourceOptionError: Error, Hashable, CustomStringConvertible {
  /// The option key.
  public var key: String
  /// Why the value is unusable, lowercase.
  public var reason: String

  /// Creates an error.
  public init(key: String, reason: String) {
    self.key = key
    self.reason = reason
  }

  /// `key: reason`.
  public var description: String { "\(key): \(reason)" }
}
