import CallDirectoryCompiler
import CallDirectorySources
import CalldirSystem

/// The option bytes of the json-document harness, decoded, and the bytes a
/// seed's readable header encodes to (`Tests/Fuzz/Seeds/json-document`).
///
/// Byte 0 picks the `json` source's keys: bits 0–1 `records`
/// (`pointers`), bits 2–3 `number` (`numbers`, index 0: left out), bit 4
/// `label` `name` (only with a number), bit 5 `wildcard` `#`. Byte 1 picks
/// the tokenizer's window: bits 0–2 the chunk size it is refilled by
/// (`chunkSizes`), bits 3–4 the nesting limit (`depths`). The rest is the
/// document.
struct JSONDocumentOptions: Equatable {
  static let pointers = ["", "/data", "/a~1b/0", "/data/records"]
  static let numbers: [String?] = [nil, "pattern", "/contact/phones", "n"]
  static let chunkSizes = [1 << 16, 1, 2, 3, 5, 7, 64, 4096]
  static let depths = [512, 4, 16, 64]

  var records = ""
  var number: String?
  var label = false
  var wildcard = false
  var chunkSize = 1 << 16
  var maxDepth = 512

  init() {}

  /// Decodes the option bytes at the front of `input`, as the harness does.
  init(_ input: inout FuzzInput) {
    let keys = Int(input.takeByte())
    let window = Int(input.takeByte())
    records = Self.pointers[keys & 3]
    number = Self.numbers[(keys >> 2) & 3]
    label = keys & 0x10 != 0 && number != nil
    wildcard = keys & 0x20 != 0
    chunkSize = Self.chunkSizes[window & 7]
    maxDepth = Self.depths[(window >> 3) & 3]
  }

  /// The options the `json` reader gets.
  var sourceOptions: SourceOptions {
    var options: SourceOptions = ["records": .string(records)]
    options["number"] = number
    if label { options["label"] = "name" }
    if wildcard { options["wildcard"] = "#" }
    return options
  }

  /// The option bytes that decode to these options (nil: no bytes do).
  var bytes: [UInt8]? {
    guard let pointer = Self.pointers.firstIndex(of: records), let numberIndex = Self.numbers.firstIndex(of: number),
      let chunk = Self.chunkSizes.firstIndex(of: chunkSize), let depth = Self.depths.firstIndex(of: maxDepth),
      !label || number != nil
    else { return nil }
    return [
      UInt8(pointer | numberIndex << 2 | (label ? 0x10 : 0) | (wildcard ? 0x20 : 0)), UInt8(chunk | depth << 3),
    ]
  }

  /// The header keys of a seed: a JSON object on its first line naming
  /// these options; keys left out keep their defaults.
  init?(header: JSONValue) {
    guard let members = header.objectValue else { return nil }
    for (key, value) in members {
      switch (key, value) {
      case ("records", .string(let text)): records = text
      case ("number", .string(let text)): number = text
      case ("label", .bool(let flag)): label = flag
      case ("wildcard", .bool(let flag)): wildcard = flag
      case ("chunkSize", .int(let size)): chunkSize = Int(size)
      case ("maxDepth", .int(let depth)): maxDepth = Int(depth)
      default: return nil
      }
    }
  }

  /// The seed a seed source holds (`Tests/Fuzz/Seeds/json-document/NAME`):
  /// its first line is the header, the rest the document; the seed is the
  /// header's option bytes, then the document. Nil when the header names
  /// no options the harness decodes.
  static func seed(fromSource source: [UInt8]) -> [UInt8]? {
    guard let newline = source.firstIndex(of: 0x0A),
      let header = try? JSONParser().parse(Array(source[..<newline])),
      let options = JSONDocumentOptions(header: header), let bytes = options.bytes
    else { return nil }
    return bytes + source[(newline + 1)...]
  }
}
