import Foundation
import Testing

#if canImport(FoundationXML)
import FoundationXML
#endif

/// A page parsed as XML with Foundation's `XMLParser` (so it must be
/// well-formed), with every element's name, namespace and attributes.
struct XHTMLPage {
  struct Element {
    let name: String
    let namespace: String?
    let attributes: [String: String]

    var classes: Set<String> { Set((attributes["class"] ?? "").split(separator: " ").map(String.init)) }
    func int(_ attribute: String) -> Int? { attributes[attribute].flatMap { Int($0) } }
  }

  let elements: [Element]
  /// All character data, in document order.
  let text: String

  /// Parses `data`; a page that is not well-formed fails the test with the
  /// parser's error and position.
  init(data: Data) throws {
    let parser = XMLParser(data: data)
    parser.shouldProcessNamespaces = true
    let collector = Collector()
    parser.delegate = collector
    let parsed = parser.parse()
    try #require(
      parsed && parser.parserError == nil,
      "not well-formed XML: \(String(describing: parser.parserError)) at line \(parser.lineNumber), column \(parser.columnNumber)")
    elements = collector.elements
    text = collector.text
  }

  /// The elements named `name` that have every class in `classes`.
  func all(_ name: String, classes: Set<String> = []) -> [Element] {
    elements.filter { $0.name == name && classes.isSubset(of: $0.classes) }
  }

  private final class Collector: NSObject, XMLParserDelegate {
    var elements: [Element] = []
    var text = ""

    func parser(
      _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
      attributes: [String: String] = [:]
    ) {
      elements.append(Element(name: elementName, namespace: namespaceURI, attributes: attributes))
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
      text += string
    }
  }
}
