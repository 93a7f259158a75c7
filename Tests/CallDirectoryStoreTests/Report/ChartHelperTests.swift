import Testing

@testable import CallDirectoryCompiler
@testable import CallDirectoryStore

/// The report's number formats, scales and ticks.
@Suite struct ChartHelperTests {
  @Test func numbersAreWrittenTheSameWhateverTheLocale() {
    #expect(_NumberText.grouped(0) == "0")
    #expect(_NumberText.grouped(999) == "999")
    #expect(_NumberText.grouped(1_000) == "1,000")
    #expect(_NumberText.grouped(1_234_567) == "1,234,567")
    #expect(_NumberText.grouped(-2_702) == "\u{2212}2,702")
    #expect(_NumberText.added(34) == "+34")
    #expect(_NumberText.added(0) == "0")
    #expect(_NumberText.removed(2_702) == "\u{2212}2,702")
    #expect(_NumberText.removed(0) == "0")
    #expect(_NumberText.compact(9_999) == "9,999")
    #expect(_NumberText.compact(12_500) == "12.5k")
    #expect(_NumberText.compact(200_000) == "200k")
    #expect(_NumberText.compact(2_500_000) == "2.5M")
    #expect(_NumberText.compact(-3_000) == "\u{2212}3,000")
    #expect(_NumberText.percent(0.934) == "93.4%")
    #expect(_NumberText.percent(0.9) == "90.0%")
    #expect(_NumberText.percent(0.9, keepsZeros: false) == "90%")
    #expect(_NumberText.percent(0.001_844) == "0.2%")
    #expect(_NumberText.coordinate(12) == "12")
    #expect(_NumberText.coordinate(12.25) == "12.3")
    #expect(_NumberText.coordinate(-3.5) == "-3.5")
    #expect(_NumberText.coordinate(-0.01) == "0")
  }

  @Test func ticksAreRoundAndCoverTheData() {
    #expect(_Ticks.step(spanning: 6_035, atMost: 5) == 2_000)
    #expect(_Ticks.step(spanning: 34, atMost: 13, minimum: 1) == 5)
    #expect(_Ticks.step(spanning: 3, atMost: 13, minimum: 1) == 1)
    #expect(_Ticks.values(in: 0.5...29.5, step: 5) == [5, 10, 15, 20, 25])
    let entries = _Ticks.valueAxis(covering: 0...6_035, length: 200, spacing: 36)
    #expect(entries.domain == 0...8_000)
    #expect(entries.ticks == [0, 2_000, 4_000, 6_000, 8_000])
    let changes = _Ticks.valueAxis(covering: -2_702...60, length: 160, spacing: 30)
    #expect(changes.domain == -3_000...1_000)
    #expect(changes.ticks.contains(0))
    // Nothing to show still gives an axis from 0 to 1.
    #expect(_Ticks.valueAxis(covering: 0...0, length: 160, spacing: 30).domain == 0...1)
  }

  @Test func scalesMapTheDomainOntoPixels() {
    let frame = _ChartFrame(width: 200, height: 100, marginLeft: 20, marginRight: 10, marginTop: 10, marginBottom: 20)
    let x = frame.horizontalScale(0...10)
    #expect(x.position(0) == 20)
    #expect(x.position(10) == 190)
    let y = frame.verticalScale(0...100)
    #expect(y.position(0) == 80)
    #expect(y.position(100) == 10)
    // An empty domain is widened instead of dividing by zero.
    #expect(frame.horizontalScale(5...5).position(5) == 105)
  }

  @Test func versionTicksLeaveRoomForTheirDates() {
    let frame = _ChartFrame(width: 1160, height: 260, marginLeft: 74, marginRight: 20, marginTop: 40, marginBottom: 54)
    let versions = (1...365).map { number in
      StoreReport.Version(
        version: number, createdAt: "2026-01-01T02:00:00Z", blocking: number, identification: 0, labels: 0,
        rejected: 0, bytes: 0, forced: false, changes: nil)
    }
    let axis = _VersionAxis(frame: frame, versions: versions, refusals: [])
    let positions = axis.ticks.map { axis.scale.position($0.value) }
    let gaps = zip(positions.dropFirst(), positions).map { $0 - $1 }
    #expect(gaps.allSatisfy { $0 >= _ChartAxis.estimatedWidth("2026-01-01") })
    // The same date is written once, under the first tick.
    #expect(axis.ticks.filter { $0.lines.count == 2 }.count == 1)
  }
}
