import Foundation
import Testing

@testable import CallDirectoryCompiler
@testable import CallDirectoryStore

@Suite struct PublisherTests {
  /// Sources are checksummed while they are read; the catalog must hold
  /// what reading the files afresh gives, for every reader.
  @Test func sourceFactsInTheCatalogMatchTheFiles() throws {
    let workspace = try Workspace()
    try workspace.write("block.txt", "\u{FEFF}+1 212 555 0100\n+1 212 555 0101")
    try workspace.write("patterns.txt", "+1800555####\n")
    try workspace.write("names.csv", "phone,name\n+1 212 555 0102,Clinic\n")
    try workspace.config([
      #"{"path": "block.txt", "format": "lines", "list": "block"}"#,
      #"{"path": "patterns.txt", "format": "patterns", "list": "block"}"#,
      #"{"path": "names.csv", "format": "csv", "list": "identify", "number": "phone", "label": "name"}"#,
    ])
    let store = StoreLayout(root: workspace.path("store"))
    let result = try Publisher(configPath: workspace.path("calldir.json"), store: store).build()
    let sources = try Catalog(path: store.catalog).sources(ofVersion: result.version)
    #expect(sources.count == 3)
    for source in sources {
      let facts = try FileFacts.of(source.path)
      #expect(source.checksum == facts.checksum, "\(source.path)")
      #expect(source.bytes == facts.bytes, "\(source.path)")
    }
  }
}
