/// Hides the credentials a URL may carry (`http://user:password@host/`)
/// wherever calldir shows one: messages, `--json`, anything a device
/// keeps. The one place they are redacted; requests keep them.
public enum URLRedaction {
  /// What replaces a URL's user information.
  public static let placeholder = "***"

  /// `text` with the user information of every URL in it (what stands
  /// between `scheme://` and the last `@` of the authority) replaced by
  /// ``placeholder``: `http://***@host/`. Text without a URL is returned
  /// as it is.
  ///
  /// - Parameter isMalformed: The text is a URL that does not parse, whose
  ///   authority cannot be told from its path (`http://user:pa/ss@host/`):
  ///   everything up to its last `@` is hidden.
  public static func redacted(_ text: String, isMalformed: Bool = false) -> String {
    let characters = Array(text)
    var result: [Character] = []
    result.reserveCapacity(characters.count)
    var index = 0
    while index < characters.count {
      guard index + 3 <= characters.count, characters[index] == ":", characters[index + 1] == "/",
        characters[index + 2] == "/", index > 0, isSchemeCharacter(characters[index - 1])
      else {
        result.append(characters[index])
        index += 1
        continue
      }
      result.append(contentsOf: "://")
      let start = index + 3
      // The authority ends at the path, query or fragment, or at a blank.
      var end = start
      while end < characters.count, isMalformed || !"/?#".contains(characters[end]), !characters[end].isWhitespace,
        characters[end] != "'", characters[end] != "\""
      {
        end += 1
      }
      if let at = characters[start..<end].lastIndex(of: "@") {
        result.append(contentsOf: placeholder)
        result.append(contentsOf: characters[at..<end])
      } else {
        result.append(contentsOf: characters[start..<end])
      }
      index = end
    }
    return String(result)
  }

  private static func isSchemeCharacter(_ character: Character) -> Bool {
    character.isASCII && (character.isLetter || character.isNumber || "+-.".contains(character))
  }
}
