import Foundation
import Testing

/// `calldir build` refuses a list configured with the wrong region.
@Suite struct WrongRegionCommandTests {
  static let bulgarian = "# spam\n0888123456\n0887654321 # loans\n0898123456\n029876543\n0878123456\n0899111222\n+359 2 987 6543\n"

  func store(region: String, extra: String = "") throws -> (TemporaryDirectory, CalldirProcess.Result) {
    let directory = try TemporaryDirectory()
    try directory.write("feeds/bg.txt", Self.bulgarian)
    try directory.write("calldir.json", """
      {"sources": [{"path": "feeds/bg.txt", "format": "lines", "list": "block", "region": "\(region)"\(extra)}]}
      """)
    let result = try CalldirProcess.run([
      "build", "--config", directory.path("calldir.json"), "--store", directory.path("store"),
    ])
    return (directory, result)
  }

  @Test func aBulgarianListConfiguredAsSwissIsRefusedByName() throws {
    let (directory, result) = try store(region: "CH")
    #expect(result.status == 65)
    #expect(result.standardError == """
      error: source feeds/bg.txt: 5 of 6 numbers written without a country code are invalid for region CH \
      (83.3%, above maxInvalidRatio 0.5); they are valid for BG — set "region": "BG"

      """)
    // Nothing was published.
    #expect(!FileManager.default.fileExists(atPath: directory.path("store/manifest.json")))
  }

  @Test func forceDoesNotOverrideIt() throws {
    let directory = try TemporaryDirectory()
    try directory.write("feeds/bg.txt", Self.bulgarian)
    try directory.write("calldir.json", #"{"sources": [{"path": "feeds/bg.txt", "format": "lines", "list": "block", "region": "CH"}]}"#)
    let result = try CalldirProcess.run([
      "build", "--config", directory.path("calldir.json"), "--store", directory.path("store"), "--force", "--json",
    ])
    #expect(result.status == 65)
    #expect(result.standardOutput.contains(#""kind":"wrongRegion""#), "\(result.standardOutput)")
    #expect(result.standardOutput.contains(#""source":"feeds/bg.txt""#))
  }

  @Test func theRightRegionBuilds() throws {
    let (_, result) = try store(region: "BG")
    #expect(result.status == 0, "\(result.standardError)")
  }

  @Test func aRaisedRatioBuilds() throws {
    let (_, result) = try store(region: "CH", extra: #", "maxInvalidRatio": 1"#)
    #expect(result.status == 0, "\(result.standardError)")
  }

  @Test func requireValidAndTypesShowInTheSummary() throws {
    let directory = try TemporaryDirectory()
    try directory.write("feeds/mixed.txt", "+6000880816\n+1 800 275 2273\n+1 212 555 0100\n")
    try directory.write("calldir.json", """
      {"sources": [{"path": "feeds/mixed.txt", "format": "lines", "list": "block", "require": "valid", "types": ["tollFree"]}]}
      """)
    let result = try CalldirProcess.run([
      "build", "--config", directory.path("calldir.json"), "--store", directory.path("store"), "--json",
    ])
    #expect(result.status == 0, "\(result.standardError)")
    #expect(result.standardOutput.contains(#""accepted":1,"rejected":1,"typeFiltered":1"#), "\(result.standardOutput)")
    #expect(result.standardOutput.contains(#""rejectReasons":{"invalid for region MY":1}"#))
  }
}
