extension ReportPageRenderer {
  /// Entries per version and additions and removals per version, with
  /// the forced and refused builds marked, over one shared version axis.
  func timeline(_ report: StoreReport, into body: inout _Markup) {
    body.element("section", ["id": "entries"]) { section in
      section.element("h2", text: "Entries per version")
      Self.legend(
        [
          ("blocking", "blocking entries"), ("identification", "identification entries"),
          ("forced", "forced build (published with --force)"),
          ("refused", "refused build (at the version it would have published)"),
        ], into: &section)
      for list in _ReportList.allCases {
        section.element("h3", text: list.title)
        entriesChart(list, report, into: &section)
      }
    }
    body.element("section", ["id": "changes"]) { section in
      section.element("h2", text: "Additions and removals per version")
      Self.legend(
        [
          ("added", "entries added"), ("removed", "entries removed"),
          ("unrecorded", "not recorded (the first version, or published by an older calldir)"),
        ], into: &section)
      for list in _ReportList.allCases {
        section.element("h3", text: list.title)
        changesChart(list, report, into: &section)
      }
    }
  }

  /// The x axis every timeline chart of `report` shares, in `frame`.
  func versionAxis(_ report: StoreReport, frame: _ChartFrame) -> _VersionAxis {
    _VersionAxis(frame: frame, versions: report.versions, refusals: report.refusals)
  }

  /// A step line of `list`'s entries per version, with the forced and
  /// refused builds on two tracks above it.
  private func entriesChart(_ list: _ReportList, _ report: StoreReport, into body: inout _Markup) {
    let frame = Self.frame(height: 270, left: 74, top: 52, bottom: 54)
    let axis = versionAxis(report, frame: frame)
    let largest = report.versions.map { list.entries(of: $0) }.max() ?? 0
    let values = _Ticks.valueAxis(covering: 0...Double(largest), length: frame.plotHeight, spacing: 36)
    let y = frame.verticalScale(values.domain)
    _ChartAxis.chart(&body, frame: frame, label: "\(list.title) per version", class: "entries \(list.name)") { svg in
      _ChartAxis.drawLeft(
        &svg, frame: frame, scale: y, ticks: values.ticks.map { _Tick($0, _NumberText.compact($0)) },
        title: "entries")
      axis.draw(&svg)
      if !report.versions.isEmpty {
        var line = ""
        for (index, version) in report.versions.enumerated() {
          let slot = axis.slot(version.version)
          let level = _NumberText.coordinate(y.position(Double(list.entries(of: version))))
          line += index == 0 ? "M\(_NumberText.coordinate(slot.left)) \(level)" : " V\(level)"
          line += " H\(_NumberText.coordinate(slot.right))"
        }
        let zero = _NumberText.coordinate(y.position(0))
        let start = _NumberText.coordinate(axis.slot(report.versions[0].version).left)
        svg.empty("path", ["class": "area \(list.name)", "d": line + " V\(zero) H\(start) Z"])
        svg.empty("path", ["class": "line \(list.name)", "d": line])
      }
      if axis.slotWidth >= 8 {
        for version in report.versions {
          svg.empty("circle", [
            "class": "dot \(list.name)", "cx": _NumberText.coordinate(axis.center(version.version)),
            "cy": _NumberText.coordinate(y.position(Double(list.entries(of: version)))), "r": "2.5",
          ])
        }
      }
      eventTracks(report, axis: axis, into: &svg)
      for version in report.versions {
        let slot = axis.slot(version.version)
        svg.element(
          "rect",
          [
            "class": "hit", "data-list": list.name, "data-version": String(version.version),
            "data-created-at": version.createdAt, "data-\(list.name)": String(list.entries(of: version)),
            "data-forced": String(version.forced),
            "x": _NumberText.coordinate(slot.left), "y": _NumberText.coordinate(frame.plotTop),
            "width": _NumberText.coordinate(slot.right - slot.left),
            "height": _NumberText.coordinate(frame.plotHeight),
          ]
        ) { hit in
          hit.element("title", text: Self.versionTitle(version, list))
        }
      }
    }
  }

  /// What a version's slot says on hover.
  private static func versionTitle(_ version: StoreReport.Version, _ list: _ReportList) -> String {
    var text = "version \(version.version), published \(version.createdAt)\n"
    text += "\(list.name): \(_NumberText.grouped(list.entries(of: version))) entries"
    if let changes = version.changes {
      text += " (\(_NumberText.added(list.added(changes))) added, \(_NumberText.removed(list.removed(changes))) removed)"
    }
    if version.forced { text += "\nforced build" }
    return text
  }

  /// Forced builds and refused builds as markers on two tracks in the top
  /// margin of a chart over versions.
  private func eventTracks(_ report: StoreReport, axis: _VersionAxis, into svg: inout _Markup) {
    let frame = axis.frame
    let forcedRow = frame.plotTop - 38
    let refusedRow = frame.plotTop - 20
    svg.element("g", ["class": "tracks"]) { tracks in
      for (row, name) in [(forcedRow, "forced"), (refusedRow, "refused")] {
        tracks.empty("line", [
          "class": "track-line", "x1": _NumberText.coordinate(frame.plotLeft),
          "x2": _NumberText.coordinate(frame.plotRight), "y1": _NumberText.coordinate(row),
          "y2": _NumberText.coordinate(row),
        ])
        tracks.element(
          "text",
          [
            "class": "track", "x": _NumberText.coordinate(frame.plotLeft - 6),
            "y": _NumberText.coordinate(row + 3.5), "text-anchor": "end",
          ], text: name)
      }
      for version in report.versions where version.forced {
        let x = axis.center(version.version)
        tracks.element("path", [
          "class": "forced marker", "data-version": String(version.version),
          "d": "M\(_NumberText.coordinate(x)) \(_NumberText.coordinate(forcedRow - 5)) l5 5 l-5 5 l-5 -5 Z",
        ]) { marker in
          marker.element("title", text: "version \(version.version): forced build, published \(version.createdAt)")
        }
      }
      for refusal in report.refusals {
        let x = axis.center(refusal.version)
        let left = _NumberText.coordinate(x - 4)
        let top = _NumberText.coordinate(refusedRow - 4)
        tracks.element("path", [
          "class": "refused marker", "data-version": String(refusal.version), "data-kind": refusal.kind,
          "d": "M\(left) \(top) l8 8 m0 -8 l-8 8",
        ]) { marker in
          marker.element(
            "title",
            text: "refused build (would have been version \(refusal.version)), attempted \(refusal.attemptedAt)\n"
              + "\(refusal.kind): \(refusal.message)")
        }
      }
    }
  }
}
