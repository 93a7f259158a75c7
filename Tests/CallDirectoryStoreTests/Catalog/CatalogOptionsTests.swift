import CallDirectorySources
import CalldirSystem
import Testing

@testable import CallDirectoryCompiler
@testable import CallDirectoryStore

/// A source's options as the catalog records them.
@Suite struct CatalogOptionsTests {
  @Test func catalogOptionsRoundTripAndStringOnlyOnesSerializeAsBefore() throws {
    let plain: SourceOptions = ["number": "n", "delimiter": ";"]
    #expect(Catalog.encodeOptions(plain) == #"{"delimiter":";","number":"n"}"#)
    let rich: SourceOptions = [
      "number": "n", "where": .object(["op": .strings(["B", "A"])]), "regions": .object(["x": "FR"]),
    ]
    let text = Catalog.encodeOptions(rich)
    #expect(text == #"{"number":"n","regions":{"x":"FR"},"where":{"op":["B","A"]}}"#)
    let json = try JSONParser.parse(Array(text.utf8))
    #expect(SourceOptions(json: json) == rich)
    var changed = rich
    changed[value: "where"] = .object(["op": .strings(["A"])])
    #expect(changed != rich)
    #expect(Catalog.encodeOptions(changed) != text)
  }
}
