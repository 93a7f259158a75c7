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

  @Test func recordedOptionsThatAreNotOptionsNameTheValueAtFault() throws {
    #expect(try Catalog.decodeOptions(nil) == [:])
    #expect(try Catalog.decodeOptions(#"{"number":"n","where":{"op":["A"]}}"#) == ["number": "n", "where": .object(["op": .strings(["A"])])])
    let cases = [
      (#"["n"]"#, #"snapshot_sources.options: expected an object (the column holds ["n"])"#),
      (#"{"number":3}"#, #"snapshot_sources.options.number: expected a string, an array of strings or an object of them (the column holds {"number":3})"#),
      (#"{"where":{"op":["A",1]}}"#, #"snapshot_sources.options.where.op[1]: expected a string (the column holds {"where":{"op":["A",1]}})"#),
      ("{", "snapshot_sources.options is not json: 1:2: unexpected end of input (the column holds {)"),
    ]
    for (text, message) in cases {
      do {
        let options = try Catalog.decodeOptions(text)
        Issue.record("\(text) read as \(options)")
      } catch {
        #expect(error.description == "catalog: \(message)")
      }
    }
  }
}
