import Foundation
import Glibc
import Testing

/// Commands that read a store (`history`, `diff --store`): one error for a
/// missing catalog, one JSON document, and read-only stores.
@Suite struct StoreReadingTests {
  static func noCatalog(_ store: String) -> String {
    "error: no catalog in \(store) (nothing published yet; run 'calldir build' first)\n"
  }

  /// Every store-reading command on `store`.
  static func readers(_ store: String, output: String) -> [[String]] {
    [
      ["history", "--store", store],
      ["history", "--store", store, "--json"],
      ["diff", "--store", store, "1", "2", "-o", output],
      ["diff", "--store", store, "1", "2", "-o", output, "--json"],
      ["report", "--store", store, "-o", output],
      ["report", "--store", store, "--json"],
    ]
  }

  @Test func aMissingCatalogIsExit66WithOneMessageEverywhere() throws {
    let directory = try TemporaryDirectory()
    let output = directory.path("d.cdir")
    let missing = directory.path("no-such-store")
    let empty = directory.path("empty-store")
    try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
    for store in [missing, empty] {
      for arguments in Self.readers(store, output: output) {
        let result = try CalldirProcess.run(arguments)
        #expect(result.status == 66, "\(arguments)")
        #expect(result.standardError == Self.noCatalog(store), "\(arguments)")
        // Under --json, the same error as one document.
        let message = Self.noCatalog(store).dropFirst("error: ".count).dropLast()
        #expect(
          result.standardOutput
            == (arguments.contains("--json") ? #"{"error":{"kind":"noInput","message":"\#(message)"}}"# + "\n" : ""),
          "\(arguments)")
      }
    }
    // Reading created nothing.
    #expect(!FileManager.default.fileExists(atPath: missing))
    #expect(try FileManager.default.contentsOfDirectory(atPath: empty).isEmpty)
    #expect(!FileManager.default.fileExists(atPath: output))
  }

  @Test func historyJSONIsOneDocument() throws {
    let sample = try SampleStore()
    #expect(try sample.build().status == 0)
    try sample.directory.write("block.txt", "020 7946 0018\n+44 20 7946 0999\n07700 900123\n07700 900124\n")
    #expect(try sample.build().status == 0)
    let result = try CalldirProcess.run(["history", "--store", sample.store, "--json"])
    #expect(result.status == 0)
    #expect(result.lines.count == 1)
    let document = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
    #expect(Set(document.keys) == ["store", "versions"])
    #expect(document["store"] as? String == sample.store)
    let versions = try #require(document["versions"] as? [[String: Any]])
    #expect(versions.map { $0["version"] as? Int } == [1, 2])
    for version in versions {
      #expect(
        Set(version.keys) == [
          "version", "dataset", "createdAt", "asOf", "snapshot", "bytes", "digest", "counts", "forced", "deltas",
          "changes", "pruned",
        ])
      #expect(version["asOf"] is String)
    }
    #expect((versions[1]["counts"] as? [String: Int])?["blocking"] == 13)
  }

  @Test func aCatalogWithNothingPublishedHasNoVersions() throws {
    // Too many rejects: the build fails after the catalog was created.
    let sample = try SampleStore(blockLines: ["nonsense", "more nonsense", "020 7946 0018"])
    #expect(try sample.build().status == 65)
    #expect(FileManager.default.fileExists(atPath: sample.store + "/catalog.sqlite"))
    let json = try CalldirProcess.run(["history", "--store", sample.store, "--json"])
    #expect(json.status == 0)
    #expect(json.standardOutput == "{\"store\":\"\(sample.store)\",\"versions\":[]}\n")
    let text = try CalldirProcess.run(["history", "--store", sample.store])
    #expect(text.status == 0)
    #expect(text.lines.count == 1 && text.lines.first?.hasPrefix("version  created") == true)
    let page = sample.directory.path("report.html")
    let report = try CalldirProcess.run(["report", "--store", sample.store, "-o", page, "--json"])
    #expect(report.status == 0, "\(report.standardError)")
    let facts = try jsonObject(report.standardOutput)
    #expect(facts["generatedAt"] is NSNull && facts["latest"] is NSNull)
    #expect((facts["versions"] as? [Any])?.isEmpty == true)
    // The refused build is the one thing to show.
    #expect((facts["refusals"] as? [[String: Any]])?.map { $0["kind"] as? String } == ["rejectRatio"])
    let parsed = try XHTMLPage(data: Data(contentsOf: URL(fileURLWithPath: page)))
    #expect(parsed.text.contains("No version published yet; 1 refused build."))
    #expect(parsed.all("svg").isEmpty)
    #expect(parsed.all("tr").compactMap { $0.attributes["data-kind"] } == ["rejectRatio"])
  }

  /// Runs calldir as a user who may not write the store: as root, chmod does
  /// not stop writes, so the command runs as `nobody` through setpriv.
  static func runWithoutWriteAccess(_ arguments: [String], in directory: URL? = nil) throws -> CalldirProcess.Result {
    guard getuid() == 0 else { return try CalldirProcess.run(arguments, in: directory) }
    return try CalldirProcess.run(
      ["--reuid=65534", "--regid=65534", "--clear-groups", "--", CalldirProcess.binary.path] + arguments,
      in: directory, executable: setpriv)
  }

  static let setpriv = "/usr/bin/setpriv"

  static var canDropWriteAccess: Bool {
    getuid() != 0 || FileManager.default.isExecutableFile(atPath: setpriv)
  }

  @Test(.enabled(if: canDropWriteAccess, "running as root without setpriv: a read-only store cannot be simulated"))
  func aReadOnlyStoreCanBeRead() throws {
    let sample = try DiffCommandTests().twoVersions()
    let store = sample.store
    let outputs = sample.directory.path("out")
    try FileManager.default.createDirectory(atPath: outputs, withIntermediateDirectories: true)
    #expect(chmod(outputs, 0o777) == 0)
    #expect(try CalldirProcess.run(["-R", "a-w", store], executable: "/bin/chmod").status == 0)
    defer { _ = try? CalldirProcess.run(["-R", "u+w", store], executable: "/bin/chmod") }

    // The precondition: whoever runs calldir below really cannot write the store.
    let probe = getuid() == 0
      ? try CalldirProcess.run(
        ["--reuid=65534", "--regid=65534", "--clear-groups", "--", "/usr/bin/test", "-w", store], executable: Self.setpriv)
      : try CalldirProcess.run(["-w", store], executable: "/usr/bin/test")
    try #require(probe.status == 1, "the store is still writable: \(probe.standardError)")

    let history = try Self.runWithoutWriteAccess(["history", "--store", store, "--json"])
    #expect(history.status == 0, "\(history.standardError)")
    let document = try #require(try JSONSerialization.jsonObject(with: Data(history.standardOutput.utf8)) as? [String: Any])
    #expect((document["versions"] as? [[String: Any]])?.count == 2)
    let text = try Self.runWithoutWriteAccess(["history", "--store", "store"], in: sample.directory.url)
    #expect(text.status == 0, "\(text.standardError)")
    #expect(text.lines.count == 3)

    let output = outputs + "/d.cdir"
    let diff = try Self.runWithoutWriteAccess(["diff", "--store", store, "1", "2", "-o", output, "--json"])
    #expect(diff.status == 0, "\(diff.standardError)")
    #expect(try jsonObject(diff.standardOutput)["blocking"] as? [String: Int] == ["added": 1, "removed": 1])
    #expect(try sample.entries(output).count == 4)

    let page = outputs + "/report.html"
    let report = try Self.runWithoutWriteAccess(["report", "--store", store, "-o", page])
    #expect(report.status == 0, "\(report.standardError)")
    #expect(try XHTMLPage(data: Data(contentsOf: URL(fileURLWithPath: page))).all("svg").count == 6)

    // Nothing was written next to the catalog.
    let names = try FileManager.default.contentsOfDirectory(atPath: store)
    #expect(!names.contains { $0.hasPrefix("catalog.sqlite-") }, "\(names)")
  }
}
