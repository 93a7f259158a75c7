/// Renders a ``StoreReport`` as one self-contained page: XHTML with inline
/// SVG charts and CSS, no scripts, nothing fetched from elsewhere.
///
/// The page is well-formed XML (every element closed, every text and
/// attribute escaped), so it parses with an XML parser as well as in a
/// browser. Every number it shows is in its text, and the chart elements
/// and table rows carry it in `data-*` attributes (`data-version`,
/// `data-blocking`, …) for tools and tests. The same report always gives
/// the same bytes: nothing depends on the clock, the locale or the order
/// of a dictionary.
///
/// Sections: entries per version for each list, additions and removals
/// per version, forced and refused builds (the only section while nothing
/// was published), the latest version by country
/// calling code, its sources and their rejects, and the fill of its
/// extensions against ``StoreReport/extensionEntryLimit``; then every
/// version in a table.
public struct ReportPageRenderer {
  /// The width of every chart, in pixels.
  static let chartWidth = 1160.0
  /// How many calling codes the composition shows before "others".
  static let topCallingCodes = 20

  public init() {}

  /// The page for `report`, as UTF-8 text.
  public func render(_ report: StoreReport) -> String {
    var page = _Markup(reservingCapacity: 64 * 1024 + report.versions.count * 1024)
    page.raw("<!DOCTYPE html>\n")
    page.element("html", ["xmlns": "http://www.w3.org/1999/xhtml", "lang": "en", "xml:lang": "en"]) { html in
      html.element("head") { head in
        head.empty("meta", ["charset": "utf-8"])
        head.empty("meta", ["name": "viewport", "content": "width=device-width, initial-scale=1"])
        head.element("title", text: "calldir report: \(report.title)")
        head.element("style", text: Self.styleSheet)
      }
      html.element("body") { body in
        header(report, into: &body)
        guard !report.versions.isEmpty else {
          // Refused builds are all there is to show.
          if report.refusals.isEmpty {
            body.element("p", ["class": "muted"], text: "Nothing published yet: run 'calldir build' first.")
          } else {
            events(report, into: &body)
          }
          return
        }
        timeline(report, into: &body)
        events(report, into: &body)
        if let latest = report.latest {
          composition(latest, into: &body)
          sources(latest, into: &body)
          extensions(latest, into: &body)
        }
        versionTable(report, into: &body)
      }
    }
    page.raw("\n")
    return page.output
  }

  /// The title and a summary of the latest version.
  private func header(_ report: StoreReport, into body: inout _Markup) {
    body.element("h1") { heading in
      heading.text("calldir report: ")
      heading.element("span", ["class": report.dataset.isEmpty ? "path" : "dataset"], text: report.title)
    }
    if !report.dataset.isEmpty {
      body.element("p", ["class": "muted"]) { line in
        line.text("Store ")
        line.element("span", ["class": "path"], text: report.store)
      }
    }
    let forced = report.versions.filter(\.forced).count
    body.element(
      "p",
      [
        "class": "summary", "data-versions": String(report.versions.count), "data-forced": String(forced),
        "data-refusals": String(report.refusals.count), "data-generated-at": report.generatedAt,
      ]
    ) { summary in
      guard let newest = report.versions.last, let oldest = report.versions.first else {
        summary.text("No version published yet")
        if !report.refusals.isEmpty { summary.text("; \(Self.count(report.refusals.count, "refused build"))") }
        summary.text(".")
        return
      }
      summary.text(
        "Latest version \(newest.version), published \(newest.createdAt): "
          + "\(_NumberText.grouped(newest.blocking)) blocking and "
          + "\(_NumberText.grouped(newest.identification)) identification entries "
          + "(\(_NumberText.grouped(newest.labels)) labels). "
          + "\(Self.count(report.versions.count, "version")) since \(oldest.createdAt.prefix(10)), "
          + "\(Self.count(forced, "forced build")), \(Self.count(report.refusals.count, "refused build")).")
    }
    if let generatedAt = report.generatedAt {
      body.element(
        "p", ["class": "note"],
        text: "The facts are those of the store's catalog as of its latest version (\(generatedAt)); "
          + "hover over a chart for the numbers of each version.")
    }
  }

  /// `1 version`, `3 versions`.
  static func count(_ value: Int, _ noun: String) -> String {
    "\(_NumberText.grouped(value)) \(noun)\(value == 1 ? "" : "s")"
  }

  /// A chart frame as wide as every chart.
  static func frame(height: Double, left: Double, right: Double = 20, top: Double, bottom: Double) -> _ChartFrame {
    _ChartFrame(
      width: chartWidth, height: height, marginLeft: left, marginRight: right, marginTop: top,
      marginBottom: bottom)
  }

  /// A legend: a coloured swatch per entry.
  static func legend(_ entries: [(swatch: String, text: String)], into body: inout _Markup) {
    body.element("p", ["class": "legend"]) { legend in
      for entry in entries {
        legend.element("span", ["class": "swatch \(entry.swatch)"]) { _ in }
        legend.text(entry.text + " ")
      }
    }
  }

  /// The style sheet. It must not hold `<` or `&`: in a browser, a page
  /// served as HTML keeps the content of `<style>` unescaped.
  static let styleSheet = """
    :root { color-scheme: light; }
    body { margin: 24px auto; max-width: 1180px; padding: 0 20px; color: #1a202c; background: #ffffff;
      font: 14px/1.45 system-ui, "Segoe UI", Roboto, "DejaVu Sans", Helvetica, Arial, sans-serif; }
    h1 { font-size: 22px; margin: 0 0 6px; }
    h2 { font-size: 17px; margin: 34px 0 6px; padding-bottom: 4px; border-bottom: 1px solid #cbd5e0; }
    h3 { font-size: 14px; margin: 18px 0 2px; }
    p { margin: 4px 0; }
    .summary { font-size: 15px; }
    .note, .legend { color: #4a5568; font-size: 13px; }
    .muted { color: #718096; font-style: italic; }
    .path { font-family: ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: 0.92em; }
    .swatch { display: inline-block; width: 12px; height: 12px; margin: 0 5px 0 14px; vertical-align: -1px;
      border-radius: 2px; }
    .swatch:first-child { margin-left: 0; }
    svg.chart { display: block; max-width: 100%; height: auto; margin: 4px 0 8px; }
    svg text { font-size: 11px; fill: #4a5568; }
    svg text.secondary { fill: #718096; }
    svg text.axis-title { font-size: 12px; fill: #2d3748; }
    svg text.label { font-size: 12px; fill: #1a202c; }
    svg text.value { font-size: 11px; fill: #2d3748; }
    .grid { stroke: #e2e8f0; stroke-width: 1; }
    .baseline { stroke: #a0aec0; stroke-width: 1; }
    .zero { stroke: #4a5568; stroke-width: 1; }
    .line { fill: none; stroke-width: 2; }
    .line.blocking { stroke: #2b6cb0; }
    .line.identification { stroke: #6b46c1; }
    .area.blocking { fill: #2b6cb0; fill-opacity: 0.10; }
    .area.identification { fill: #6b46c1; fill-opacity: 0.10; }
    .dot.blocking { fill: #2b6cb0; }
    .dot.identification { fill: #6b46c1; }
    .blocking.bar, .swatch.blocking { fill: #3182ce; background: #3182ce; }
    .identification.bar, .swatch.identification { fill: #805ad5; background: #805ad5; }
    .added.bar, .swatch.added { fill: #38a169; background: #38a169; }
    .removed.bar, .swatch.removed { fill: #e53e3e; background: #e53e3e; }
    .unrecorded, .swatch.unrecorded { fill: #e2e8f0; background: #e2e8f0; }
    svg text.unrecorded-text { fill: #4a5568; font-style: italic; }
    .forced.marker, .swatch.forced { fill: #dd6b20; background: #dd6b20; }
    .refused.marker { stroke: #c53030; stroke-width: 2.5; fill: none; }
    .swatch.forced { transform: rotate(45deg) scale(0.8); }
    .swatch.refused { color: #c53030; font-weight: 700; font-size: 13px; line-height: 12px; text-align: center; }
    .swatch.refused::before { content: "\\2715"; }
    svg text.track { fill: #4a5568; font-size: 10px; }
    .track-line { stroke: #edf2f7; stroke-width: 1; }
    .hit { fill: #1a202c; fill-opacity: 0; }
    .hit:hover { fill-opacity: 0.07; }
    .fill.bar, .swatch.fill { fill: #3182ce; background: #3182ce; }
    .fill.bar.warn, .swatch.warn { fill: #dd6b20; background: #dd6b20; }
    .fill.bar.over, .swatch.over { fill: #c53030; background: #c53030; }
    .limit { stroke: #1a202c; stroke-width: 1.5; stroke-dasharray: 6 4; }
    .threshold { stroke: #dd6b20; stroke-width: 1; stroke-dasharray: 2 3; }
    svg text.limit-text { fill: #c53030; font-weight: 600; }
    svg text.threshold-text { fill: #c05621; }
    svg text.warn-text { fill: #c05621; font-weight: 600; }
    svg text.over-text { fill: #c53030; font-weight: 600; }
    table { border-collapse: collapse; margin: 8px 0 16px; font-size: 13px; }
    th, td { padding: 4px 10px; border-bottom: 1px solid #e2e8f0; text-align: left; vertical-align: top; }
    th { background: #f7fafc; font-weight: 600; }
    th.num, td.num { text-align: right; white-space: nowrap; font-variant-numeric: tabular-nums; }
    td.path { word-break: break-all; }
    tr.warn td { background: #fffaf0; }
    tr.over td { background: #fff5f5; }
    td.message { max-width: 560px; }
    details { margin: 28px 0; }
    summary { cursor: pointer; font-weight: 600; font-size: 15px; }
    """
}
