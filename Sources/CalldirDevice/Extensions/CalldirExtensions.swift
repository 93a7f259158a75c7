/// How calldir names the Call Directory extensions of a simulated device:
/// `calldir.extension.1`, `calldir.extension.2`, …, one per shard of a
/// store (extension i holds shard i; an unsharded store has extension 1).
public enum CalldirExtensions {
  /// Every identifier is this prefix followed by the extension's index.
  public static let identifierPrefix = "calldir.extension."

  /// The identifier of extension `index` (1-based).
  public static func identifier(ofExtension index: Int) -> String { identifierPrefix + String(index) }

  /// The index of a calldir extension's identifier; nil for another name.
  public static func index(of identifier: String) -> Int? {
    guard identifier.hasPrefix(identifierPrefix) else { return nil }
    return Int(identifier.dropFirst(identifierPrefix.count))
  }

  /// `identifiers` with calldir's first, by index, then any others by name.
  public static func sorted(_ identifiers: [String]) -> [String] {
    identifiers.sorted { a, b in
      switch (index(of: a), index(of: b)) {
      case (let x?, let y?): x < y
      case (.some, nil): true
      case (nil, .some): false
      case (nil, nil): a < b
      }
    }
  }
}
