import Foundation
import Glibc
import Testing

/// `calldir report`: the page parses as XML, its numbers are the catalog's,
/// it is the same bytes every time, and it is written safely.
@Suite struct ReportCommandTests {
  func report(_ store: String, _ extra: [String]) throws -> CalldirProcess.Result {
    try CalldirProcess.run(["report", "--store", store] + extra)
  }

  @Test func thePageParsesAsXMLAndItsNumbersAreTheCatalogs() throws {
    let reported = try ReportedStore()
    let output = reported.directory.path("report.html")
    let result = try report(reported.store, ["--output", output])
    #expect(result.status == 0, "\(result.standardError)")
    #expect(result.standardOutput.isEmpty)
    #expect(result.standardError.isEmpty)
    let bytes = try Data(contentsOf: URL(fileURLWithPath: output))
    #expect(String(decoding: bytes.prefix(16), as: UTF8.self) == "<!DOCTYPE html>\n")
    let page = try XHTMLPage(data: bytes)
    #expect(page.elements.first?.name == "html")
    #expect(page.elements.first?.namespace == "http://www.w3.org/1999/xhtml")
    let charts = page.all("svg")
    #expect(charts.count == 6)
    #expect(charts.allSatisfy { $0.namespace == "http://www.w3.org/2000/svg" })
    #expect(page.all("script").isEmpty)

    let history = try parseJSON(try CalldirProcess.run(["history", "--store", reported.store, "--json"]).standardOutput)
    let versions = try #require(history["versions"] as? [[String: Any]])
    #expect(versions.count == 4)
    let counts = versions.map { $0["counts"] as? [String: Int] ?? [:] }
    let numbers = versions.map { $0["version"] as? Int ?? 0 }

    // The table of every version, newest first.
    let rows = page.all("tr").filter { $0.attributes["data-bytes"] != nil }
    #expect(rows.map { $0.int("data-version") } == numbers.reversed())
    for (row, (version, count)) in zip(rows.reversed(), zip(versions, counts)) {
      #expect(row.attributes["data-created-at"] == version["createdAt"] as? String)
      #expect(row.int("data-bytes") == version["bytes"] as? Int)
      #expect(row.attributes["data-forced"] == String(version["forced"] as? Bool ?? false))
      for key in ["blocking", "identification", "labels", "rejected"] {
        #expect(row.int("data-\(key)") == count[key], "\(key)")
      }
    }

    // Entries per version, in each list's chart.
    for list in ["blocking", "identification"] {
      let hits = page.all("rect", classes: ["hit"]).filter {
        $0.attributes["data-list"] == list && $0.attributes["data-\(list)"] != nil
      }
      #expect(hits.map { $0.int("data-version") } == numbers)
      #expect(hits.map { $0.int("data-\(list)") } == counts.map { $0[list] })
    }

    // Additions and removals add up to the change in the count; the first
    // version's are not recorded, never 0.
    for list in ["blocking", "identification"] {
      let mine = page.all("rect", classes: ["hit"]).filter {
        $0.attributes["data-list"] == list && $0.attributes["data-\(list)"] == nil
      }
      #expect(mine.map { $0.int("data-version") } == numbers)
      #expect(mine[0].attributes["data-changes"] == "not recorded")
      #expect(mine[0].attributes["data-\(list)-added"] == nil)
      for index in 1..<mine.count {
        let added = try #require(mine[index].int("data-\(list)-added"))
        let removed = try #require(mine[index].int("data-\(list)-removed"))
        #expect(added - removed == (counts[index][list] ?? 0) - (counts[index - 1][list] ?? 0))
      }
    }

    // Forced builds and refusals, on the charts and in the table.
    let forced = zip(numbers, versions).filter { $0.1["forced"] as? Bool == true }.map(\.0)
    #expect(forced == [4])
    #expect(Set(page.all("path", classes: ["forced", "marker"]).compactMap { $0.int("data-version") }) == Set(forced))
    #expect(page.all("tr").filter { $0.attributes["data-event"] == "forced" }.map { $0.int("data-version") } == [4])
    let refused = page.all("tr").filter { $0.attributes["data-event"] == "refused" }
    #expect(!refused.isEmpty)
    #expect(refused.allSatisfy { $0.int("data-version") == 4 })
    #expect(refused.contains { $0.attributes["data-kind"] == "sourceRemoval" })
    #expect(page.all("path", classes: ["refused", "marker"]).count == refused.count * 2)

    // The latest version's composition and extensions add up to its counts.
    let latest = try #require(counts.last)
    let codes = page.all("g", classes: ["code"])
    #expect(codes.compactMap { $0.attributes["data-calling-code"] } == ["41", "1", "44"])
    #expect(codes.compactMap { $0.int("data-blocking") }.reduce(0, +) == latest["blocking"])
    #expect(codes.compactMap { $0.int("data-identification") }.reduce(0, +) == latest["identification"])
    let extensions = page.all("g", classes: ["extension"])
    #expect(extensions.count >= 2)
    #expect(extensions.compactMap { $0.int("data-entries") }.reduce(0, +)
      == (latest["blocking"] ?? 0) + (latest["identification"] ?? 0))
    #expect(extensions.allSatisfy { $0.int("data-limit") == 2_000_000 })

    // Sources, as the config writes them, with their rejects by reason.
    let sources = page.all("tr").filter { $0.attributes["data-accepted"] != nil }
    #expect(sources.compactMap { $0.attributes["data-path"] } == ["feeds/swiss.txt", "feeds/names.csv", "feeds/abroad.txt"])
    let rejects = page.all("tr").filter { $0.attributes["data-reason"] != nil }
    #expect(rejects.map { $0.attributes["data-reason"] } == ["not a phone number"])
    #expect(rejects.first?.int("data-count") == 1)

    // The numbers are in the text too.
    let newest = try #require(versions.last?["createdAt"] as? String)
    #expect(page.text.contains("Latest version 4, published \(newest): \(latest["blocking"] ?? 0) blocking"))
  }

  @Test func theSameStoreGivesTheSameBytes() throws {
    let store = try GuardedStore(block: 50, names: 20)
    #expect(try store.build().status == 0)
    try store.writeBlock(55)
    #expect(try store.build().status == 0)
    let first = store.directory.path("first.html")
    let second = store.directory.path("second.html")
    #expect(try report(store.store, ["-o", first]).status == 0)
    #expect(try report(store.store, ["-o", second]).status == 0)
    let bytes = try Data(contentsOf: URL(fileURLWithPath: first))
    #expect(bytes == (try Data(contentsOf: URL(fileURLWithPath: second))))
    // Rewriting replaces the file in place and leaves no temporary file.
    #expect(try report(store.store, ["-o", first]).status == 0)
    #expect(try Data(contentsOf: URL(fileURLWithPath: first)) == bytes)
    let names = try FileManager.default.contentsOfDirectory(atPath: store.directory.url.path)
    #expect(names.filter { $0.contains(".tmp") }.isEmpty)
  }

  @Test func jsonPrintsTheModelAsOneObject() throws {
    let reported = try ReportedStore()
    let json = try report(reported.store, ["--json"])
    #expect(json.status == 0, "\(json.standardError)")
    #expect(json.lines.count == 1)
    let object = try parseJSON(json.standardOutput)
    #expect(Set(object.keys) == ["store", "dataset", "generatedAt", "extensionEntryLimit", "versions", "refusals", "latest"])
    #expect(object["extensionEntryLimit"] as? Int == 2_000_000)
    let versions = try #require(object["versions"] as? [[String: Any]])
    #expect(versions.count == 4)
    #expect(Set(versions[0].keys) == ["version", "createdAt", "counts", "bytes", "forced", "changes"])
    #expect(versions[0]["changes"] is NSNull)
    #expect((versions[1]["changes"] as? [String: [String: Int]])?["blocking"] == ["added": 20, "removed": 0])
    let refusals = try #require(object["refusals"] as? [[String: Any]])
    #expect(refusals.allSatisfy { Set($0.keys) == ["attemptedAt", "version", "kind", "message", "source"] })
    let latest = try #require(object["latest"] as? [String: Any])
    #expect(Set(latest.keys) == ["version", "createdAt", "callingCodes", "noCallingCode", "sources", "extensions"])
    let codes = try #require(latest["callingCodes"] as? [[String: Any]])
    #expect(codes.first?["callingCode"] as? Int == 41)
    #expect(codes.first?["region"] as? String == "CH")
    let sources = try #require(latest["sources"] as? [[String: Any]])
    #expect(Set(sources[0].keys) == [
      "position", "path", "list", "format", "region", "dataLines", "accepted", "rejected", "duplicates", "numbers",
      "unique", "missing", "rejectReasons",
    ])
    #expect(sources[2]["rejectReasons"] as? [String: Int] == ["not a phone number": 1])
    let extensions = try #require(latest["extensions"] as? [[String: Any]])
    #expect(Set(extensions[0].keys) == ["shard", "lower", "upper", "blocking", "identification", "entries"])
    // Only --json: no page is written; with --output too, both.
    #expect(try FileManager.default.contentsOfDirectory(atPath: reported.directory.url.path).filter {
      $0.hasSuffix(".html")
    }.isEmpty)
    let both = try report(reported.store, ["--json", "-o", reported.directory.path("r.html")])
    #expect(both.status == 0)
    #expect(both.standardOutput == json.standardOutput)
    #expect(FileManager.default.fileExists(atPath: reported.directory.path("r.html")))
  }

  @Test func aMissingCatalogIsExit66AndNothingIsWritten() throws {
    let directory = try TemporaryDirectory()
    let store = directory.path("no-store")
    let output = directory.path("report.html")
    for extra in [["-o", output], ["--json"]] {
      let result = try report(store, extra)
      #expect(result.status == 66)
      #expect(result.standardError == StoreReadingTests.noCatalog(store))
      #expect(result.standardOutput.isEmpty == !extra.contains("--json"))
    }
    #expect(!FileManager.default.fileExists(atPath: output))
    #expect(!FileManager.default.fileExists(atPath: store))
  }

  @Test func anOutputThatIsNotARegularFileIsRefusedWithExit73() throws {
    let store = try GuardedStore(block: 10, names: 5)
    #expect(try store.build().status == 0)
    let directory = store.directory.path("a-directory")
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    let target = try store.directory.write("target.html", "keep me")
    let link = store.directory.path("link.html")
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target.path)
    for path in [directory, link, "/dev/null"] {
      let result = try report(store.store, ["-o", path])
      #expect(result.status == 73, "\(path)")
      #expect(result.standardError == "error: \(path) exists and is not a regular file; refusing to replace it\n")
    }
    #expect(try String(contentsOf: target, encoding: .utf8) == "keep me")
    #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == target.path)
    let missing = try report(store.store, ["-o", store.directory.path("no-such-directory/report.html")])
    #expect(missing.status == 73)
    #expect(missing.standardError.hasPrefix("error: cannot create \(store.directory.path("no-such-directory/report.html"))"))
  }

  /// The page never lands among the files it reports on: the catalog, a
  /// published blob, or anything else in the store, however it is spelled.
  @Test func anOutputInsideTheStoreIsRefusedWithExit73() throws {
    let store = try GuardedStore(block: 10, names: 5)
    #expect(try store.build().status == 0)
    let link = store.directory.path("store-link")
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: store.store)
    let catalog = try Data(contentsOf: URL(fileURLWithPath: store.store + "/catalog.sqlite"))
    for path in [
      store.store + "/catalog.sqlite", store.store + "/snapshots/snapshot-000001.cdir", store.store + "/report.html",
      link + "/catalog.sqlite", store.store + "/snapshots/../report.html",
    ] {
      let result = try report(store.store, ["-o", path])
      #expect(result.status == 73, "\(path): \(result.standardError)")
      #expect(result.standardError.contains("is inside the store"), "\(result.standardError)")
    }
    #expect(try Data(contentsOf: URL(fileURLWithPath: store.store + "/catalog.sqlite")) == catalog)
    #expect(!FileManager.default.fileExists(atPath: store.store + "/report.html"))
    #expect(try report(store.store, ["-o", store.directory.path("report.html")]).status == 0)
  }

  @Test func withNeitherOutputNorJSONItIsAUsageError() throws {
    let result = try CalldirProcess.run(["report", "--store", "anywhere"])
    #expect(result.status == 64)
    #expect(result.standardError.contains("nothing to do: give --output FILE for the page, --json for the facts, or both"))
    let help = try CalldirProcess.run(["report", "--help"])
    #expect(help.status == 0)
    #expect(help.standardOutput.contains("--output"))
    #expect(help.standardOutput.contains("2,000,000-entry"))
  }
}
