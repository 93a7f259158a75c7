extension ReportPageRenderer {
  /// Bars up for the entries each version added to `list`, down for those
  /// it removed; versions whose changes were not recorded are grey bands.
  func changesChart(_ list: _ReportList, _ report: StoreReport, into body: inout _Markup) {
    let frame = Self.frame(height: 230, left: 74, top: 14, bottom: 54)
    let axis = versionAxis(report, frame: frame)
    let recorded = report.versions.compactMap(\.changes)
    let most = Double(recorded.map { list.added($0) }.max() ?? 0)
    let fewest = -Double(recorded.map { list.removed($0) }.max() ?? 0)
    let values = _Ticks.valueAxis(covering: fewest...max(most, 1), length: frame.plotHeight, spacing: 30)
    let y = frame.verticalScale(values.domain)
    _ChartAxis.chart(
      &body, frame: frame, label: "\(list.title) added and removed per version", class: "changes \(list.name)"
    ) { svg in
      Self.unrecordedBands(report.versions, axis: axis, frame: frame, into: &svg)
      _ChartAxis.drawLeft(
        &svg, frame: frame, scale: y,
        ticks: values.ticks.map { _Tick($0, ($0 > 0 ? "+" : "") + _NumberText.compact($0)) },
        title: "entries")
      axis.draw(&svg)
      let zero = y.position(0)
      Self.changeBars(list, report.versions, axis: axis, scale: y, into: &svg)
      svg.empty("line", [
        "class": "zero", "x1": _NumberText.coordinate(frame.plotLeft), "x2": _NumberText.coordinate(frame.plotRight),
        "y1": _NumberText.coordinate(zero), "y2": _NumberText.coordinate(zero),
      ])
      if !recorded.isEmpty && recorded.allSatisfy({ list.added($0) == 0 && list.removed($0) == 0 }) {
        svg.element(
          "text",
          [
            "class": "unrecorded-text", "x": _NumberText.coordinate((frame.plotLeft + frame.plotRight) / 2),
            "y": _NumberText.coordinate(zero - 8), "text-anchor": "middle",
          ], text: "no \(list.name) entries added or removed in any recorded version")
      }
      for version in report.versions {
        Self.changesHitArea(
          list, version, isFirst: version.version == report.versions.first?.version, axis: axis, frame: frame,
          into: &svg)
      }
    }
  }

  /// A grey band, labelled when it is wide enough, over each run of
  /// versions whose changes were not recorded.
  private static func unrecordedBands(
    _ versions: [StoreReport.Version], axis: _VersionAxis, frame: _ChartFrame, into svg: inout _Markup
  ) {
    for run in unrecordedRuns(versions) {
      let left = axis.slot(run.lowerBound).left
      let right = axis.slot(run.upperBound).right
      svg.empty("rect", [
        "class": "unrecorded", "x": _NumberText.coordinate(left), "y": _NumberText.coordinate(frame.plotTop),
        "width": _NumberText.coordinate(right - left), "height": _NumberText.coordinate(frame.plotHeight),
      ])
      if right - left >= _ChartAxis.estimatedWidth("not recorded") + 8 {
        svg.element(
          "text",
          [
            "class": "unrecorded-text", "x": _NumberText.coordinate((left + right) / 2),
            "y": _NumberText.coordinate(frame.plotTop + 16), "text-anchor": "middle",
          ], text: "not recorded")
      }
    }
  }

  /// Each recorded version's bars: up from zero for the entries added, down
  /// for those removed.
  private static func changeBars(
    _ list: _ReportList, _ versions: [StoreReport.Version], axis: _VersionAxis, scale y: _LinearScale,
    into svg: inout _Markup
  ) {
    let zero = y.position(0)
    let barWidth = max(1, min(24, axis.slotWidth * 0.7))
    for version in versions {
      guard let changes = version.changes else { continue }
      let left = _NumberText.coordinate(axis.center(version.version) - barWidth / 2)
      let width = _NumberText.coordinate(barWidth)
      for (name, count, sign) in [("added", list.added(changes), 1.0), ("removed", list.removed(changes), -1.0)]
      where count > 0 {
        // At least one pixel, so that a single entry shows.
        let height = max(1, abs(y.position(sign * Double(count)) - zero))
        svg.empty("rect", [
          "class": "\(name) bar", "x": left, "y": _NumberText.coordinate(sign > 0 ? zero - height : zero),
          "width": width, "height": _NumberText.coordinate(height),
        ])
      }
    }
  }

  /// A version's hit area over the chart's height: its data attributes and
  /// a title that says what it changed (or why that was not recorded).
  private static func changesHitArea(
    _ list: _ReportList, _ version: StoreReport.Version, isFirst: Bool, axis: _VersionAxis, frame: _ChartFrame,
    into svg: inout _Markup
  ) {
    let slot = axis.slot(version.version)
    var attributes: [_Markup.Attribute] = [
      ("class", "hit"), ("data-list", list.name), ("data-version", String(version.version)),
      ("data-created-at", version.createdAt),
    ]
    let title: String
    if let changes = version.changes {
      attributes += [
        ("data-\(list.name)-added", String(list.added(changes))),
        ("data-\(list.name)-removed", String(list.removed(changes))),
      ]
      title = "version \(version.version), published \(version.createdAt)\n\(list.name): "
        + "\(_NumberText.added(list.added(changes))) added, \(_NumberText.removed(list.removed(changes))) removed"
    } else {
      attributes.append(("data-changes", "not recorded"))
      title = "version \(version.version), published \(version.createdAt)\n\(list.name): changes not recorded "
        + (isFirst ? "(the first version)" : "(published by an older calldir)")
    }
    attributes += [
      ("x", _NumberText.coordinate(slot.left)), ("y", _NumberText.coordinate(frame.plotTop)),
      ("width", _NumberText.coordinate(slot.right - slot.left)),
      ("height", _NumberText.coordinate(frame.plotHeight)),
    ]
    svg.element("rect", attributes: attributes) { hit in hit.element("title", text: title) }
  }

  /// The runs of consecutive versions without recorded changes.
  private static func unrecordedRuns(_ versions: [StoreReport.Version]) -> [ClosedRange<Int>] {
    var runs: [ClosedRange<Int>] = []
    for version in versions where version.changes == nil {
      if let last = runs.last, last.upperBound + 1 == version.version {
        runs[runs.count - 1] = last.lowerBound...version.version
      } else {
        runs.append(version.version...version.version)
      }
    }
    return runs
  }
}
