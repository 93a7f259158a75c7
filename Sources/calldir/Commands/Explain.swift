import CalldirSystem
import CallDirectoryCompiler
import CallDirectoryStore
import CommandLineKit
import PhoneNumbers

extension Calldir {
  /// `calldir explain`: why a published version blocks or labels a number.
  struct Explain: RunnableCommand {
    static let configuration = CommandConfiguration(
      name: "explain",
      abstract: "Show why a published version blocks or labels numbers, and which source lines say so.",
      discussion: """
        For each NUMBER (written any way the normalizer accepts): its E.164 digits; whether the \
        version blocks it and in which shard; its identification label; and every source line, \
        pattern or range that gives it, every allowlist line that removes it and every label that \
        lost a conflict.

        Sources are read again from the paths the catalog recorded for the version, and used only \
        when their checksums still match; a source that changed since is named. National numbers \
        are read in the defaultRegion the version was built with, unless --region says otherwise. \
        The blob lookups are binary searches over frames.
        """,
      exitStatuses: [
        .init(.success, "Every number was explained."),
        .init(.usage, "Bad arguments, or an unknown --region."),
        .init(.dataError, "An input is not a phone number (every input is still explained), or the catalog is damaged."),
        .init(.noInput, "The store has no catalog, or the version is not published."),
        .init(.tempFail, "The catalog is held by another process."),
      ],
      examples: [
        .init("Why is this number blocked in the latest version?", "calldir explain --store out/store \"+33 1 62 00 00 00\""),
        .init("The same for version 3, as JSON.", "calldir explain --store out/store --version 3 --json 33162000000"),
      ],
      seeAlso: [
        .init("Why is this number blocked?", "guides/why-blocked.md"),
        .init("The explain command in detail", "reference/explain.md"),
      ]
    )

    @Argument(name: "number", atLeastOne: true, help: "The numbers to explain.")
    var numbers: [String]
    @Option(.store)
    var storePath: String
    @Option(
      valueName: "n", help: "The version to explain (default: the latest).",
      transform: { (text: String) throws(UsageError) in
        guard let value = Int(text), value > 0 else {
          throw .invalid("--version must be a published version number such as 3, not '\(text)'")
        }
        return value
      })
    var version: Int?
    @Option(
      .region,
      help: "Region (ISO 3166 code) for numbers without a country code; ZZ for none (default: the version's defaultRegion).")
    var regionCode: String?
    @Flag(help: "Only look the numbers up in the blob; do not read the sources.")
    var noProvenance: Bool
    @Flag(.json, help: "Print one JSON object per number.")
    var json: Bool

    /// Whether the sources are read for each number's provenance.
    var provenance: Bool { !noProvenance }

    func validate() throws {
      if let regionCode { _ = try RegionArgument.resolve(regionCode) }
    }

    func run(context: CommandContext) throws {
      let explainer = NumberExplainer(store: StoreLayout(root: storePath))
      // Without --region, national inputs are read as the build read them.
      let inputRegion: NumberExplainer.InputRegion =
        try regionCode.map { .given(try RegionArgument.resolve($0)) } ?? .asBuilt
      let report: NumberExplainer.Report
      report = try explainer.explain(numbers, version: version, inputRegion: inputRegion, provenance: provenance)
      let unusable = report.sources.filter { $0.state != .unchanged }
      let output = context.standardOutput
      for explanation in report.explanations {
        if json {
          output.writeJSONLine(
            ExplainedNumber(explanation: explanation, unusable: unusable, region: report.region, regionNote: report.regionNote))
        } else {
          Self.write(explanation, to: output)
        }
      }
      if !json {
        for source in unusable { output.writeLine("note: \(Self.describe(source.path, source.state, version: report.version))") }
        if let note = report.regionNote { output.writeLine("note: \(note)") }
      }
      if let invalid = report.explanations.first(where: { $0.number == nil }) {
        throw CommandFailure(
          .dataError,
          "'\(ShownText.escaped(invalid.input))' is not a phone number: \(invalid.rejection ?? "")")
      }
    }

    private static func write(_ explanation: NumberExplanation, to output: any OutputSink) {
      // Inputs and paths are escaped: a control character in either must
      // not reach the terminal.
      let input = ShownText.escaped(explanation.input)
      guard let number = explanation.number else {
        output.writeLine("\(input): not a phone number (\(explanation.rejection ?? ""))")
        return
      }
      var state = explanation.blocked ? "blocked" : "not blocked"
      if let shard = explanation.shard { state += " (shard \(shard))" }
      state += explanation.label.map { ", label \"\($0)\"" } ?? ", no label"
      output.writeLine("\(input): \(number): version \(explanation.version): \(state)")
      for line in explanation.sources {
        var text = "  \(line.list.rawValue) \(ShownText.escaped(line.path)):\(line.line) (\(line.kind.rawValue)"
        if let label = line.label { text += ", label \"\(label)\"" }
        if line.priority != 0 { text += ", priority \(line.priority)" }
        if let reason = line.notCounted { text += "; not counted: \(reason)" }
        output.writeLine(text + ")")
      }
      for finding in explanation.evidence {
        var rules = "minReports \(finding.rules.minReports)"
        if let days = finding.rules.maxAgeDays { rules += ", maxAgeDays \(days)" }
        let noun = finding.reports == 1 ? "report" : "reports"
        output.writeLine(
          "  evidence \(ShownText.escaped(finding.path)) (\(finding.list.rawValue)): \(finding.reports) \(noun), "
            + "\(finding.counted) counted (\(rules)): " + (finding.isKept ? "enough" : "too few, so this source does not give it"))
      }
      for line in explanation.allowedBy {
        output.writeLine("  allowed by \(ShownText.escaped(line.path)):\(line.line) (\(line.kind.rawValue))")
      }
      for line in explanation.lostLabels {
        output.writeLine(
          "  lost label \"\(line.label ?? "")\" from \(ShownText.escaped(line.path)):\(line.line) (priority \(line.priority))")
      }
    }

    private static func describe(_ path: String, _ state: SourceState, version: Int) -> String {
      switch state {
      case .unchanged: "source \(path) is as version \(version) read it"
      case .changed: "source \(path) changed since version \(version) was built; its lines are not shown"
      case .missing: "source \(path) is gone; its lines are not shown"
      case .unknownOptions:
        "source \(path) was recorded by an older calldir without its options; its lines are not shown"
      case .unreadable(let reason): "source \(path) cannot be read (\(reason)); its lines are not shown"
      }
    }
  }
}
