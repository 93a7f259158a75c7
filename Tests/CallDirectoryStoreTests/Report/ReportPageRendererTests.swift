import Foundation
import Testing

@testable import CallDirectoryCompiler
@testable import CallDirectoryStore

#if canImport(FoundationXML)
import FoundationXML
#endif

/// `ReportPageRenderer` on models built by hand: the page is well-formed,
/// self-contained and deterministic whatever the strings hold.
@Suite struct ReportPageRendererTests {
  /// Whether `page` parses as XML (`XMLParser.parse()` alone can return
  /// true on a truncated document, so its error is checked too).
  static func isWellFormed(_ page: String) -> Bool {
    let parser = XMLParser(data: Data(page.utf8))
    return parser.parse() && parser.parserError == nil
  }

  static func version(_ number: Int, blocking: Int, changes: ListChanges?, forced: Bool = false) -> StoreReport.Version {
    StoreReport.Version(
      version: number, createdAt: "2026-01-\(number < 10 ? "0" : "")\(number)T02:00:00Z", blocking: blocking,
      identification: 10, labels: 2, rejected: 1, bytes: 100, forced: forced, changes: changes)
  }

  static let hostile = "<script>alert('x')</script> & \"quotes\" \u{07}]]> \u{202E}evil"

  static func sample(callingCodes: Int = 3, extensions: [StoreReport.ExtensionFill]? = nil) -> StoreReport {
    let codes = (0..<callingCodes).map { index in
      StoreReport.CallingCodeCount(
        callingCode: [41, 1, 44, 33, 49, 39, 34, 31, 32, 43, 45, 46, 47, 48, 30, 36, 351, 352, 353, 354, 355, 356,
          357, 358, 359][index], region: "R\(index)",
        counts: StoreReport.EntryCounts(blocking: 1_000 - index * 10, identification: index))
    }
    return StoreReport(
      store: "/stores/\(hostile)",
      versions: [
        version(1, blocking: 100, changes: nil),
        version(2, blocking: 120, changes: ListChanges(blockingAdded: 25, blockingRemoved: 5)),
        version(3, blocking: 60, changes: ListChanges(blockingAdded: 0, blockingRemoved: 60), forced: true),
      ],
      refusals: [
        StoreReport.Refusal(
          attemptedAt: "2026-01-03T01:00:00Z", version: 3, kind: "listRemoval", message: hostile, source: hostile)
      ],
      latest: StoreReport.Latest(
        version: 3, createdAt: "2026-01-03T02:00:00Z", callingCodes: codes,
        noCallingCode: StoreReport.EntryCounts(blocking: 2, identification: 0),
        sources: [
          StoreReport.Source(
            position: 0, path: "feeds/\(hostile).txt", list: "block", format: "lines", region: "CH", dataLines: 61,
            accepted: 60, rejected: 1, contribution: SourceContribution(numbers: 60, duplicates: 0, unique: 60),
            isMissing: false, rejectReasons: [StoreReport.RejectReason(reason: hostile, count: 1)])
        ],
        extensions: extensions ?? [
          StoreReport.ExtensionFill(
            shard: nil, lowerBound: nil, upperBound: nil, counts: StoreReport.EntryCounts(blocking: 60, identification: 10))
        ]))
  }

  @Test func hostileStringsGiveAWellFormedPageWithoutMarkupOfTheirOwn() {
    let page = ReportPageRenderer().render(Self.sample())
    #expect(page.hasPrefix("<!DOCTYPE html>\n<html xmlns=\"http://www.w3.org/1999/xhtml\""))
    #expect(Self.isWellFormed(page))
    #expect(!page.contains("<script"))
    #expect(page.contains("&lt;script&gt;"))
    #expect(!page.contains("\u{07}"))
  }

  @Test func thePageIsSelfContainedAndDeterministic() {
    let report = Self.sample()
    let page = ReportPageRenderer().render(report)
    #expect(page == ReportPageRenderer().render(report))
    // The namespaces are the only addresses: nothing is fetched.
    let addresses = page.components(separatedBy: "http").count - 1
    #expect(addresses == page.components(separatedBy: "http://www.w3.org/").count - 1)
    #expect(!page.contains("src="))
    #expect(!page.contains("href="))
    #expect(page.contains("<svg xmlns=\"http://www.w3.org/2000/svg\""))
  }

  @Test func versionsWithoutRecordedChangesAreNotRecordedNeverZero() {
    let page = ReportPageRenderer().render(Self.sample())
    #expect(page.contains(
      "data-list=\"blocking\" data-version=\"1\" data-created-at=\"2026-01-01T02:00:00Z\" data-changes=\"not recorded\""))
    #expect(!page.contains("data-version=\"1\" data-created-at=\"2026-01-01T02:00:00Z\" data-blocking-added"))
    #expect(page.contains("data-blocking-added=\"25\" data-blocking-removed=\"5\""))
    #expect(page.contains("changes not recorded (the first version)"))
  }

  @Test func theCompositionShowsTheTopTwentyCodesThenOthers() {
    let report = Self.sample(callingCodes: 25)
    let page = ReportPageRenderer().render(report)
    #expect(page.components(separatedBy: "<g class=\"code\"").count - 1 == 22)
    let rest = report.latest?.callingCodes.dropFirst(20) ?? []
    let blocking = rest.reduce(0) { $0 + $1.counts.blocking }
    #expect(page.contains("data-calling-code=\"others\" data-codes=\"5\" data-blocking=\"\(blocking)\""))
    #expect(page.contains("data-calling-code=\"none\" data-blocking=\"2\" data-identification=\"0\""))
    #expect(page.contains(">others (5 codes)</text>"))
  }

  @Test func extensionsPastNinetyPercentAreMarked() {
    let fills = [1_000_000, 1_900_000, 2_100_000].enumerated().map { index, entries in
      StoreReport.ExtensionFill(
        shard: index + 1, lowerBound: Int64(index) * 100, upperBound: Int64(index) * 100 + 99,
        counts: StoreReport.EntryCounts(blocking: entries, identification: 0))
    }
    let page = ReportPageRenderer().render(Self.sample(extensions: fills))
    #expect(Self.isWellFormed(page))
    #expect(page.contains("<rect class=\"fill bar\""))
    #expect(page.contains("<rect class=\"fill bar warn\""))
    #expect(page.contains("<rect class=\"fill bar over\""))
    #expect(page.contains("1,900,000 entries (95.0%) near the limit"))
    #expect(page.contains("2,100,000 entries (105.0%) over the limit"))
    #expect(page.contains("limit 2,000,000"))
  }

  @Test func anEmptyStoreSaysSo() {
    let page = ReportPageRenderer().render(StoreReport(store: "s", versions: [], refusals: [], latest: nil))
    #expect(Self.isWellFormed(page))
    #expect(page.contains("Nothing published yet"))
    #expect(!page.contains("<svg"))
  }
}
