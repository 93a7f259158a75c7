import CalldirSystem

/// The option bytes of the xml-document harness, decoded, and the bytes a
/// seed's readable header encodes to (`Tests/Fuzz/Seeds/xml-document`).
///
/// Byte 0 picks the `records` pattern (`records[byte % count]`), byte 1 the
/// `number` XPath (bits 0–3, `numbers[… % count]`) and the `label` XPath
/// (bits 4–7, `labels[… % count]`, index 0 none), byte 2 the `encoding`
/// (`encodings[byte % count]`, index 0 none). The rest is the document.
/// Entries are only ever appended, so a seed's bytes keep their meaning.
struct XMLDocumentOptions: Equatable {
  static let records = [
    "//contact", "/phonebooks/phonebook/contact", "//phonebook", "//*", "//nothing | //contact", "contact", "//item",
  ]
  static let numbers = [
    "telephony/number", "number", ".", "@number", "telephony/number[@type='work']", "text()",
    "concat(telephony/number, '')", "descendant::number",
  ]
  static let labels: [String?] = [
    nil, "person/realName", "@name", "name", "concat(person/realName, ' ', ../@name)", "string(.)",
  ]
  static let encodings: [String?] = [nil, "ISO-8859-1", "UTF-16"]

  var records = "//contact"
  var number = "telephony/number"
  var label: String?
  var encoding: String?

  init() {}

  /// Decodes the option bytes at the front of `input`, as the harness does.
  init(_ input: inout FuzzInput) {
    records = Self.records[Int(input.takeByte()) % Self.records.count]
    let paths = Int(input.takeByte())
    number = Self.numbers[(paths & 0x0F) % Self.numbers.count]
    label = Self.labels[(paths >> 4) % Self.labels.count]
    encoding = Self.encodings[Int(input.takeByte()) % Self.encodings.count]
  }

  /// The option bytes that decode to these options (nil: a value no byte
  /// picks).
  var bytes: [UInt8]? {
    guard let recordsIndex = Self.records.firstIndex(of: records), let numberIndex = Self.numbers.firstIndex(of: number),
      let labelIndex = Self.labels.firstIndex(of: label), let encodingIndex = Self.encodings.firstIndex(of: encoding)
    else { return nil }
    return [UInt8(recordsIndex), UInt8(numberIndex | labelIndex << 4), UInt8(encodingIndex)]
  }

  /// The header keys of a seed: a JSON object on its first line naming
  /// these options; keys left out keep their defaults.
  static let headerKeys: Set<String> = ["records", "number", "label", "encoding"]

  /// The options a seed's header names (nil: not an object, an unknown key
  /// or a value that is not a string).
  init?(header: JSONValue) {
    guard let members = header.objectValue, members.allSatisfy({ Self.headerKeys.contains($0.key) }) else { return nil }
    self.init()
    for (key, value) in members {
      guard let text = value.stringValue else { return nil }
      switch key {
      case "records": records = text
      case "number": number = text
      case "label": label = text
      case "encoding": encoding = text
      default: return nil
      }
    }
  }

  /// The seed a seed source holds (`Tests/Fuzz/Seeds/xml-document/NAME`):
  /// its first line is the header (`init(header:)`), the rest the
  /// document; the seed is the header's option bytes, then the document.
  static func seed(fromSource source: [UInt8]) -> [UInt8]? {
    guard let newline = source.firstIndex(of: 0x0A),
      let header = try? JSONParser().parse(Array(source[..<newline])),
      let options = XMLDocumentOptions(header: header), let bytes = options.bytes
    else { return nil }
    return bytes + source[(newline + 1)...]
  }
}
