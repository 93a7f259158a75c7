extension ReportPageRenderer {
  /// How full each extension of the latest version is, against the limit
  /// of entries a Call Directory extension holds.
  func extensions(_ latest: StoreReport.Latest, into body: inout _Markup) {
    let limit = StoreReport.extensionEntryLimit
    body.element("section", ["id": "extensions"]) { section in
      section.element("h2", text: "Extension fill of version \(latest.version)")
      let isSharded = latest.extensions.contains { $0.shard != nil }
      section.element(
        "p", ["class": "note"],
        text: (isSharded
          ? "The version is published as \(Self.count(latest.extensions.count, "shard")), one per extension. "
          : "The version is not sharded: one extension holds every entry. ")
          + "A Call Directory extension holds at most \(_NumberText.grouped(limit)) entries (blocking plus "
          + "identification); past \(_NumberText.percent(StoreReport.fillWarningRatio, keepsZeros: false)) it is marked.")
      Self.legend(
        [
          ("fill", "entries"), ("warn", "past \(_NumberText.percent(StoreReport.fillWarningRatio, keepsZeros: false))"),
          ("over", "over the limit"),
        ], into: &section)
      extensionChart(latest.extensions, into: &section)
      extensionTable(latest.extensions, into: &section)
    }
  }

  /// The label of an extension's row.
  private static func extensionName(_ fill: StoreReport.ExtensionFill) -> String {
    fill.shard.map { "shard \($0)" } ?? "all entries"
  }

  /// `warn` past the warning ratio, `over` past the limit.
  private static func fillClass(_ fill: StoreReport.ExtensionFill) -> String? {
    fill.counts.total > StoreReport.extensionEntryLimit ? "over" : fill.isNearLimit ? "warn" : nil
  }

  private func extensionChart(_ extensions: [StoreReport.ExtensionFill], into body: inout _Markup) {
    let limit = Double(StoreReport.extensionEntryLimit)
    let rowHeight = 28.0
    let frame = Self.frame(
      height: 30 + Double(extensions.count) * rowHeight + 40, left: 110, right: 300, top: 30, bottom: 40)
    let largest = Double(extensions.map(\.counts.total).max() ?? 0)
    let values = _Ticks.valueAxis(covering: 0...max(limit, largest), length: frame.plotWidth, spacing: 70)
    let x = frame.horizontalScale(values.domain)
    _ChartAxis.chart(&body, frame: frame, label: "Entries per extension against the limit", class: "extensions") {
      svg in
      _ChartAxis.drawBottom(
        &svg, frame: frame, scale: x, ticks: values.ticks.map { _Tick($0, _NumberText.compact($0)) },
        title: "entries", gridlines: true)
      for (index, fill) in extensions.enumerated() {
        let top = frame.plotTop + Double(index) * rowHeight
        let middle = _NumberText.coordinate(top + rowHeight / 2 + 4)
        let end = x.position(Double(fill.counts.total))
        let state = Self.fillClass(fill)
        var text = "\(_NumberText.grouped(fill.counts.total)) entries (\(_NumberText.percent(fill.fill)))"
        if state == "over" { text += " over the limit" } else if state == "warn" { text += " near the limit" }
        svg.element(
          "g",
          attributes: [
            ("class", "extension"), ("data-shard", fill.shard.map(String.init)),
            ("data-lower", fill.lowerBound.map { String($0) }), ("data-upper", fill.upperBound.map { String($0) }),
            ("data-blocking", String(fill.counts.blocking)),
            ("data-identification", String(fill.counts.identification)),
            ("data-entries", String(fill.counts.total)), ("data-limit", String(StoreReport.extensionEntryLimit)),
          ]
        ) { group in
          group.element("title", text: "\(Self.extensionName(fill)): \(text)\n" + Self.rangeText(fill))
          group.element(
            "text",
            ["class": "label", "x": _NumberText.coordinate(frame.plotLeft - 8), "y": middle, "text-anchor": "end"],
            text: Self.extensionName(fill))
          group.empty("rect", [
            "class": "fill bar\(state.map { " " + $0 } ?? "")", "x": _NumberText.coordinate(frame.plotLeft),
            "y": _NumberText.coordinate(top + 5), "width": _NumberText.coordinate(max(1, end - frame.plotLeft)),
            "height": _NumberText.coordinate(rowHeight - 10),
          ])
          group.element(
            "text",
            [
              "class": state.map { "value \($0)-text" } ?? "value",
              "x": _NumberText.coordinate(Self.valuePosition(end: end, text: text, x: x)), "y": middle,
            ], text: text)
        }
      }
      for (value, name, label) in [
        (limit * StoreReport.fillWarningRatio, "threshold", _NumberText.percent(StoreReport.fillWarningRatio, keepsZeros: false)),
        (limit, "limit", "limit \(_NumberText.grouped(StoreReport.extensionEntryLimit))"),
      ] {
        let position = _NumberText.coordinate(x.position(value))
        svg.empty("line", [
          "class": name, "x1": position, "x2": position, "y1": _NumberText.coordinate(frame.plotTop - 6),
          "y2": _NumberText.coordinate(frame.plotBottom),
        ])
        svg.element(
          "text",
          [
            "class": "\(name)-text", "x": position, "y": _NumberText.coordinate(frame.plotTop - 10),
            "text-anchor": name == "limit" ? "start" : "end",
          ], text: label)
      }
    }
  }

  /// Where an extension's count goes: right after its bar when it fits
  /// before the warning line, else past the limit line (or the bar's end).
  private static func valuePosition(end: Double, text: String, x: _LinearScale) -> Double {
    let threshold = x.position(Double(StoreReport.extensionEntryLimit) * StoreReport.fillWarningRatio)
    if end + 8 + _ChartAxis.estimatedWidth(text) < threshold - 6 { return end + 8 }
    return max(end, x.position(Double(StoreReport.extensionEntryLimit))) + 8
  }

  /// `numbers 1 … 41212139999`, or that one extension holds everything.
  private static func rangeText(_ fill: StoreReport.ExtensionFill) -> String {
    guard let lower = fill.lowerBound, let upper = fill.upperBound else { return "every number of the version" }
    return "numbers \(lower) \u{2026} \(upper)"
  }

  private func extensionTable(_ extensions: [StoreReport.ExtensionFill], into section: inout _Markup) {
    section.element("table", ["class": "extensions"]) { table in
      table.element("thead") { head in
        head.element("tr") { row in
          for (title, isNumber) in [
            ("extension", false), ("numbers from", true), ("numbers to", true), ("blocking", true),
            ("identification", true), ("entries", true), ("fill", true),
          ] {
            row.element("th", ["class": isNumber ? "num" : nil], text: title)
          }
        }
      }
      table.element("tbody") { rows in
        for fill in extensions {
          rows.element(
            "tr",
            attributes: [
              ("class", Self.fillClass(fill)), ("data-shard", fill.shard.map(String.init)),
              ("data-blocking", String(fill.counts.blocking)),
              ("data-identification", String(fill.counts.identification)),
              ("data-entries", String(fill.counts.total)),
            ]
          ) { row in
            row.element("td", text: Self.extensionName(fill))
            row.element("td", ["class": "num"], text: fill.lowerBound.map { String($0) } ?? "\u{2013}")
            row.element("td", ["class": "num"], text: fill.upperBound.map { String($0) } ?? "\u{2013}")
            for value in [fill.counts.blocking, fill.counts.identification, fill.counts.total] {
              row.element("td", ["class": "num"], text: _NumberText.grouped(value))
            }
            row.element("td", ["class": "num"], text: _NumberText.percent(fill.fill))
          }
        }
      }
    }
  }
}
