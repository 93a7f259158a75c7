import CalldirSystem
@testable import CommandLineKit
import Testing

@Suite struct ProgressReporterTests {
  /// A clock the test advances by hand.
  private final class ManualClock {
    var now = MonotonicInstant.now()
  }

  private func makeReporter(_ sink: MemorySink, _ clock: ManualClock, enabled: Bool = true) -> ProgressReporter {
    ProgressReporter(output: sink, isEnabled: enabled, intervalNanoseconds: 100_000_000, maxWidth: 20) { clock.now }
  }

  @Test func throttlesAndClears() {
    let sink = MemorySink(isTerminal: true)
    let clock = ManualClock()
    let progress = makeReporter(sink, clock)
    progress.update("one")
    progress.update("two")
    clock.now = clock.now.advanced(byNanoseconds: 50_000_000)
    progress.update("three")
    clock.now = clock.now.advanced(byNanoseconds: 60_000_000)
    progress.update("four")
    progress.finish()
    #expect(sink.text == "\rone\u{1B}[K\rfour\u{1B}[K\r\u{1B}[K")
  }

  @Test func buildsMessagesOnlyWhenDrawn() {
    let sink = MemorySink(isTerminal: true)
    let clock = ManualClock()
    let progress = makeReporter(sink, clock)
    var built = 0
    func message() -> String {
      built += 1
      return "m"
    }
    for _ in 0..<1000 { progress.update(message()) }
    #expect(built == 1)
  }

  @Test func truncatesToOneShortLine() {
    let sink = MemorySink(isTerminal: true)
    let progress = makeReporter(sink, ManualClock())
    progress.update("abcdefghijklmnopqrstuvwxyz\nsecond")
    #expect(sink.text == "\rabcdefghijklmnopqrst\u{1B}[K")
  }

  @Test func silentWhenNotATerminal() {
    let sink = MemorySink(isTerminal: false)
    let progress = ProgressReporter(output: sink)
    #expect(!progress.isEnabled)
    progress.update("one")
    progress.update(completed: 1, total: 2, label: "x")
    progress.finish()
    #expect(sink.text == "")
  }

  @Test func enabledForTerminalSinks() {
    #expect(ProgressReporter(output: MemorySink(isTerminal: true)).isEnabled)
  }

  @Test func finishWithoutUpdatesWritesNothing() {
    let sink = MemorySink(isTerminal: true)
    makeReporter(sink, ManualClock()).finish()
    #expect(sink.text == "")
  }

  @Test func formatsCounts() {
    #expect(ProgressReporter.format(completed: 250, total: 1000, label: "rows") == "rows: 250/1000 (25%)")
    #expect(ProgressReporter.format(completed: 7, total: nil, label: "rows") == "rows: 7")
    #expect(ProgressReporter.format(completed: 7, total: 0, label: "rows") == "rows: 7")
  }
}
