import CalldirSystem

/// A single, self-overwriting progress line on standard error.
///
/// The reporter draws only when its output is a terminal (`isatty(2)` for the
/// real standard error); otherwise every call is a no-op, so logs and pipes
/// stay clean. Updates are throttled (10 per second by default) and the
/// message is built only when it will be drawn.
///
///     let progress = context.makeProgressReporter()
///     for (index, row) in rows.enumerated() {
///       progress.update(completed: index, total: rows.count, label: "compiling")
///     }
///     progress.finish()
///
/// Not thread-safe; use it from the thread doing the work.
public final class ProgressReporter {
  /// Whether anything is drawn at all.
  public let isEnabled: Bool

  private let output: any OutputSink
  /// Nanoseconds.
  private let interval: UInt64
  private let maxWidth: Int
  private let now: () -> MonotonicInstant
  private var lastDraw: MonotonicInstant?
  private var isShowing = false

  /// Creates a reporter that draws on `output` only if it is a terminal.
  ///
  /// - Parameters:
  ///   - output: Usually the standard error sink.
  ///   - intervalMilliseconds: The minimum time between two redraws.
  public convenience init(output: any OutputSink, intervalMilliseconds: Int = 100) {
    self.init(
      output: output, isEnabled: output.isTerminal, intervalNanoseconds: UInt64(max(0, intervalMilliseconds)) * 1_000_000,
      maxWidth: 79
    ) { MonotonicInstant.now() }
  }

  init(
    output: any OutputSink,
    isEnabled: Bool,
    intervalNanoseconds: UInt64,
    maxWidth: Int,
    now: @escaping () -> MonotonicInstant
  ) {
    self.output = output
    self.isEnabled = isEnabled
    self.interval = intervalNanoseconds
    self.maxWidth = maxWidth
    self.now = now
  }

  /// Redraws the line with `message` unless the last redraw was too recent.
  ///
  /// - Parameter message: The text to show; evaluated only when drawn.
  public func update(_ message: @autoclosure () -> String) {
    guard isEnabled else { return }
    let instant = now()
    if let lastDraw, instant < lastDraw.advanced(byNanoseconds: interval) { return }
    lastDraw = instant
    draw(message())
  }

  /// Redraws the line as `label: completed/total (percent%)`, or `label: completed` without a total.
  public func update(completed: Int, total: Int?, label: String) {
    update(Self.format(completed: completed, total: total, label: label))
  }

  /// Clears the line; call once the work is done, before printing anything else to standard error.
  public func finish() {
    guard isEnabled, isShowing else { return }
    Self.writeControl("\r\u{1B}[K", to: output)
    isShowing = false
    lastDraw = nil
  }

  static func format(completed: Int, total: Int?, label: String) -> String {
    guard let total, total > 0 else { return "\(label): \(completed)" }
    let percent = min(100, max(0, completed * 100 / total))
    return "\(label): \(completed)/\(total) (\(percent)%)"
  }

  private func draw(_ message: String) {
    let firstLine = message.prefix { $0 != "\n" && $0 != "\r" }
    // The message (a path, say) is escaped; the line's own control
    // sequences are written as they are.
    Self.writeControl("\r" + ShownText.escaped(String(firstLine)).prefix(maxWidth) + "\u{1B}[K", to: output)
    isShowing = true
  }

  /// Writes `text` as raw bytes, control sequences included.
  private static func writeControl(_ text: String, to output: any OutputSink) {
    var copy = text
    copy.withUTF8 { output.write(bytes: UnsafeRawBufferPointer($0)) }
  }
}
