import CallDirectoryCompiler
import CallDirectoryStore
import CalldirSystem
import PhoneNumbers

/// One line of `calldir explain --json`: a number's explanation, with the
/// sources that could not be read and the region inputs were read in
/// (schemas/output/explain.schema.json).
struct ExplainedNumber: JSONEncodable {
  let explanation: NumberExplanation
  /// The sources whose lines are not shown, and why.
  let unusable: [(path: String, state: SourceState)]
  let region: String
  let regionNote: String?

  var json: JSONValue {
    let hasNumber = explanation.number != nil
    // libphonenumber's validity and type, as `normalize --json` gives them.
    let validity = explanation.number.flatMap { NumberingPlan.standard.validity(of: $0) }
    return [
      "input": explanation.input.json,
      "number": explanation.number.json,
      "reason": explanation.rejection.json,
      "valid": hasNumber ? .bool(validity?.isValid == true) : .null,
      "type": hasNumber ? .string((validity?.type ?? .unknown).rawValue) : .null,
      "version": explanation.version.json,
      "blocked": hasNumber ? .bool(explanation.blocked) : .null,
      "shard": explanation.shard.json,
      "label": explanation.label.json,
      "sources": .array(explanation.sources.map { line in
        [
          "path": line.path.json, "line": line.line.json, "list": line.list.rawValue.json,
          "kind": line.kind.rawValue.json, "label": line.label.json,
          "priority": line.priority.json, "date": line.day.map(\.iso8601).json,
          "notCounted": line.notCounted.json,
        ]
      }),
      "evidence": .array(explanation.evidence.map { finding in
        [
          "path": finding.path.json, "list": finding.list.rawValue.json, "reports": finding.reports.json,
          "counted": finding.counted.json, "minReports": finding.rules.minReports.json,
          "maxAgeDays": finding.rules.maxAgeDays.json, "kept": finding.isKept.json,
        ]
      }),
      "allowedBy": .array(explanation.allowedBy.map { ["path": $0.path.json, "line": $0.line.json] }),
      "lostLabels": .array(explanation.lostLabels.map { line in
        ["path": line.path.json, "line": line.line.json, "label": (line.label ?? "").json]
      }),
      "unreadSources": .array(unusable.map { source in
        ["path": source.path.json, "state": Self.stateName(source.state).json]
      }),
      "region": region.json,
      "regionNote": regionNote.json,
    ]
  }

  private static func stateName(_ state: SourceState) -> String {
    switch state {
    case .unchanged: "unchanged"
    case .changed: "changed"
    case .missing: "missing"
    case .unknownOptions: "unknownOptions"
    case .unreadable: "unreadable"
    }
  }
}
