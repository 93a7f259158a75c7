import CallDirectorySync
import Foundation
import Testing

/// What `Manifest(parsing:)` refuses besides its structure: times that are
/// not UTC times as calldir writes them, and dataset names no blob can carry.
@Suite struct ManifestParsingTests {
  static let manifest = ManifestExpiryTests.manifest(expires: nil)

  static func replacing(_ old: String, with new: String) -> [UInt8] {
    Array(String(decoding: manifest.serialized(), as: UTF8.self).replacingOccurrences(of: old, with: new).utf8)
  }

  @Test(arguments: [#""yesterday""#, #""2026-12-01""#, #""2026-12-01 00:00:00Z""#, "0"])
  func publishedMustBeAUTCTime(_ value: String) {
    #expect(throws: ManifestError.malformed("manifest.published: expected an ISO 8601 UTC time such as 2026-12-08T00:00:00Z")) {
      try Manifest(parsing: Self.replacing(#""2026-12-01T00:00:00Z""#, with: value))
    }
  }

  @Test func aDatasetNameLongerThanABlobHoldsIsMalformed() throws {
    let long = String(repeating: "a", count: 65)
    #expect(throws: ManifestError.malformed("manifest.dataset: longer than 64 bytes")) {
      try Manifest(parsing: Self.replacing(#""com.example""#, with: "\"\(long)\""))
    }
    let longest = String(repeating: "é", count: 32)
    #expect(try Manifest(parsing: Self.replacing(#""com.example""#, with: "\"\(longest)\"")).dataset == longest)
  }
}
