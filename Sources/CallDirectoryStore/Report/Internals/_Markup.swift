import CalldirSystem

/// Builds well-formed XML (the report's XHTML and SVG) by construction:
/// elements are written through closures, so each is closed where it was
/// opened, and every text and attribute value is escaped.
///
///     var markup = _Markup()
///     markup.element("p", ["class": "note"]) { $0.text("5 < 6 & 7") }
///     // <p class="note">5 &lt; 6 &amp; 7</p>
///
/// Hidden characters (``ShownText/isHidden(_:)``: control characters
/// other than tab, line feed and carriage return, bidirectional overrides
/// and other format characters) are shown as their visible escape
/// (`\u202E`), never as themselves, so that a path or label cannot
/// rearrange or hide the page's text; U+FFFE and U+FFFF, which XML 1.0
/// does not allow, become U+FFFD.
struct _Markup {
  /// The markup written so far.
  private(set) var output = ""

  /// One attribute; a nil value leaves the attribute out.
  typealias Attribute = (name: String, value: String?)

  init(reservingCapacity capacity: Int = 1 << 16) {
    output.reserveCapacity(capacity)
  }

  /// Appends text that is already markup (the document prologue).
  mutating func raw(_ text: String) {
    output += text
  }

  /// `<name attributes>` … `</name>`, with `body` writing the content.
  mutating func element(_ name: String, _ attributes: KeyValuePairs<String, String?> = [:], _ body: (inout _Markup) -> Void) {
    element(name, attributes: attributes.map { (name: $0.key, value: $0.value) }, body)
  }

  /// `<name attributes>` … `</name>`, with attributes built at run time.
  mutating func element(_ name: String, attributes: [Attribute], _ body: (inout _Markup) -> Void) {
    openTag(name, attributes)
    output += ">"
    body(&self)
    output += "</\(name)>"
  }

  /// `<name attributes>text</name>`.
  mutating func element(_ name: String, _ attributes: KeyValuePairs<String, String?> = [:], text: String) {
    element(name, attributes) { $0.text(text) }
  }

  /// `<name attributes/>`.
  mutating func empty(_ name: String, _ attributes: KeyValuePairs<String, String?> = [:]) {
    empty(name, attributes: attributes.map { (name: $0.key, value: $0.value) })
  }

  /// `<name attributes/>`, with attributes built at run time.
  ///
  /// In a page a browser reads as HTML, `<name/>` closes only a void
  /// element (`br`, `meta`, …) or an SVG element; any other HTML element
  /// must be written with ``element(_:attributes:_:)``, even when empty.
  mutating func empty(_ name: String, attributes: [Attribute]) {
    assert(!Self.htmlContainers.contains(name), "<\(name)/> is an open tag in HTML; write it with element(_:)")
    openTag(name, attributes)
    output += "/>"
  }

  /// HTML elements that are not void, which an HTML parser does not close
  /// at `/>` (those the report writes).
  private static let htmlContainers: Set<String> = [
    "html", "head", "title", "style", "body", "section", "details", "summary", "h1", "h2", "h3", "p", "span",
    "table", "thead", "tbody", "tr", "th", "td",
  ]

  /// Escaped character data.
  mutating func text(_ text: String) {
    Self.escape(text, into: &output, isAttribute: false)
  }

  private mutating func openTag(_ name: String, _ attributes: [Attribute]) {
    output += "<" + name
    for attribute in attributes {
      guard let value = attribute.value else { continue }
      output += " " + attribute.name + "=\""
      Self.escape(value, into: &output, isAttribute: true)
      output += "\""
    }
  }

  /// Appends `text` escaped for character data or a double-quoted
  /// attribute value (where line breaks and tabs are kept as references).
  static func escape(_ text: String, into output: inout String, isAttribute: Bool) {
    guard text.unicodeScalars.contains(where: needsEscaping) else {
      output += text
      return
    }
    for scalar in text.unicodeScalars {
      switch scalar {
      case "&": output += "&amp;"
      case "<": output += "&lt;"
      case ">": output += "&gt;"
      case "\"" where isAttribute: output += "&quot;"
      case "\n" where isAttribute: output += "&#10;"
      case "\r" where isAttribute: output += "&#13;"
      case "\t" where isAttribute: output += "&#9;"
      case "\t", "\n": output.unicodeScalars.append(scalar)
      case _ where ShownText.isHidden(scalar): output += ShownText.escape(scalar)
      case _ where isForbidden(scalar): output += "\u{FFFD}"
      default: output.unicodeScalars.append(scalar)
      }
    }
  }

  private static func needsEscaping(_ scalar: Unicode.Scalar) -> Bool {
    scalar.value < 0x20 || scalar == "&" || scalar == "<" || scalar == ">" || scalar == "\""
      || ShownText.isHidden(scalar) || isForbidden(scalar)
  }

  /// Not a character of XML 1.0 (`Char` production) that is not hidden
  /// (those are escaped first).
  private static func isForbidden(_ scalar: Unicode.Scalar) -> Bool {
    scalar.value == 0xFFFE || scalar.value == 0xFFFF
  }
}
