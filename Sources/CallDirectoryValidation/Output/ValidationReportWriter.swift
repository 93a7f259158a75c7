import CalldirSystem
import CallDirectoryFormat

/// Writes violations and the summary as text diagnostics or as one JSON object.
///
/// Output is streamed: each violation is written when it is found, so memory
/// stays constant even when every violation is reported.
///
/// # Text
///
/// One line per violation, then notes, then a summary line:
///
///     list.txt:7: error: out of order: 9 after 10 in the blocking list
///     v42.cdir:entry 12 (identification): error: empty label for 33612345679
///     list.txt:9: warning: label for 33612345678 contains control character U+0007
///     list.txt: note: blocking entries look sorted as text, not numerically (e.g. 9 after 10); sort with `sort -n` or let `calldir build` do it
///     list.txt: note: 18 more violations not shown (use --max-errors 0 to show all)
///     list.txt: invalid: 20 errors in 1000 entries (600 blocking, 400 identification)
///
/// A valid input prints only `list.txt: valid: 1000 entries (…)` (with
/// `, 2 warnings` appended when there are warnings).
///
/// # JSON
///
/// One object on one line. `violations` comes first so it can be streamed:
///
///     {"file":"list.txt","violations":[{"line":7,"entry":null,"list":"blocking",
///      "kind":"out-of-order","severity":"error","number":9,"previous":10,
///      "message":"out of order: 9 after 10 in the blocking list"}],
///      "format":"text","valid":false,"entries":1000,
///      "lists":{"blocking":600,"identification":400},"errors":1,"warnings":0,
///      "truncated":false,"hint":null}
///
/// `line` is set for text input and `entry` (1-based within `list`) for
/// blobs; the other is `null`. `number` and `previous` are `null` when
/// unknown. List names are `blocking`, `identification`, `blockingRemoves`,
/// `blockingAdds`, `identificationRemoves`, `identificationAdds`.
public final class ValidationReportWriter {
  /// The output style.
  public enum Style: Sendable, Hashable {
    /// Compiler-style lines.
    case text
    /// One JSON object.
    case json
  }

  /// The file name printed in every line.
  public let name: String
  /// The output style.
  public let style: Style
  private let output: (String) -> Void
  private var written = 0

  /// Creates a writer.
  ///
  /// - Parameters:
  ///   - name: The file name printed in diagnostics (as given on the command line).
  ///   - style: Text or JSON.
  ///   - output: Receives the output, piece by piece (already newline-terminated lines for text).
  public init(name: String, style: Style, output: @escaping (String) -> Void) {
    self.name = name
    self.style = style
    self.output = output
  }

  /// Writes one violation.
  public func write(_ violation: Violation) {
    switch style {
    case .text:
      output("\(name):\(Self.location(violation.location)): \(violation.severity): \(violation.message)\n")
    case .json:
      output((written == 0 ? "{\"file\":\(Self.json(name)),\"violations\":[" : ",") + Self.json(violation))
    }
    written += 1
  }

  /// Writes the notes and summary (text) or closes the object (JSON).
  public func finish(_ summary: ValidationSummary) {
    switch style {
    case .text:
      if let hint = summary.hint { output("\(name): note: \(hint)\n") }
      if summary.isTruncated {
        let hidden = summary.violationCount - summary.reportedCount
        output("\(name): note: \(Self.count(hidden, "more violation")) not shown (use --max-errors 0 to show all)\n")
      }
      output("\(name): \(Self.summaryLine(summary))\n")
    case .json:
      var text = written == 0 ? "{\"file\":\(Self.json(name)),\"violations\":[" : ""
      text += "],\"format\":\(Self.json(summary.format.description))"
      text += ",\"valid\":\(summary.isValid),\"entries\":\(summary.entries),\"lists\":{"
      text += summary.lists.map { "\(Self.json(Self.key($0.list))):\($0.entries)" }.joined(separator: ",")
      text += "},\"errors\":\(summary.errorCount),\"warnings\":\(summary.warningCount)"
      text += ",\"truncated\":\(summary.isTruncated),\"hint\":\(summary.hint.map(Self.json) ?? "null")}\n"
      output(text)
    }
  }

  // MARK: Formatting

  /// `12` for a line, `entry 12 (identification adds)` for a blob entry.
  static func location(_ location: ViolationLocation) -> String {
    switch location {
    case .line(let line): "\(line)"
    case .entry(let section, let index): "entry \(index) (\(section))"
    }
  }

  /// The JSON name of a list, as `calldir inspect --json` uses.
  static func key(_ section: BlobSection) -> String {
    switch section {
    case .header: "header"
    case .blocking: "blocking"
    case .labels: "labels"
    case .identification: "identification"
    case .blockingRemoves: "blockingRemoves"
    case .blockingAdds: "blockingAdds"
    case .identificationRemoves: "identificationRemoves"
    case .identificationAdds: "identificationAdds"
    }
  }

  static func summaryLine(_ summary: ValidationSummary) -> String {
    let lists = summary.lists.map { "\($0.entries) \($0.list)" }.joined(separator: ", ")
    let entries = "\(count(summary.entries, "entry", plural: "entries")) (\(lists))"
    if summary.isValid {
      let warnings = summary.warningCount > 0 ? ", \(count(summary.warningCount, "warning"))" : ""
      return "valid: \(entries)\(warnings)"
    }
    let warnings = summary.warningCount > 0 ? ", \(count(summary.warningCount, "warning"))" : ""
    return "invalid: \(count(summary.errorCount, "error"))\(warnings) in \(entries)"
  }

  private static func count(_ value: UInt64, _ noun: String, plural: String? = nil) -> String {
    "\(value) " + (value == 1 ? noun : plural ?? noun + "s")
  }

  private static func json(_ violation: Violation) -> String {
    var text = "{\"line\":\(violation.line.map { "\($0)" } ?? "null")"
    text += ",\"entry\":\(violation.entry.map { "\($0)" } ?? "null")"
    text += ",\"list\":\(violation.list.map { json(key($0)) } ?? "null")"
    text += ",\"kind\":\(json(violation.kind.rawValue)),\"severity\":\(json(violation.severity.rawValue))"
    text += ",\"number\":\(violation.number.map { "\($0)" } ?? "null")"
    text += ",\"previous\":\(violation.previous.map { "\($0)" } ?? "null")"
    text += ",\"message\":\(json(violation.message))}"
    return text
  }

  /// A JSON string literal, as ``JSONValue`` writes strings (RFC 8259;
  /// hidden characters escaped as ``ShownText`` names them).
  static func json(_ string: String) -> String {
    JSONValue.string(string).serialized()
  }
}

@available(*, unavailable)
extension ValidationReportWriter: Sendable {}
