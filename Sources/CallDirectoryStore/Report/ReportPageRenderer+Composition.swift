extension ReportPageRenderer {
  /// One bar of the composition chart.
  private struct CompositionRow {
    let label: String
    /// `data-calling-code`: the code, `others` or `none`.
    let key: String
    let region: String?
    /// How many calling codes an `others` row stands for.
    let codes: Int?
    let counts: StoreReport.EntryCounts
  }

  /// The latest version's entries by country calling code: the top codes,
  /// the rest as "others", and numbers without a calling code.
  func composition(_ latest: StoreReport.Latest, into body: inout _Markup) {
    body.element("section", ["id": "composition"]) { section in
      section.element("h2", text: "Version \(latest.version) by country calling code")
      let rows = Self.compositionRows(latest)
      guard !rows.isEmpty else {
        section.element("p", ["class": "muted"], text: "The version holds no entries.")
        return
      }
      section.element(
        "p", ["class": "note"],
        text: "Each entry counted under the longest 1\u{2013}3 digit prefix of its number that is a country "
          + "calling code, with the code's main region; "
          + "\(Self.count(latest.callingCodes.count, "calling code")) in all.")
      Self.legend([("blocking", "blocking entries"), ("identification", "identification entries")], into: &section)
      compositionChart(rows, into: &section)
    }
  }

  private static func compositionRows(_ latest: StoreReport.Latest) -> [CompositionRow] {
    var rows = latest.callingCodes.prefix(topCallingCodes).map { code in
      CompositionRow(
        label: "+\(code.callingCode) \(code.region == "001" ? "non-geographic" : code.region)",
        key: String(code.callingCode), region: code.region, codes: nil, counts: code.counts)
    }
    let rest = latest.callingCodes.dropFirst(topCallingCodes)
    if !rest.isEmpty {
      let counts = rest.reduce(into: StoreReport.EntryCounts()) { sum, code in
        sum.blocking += code.counts.blocking
        sum.identification += code.counts.identification
      }
      rows.append(
        CompositionRow(
          label: "others (\(count(rest.count, "code")))", key: "others", region: nil, codes: rest.count,
          counts: counts))
    }
    if latest.noCallingCode.total > 0 {
      rows.append(
        CompositionRow(label: "no calling code", key: "none", region: nil, codes: nil, counts: latest.noCallingCode))
    }
    return rows
  }

  /// Horizontal stacked bars, one row per calling code, with the counts
  /// written after each bar.
  private func compositionChart(_ rows: [CompositionRow], into body: inout _Markup) {
    let rowHeight = 24.0
    let valueRoom = 310.0
    let frame = Self.frame(
      height: 10 + Double(rows.count) * rowHeight + 40, left: 170, right: 20 + valueRoom, top: 10, bottom: 40)
    let largest = Double(rows.map(\.counts.total).max() ?? 0)
    let values = _Ticks.valueAxis(covering: 0...largest, length: frame.plotWidth, spacing: 70)
    let x = frame.horizontalScale(values.domain)
    _ChartAxis.chart(&body, frame: frame, label: "Entries by country calling code", class: "composition") { svg in
      _ChartAxis.drawBottom(
        &svg, frame: frame, scale: x, ticks: values.ticks.map { _Tick($0, _NumberText.compact($0)) },
        title: "entries", gridlines: true)
      for (index, row) in rows.enumerated() {
        let top = frame.plotTop + Double(index) * rowHeight
        let barTop = _NumberText.coordinate(top + 4)
        let barHeight = _NumberText.coordinate(rowHeight - 8)
        let middle = _NumberText.coordinate(top + rowHeight / 2 + 4)
        let blockingEnd = x.position(Double(row.counts.blocking))
        let end = x.position(Double(row.counts.total))
        svg.element(
          "g",
          attributes: [
            ("class", "code"), ("data-calling-code", row.key), ("data-region", row.region),
            ("data-codes", row.codes.map(String.init)), ("data-blocking", String(row.counts.blocking)),
            ("data-identification", String(row.counts.identification)),
          ]
        ) { group in
          group.element("title", text: "\(row.label): \(Self.compositionText(row.counts))")
          group.element(
            "text",
            [
              "class": "label", "x": _NumberText.coordinate(frame.plotLeft - 8), "y": middle, "text-anchor": "end",
            ], text: row.label)
          if row.counts.blocking > 0 {
            group.empty("rect", [
              "class": "blocking bar", "x": _NumberText.coordinate(frame.plotLeft), "y": barTop,
              "width": _NumberText.coordinate(max(1, blockingEnd - frame.plotLeft)), "height": barHeight,
            ])
          }
          if row.counts.identification > 0 {
            group.empty("rect", [
              "class": "identification bar", "x": _NumberText.coordinate(blockingEnd), "y": barTop,
              "width": _NumberText.coordinate(max(1, end - blockingEnd)), "height": barHeight,
            ])
          }
          group.element(
            "text", ["class": "value", "x": _NumberText.coordinate(max(end, frame.plotLeft + 1) + 6), "y": middle],
            text: Self.compositionText(row.counts))
        }
      }
    }
  }

  /// `2,950 blocking, 150 identification` (a list without entries is left out).
  private static func compositionText(_ counts: StoreReport.EntryCounts) -> String {
    var parts: [String] = []
    if counts.blocking > 0 || counts.identification == 0 { parts.append("\(_NumberText.grouped(counts.blocking)) blocking") }
    if counts.identification > 0 { parts.append("\(_NumberText.grouped(counts.identification)) identification") }
    return parts.joined(separator: ", ")
  }
}
