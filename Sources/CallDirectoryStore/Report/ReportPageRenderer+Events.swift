extension ReportPageRenderer {
  /// Forced and refused builds in the order they happened.
  func events(_ report: StoreReport, into body: inout _Markup) {
    body.element("section", ["id": "events"]) { section in
      section.element("h2", text: "Forced and refused builds")
      let forced = report.versions.filter(\.forced)
      guard !forced.isEmpty || !report.refusals.isEmpty else {
        section.element("p", ["class": "muted"], text: "No forced or refused builds.")
        return
      }
      section.element(
        "p", ["class": "note"],
        text: "\(Self.count(forced.count, "forced build")) and \(Self.count(report.refusals.count, "refused build")). "
          + "A refused build published nothing; the catalog keeps the attempt.")
      enum Event {
        case forced(StoreReport.Version)
        case refused(StoreReport.Refusal)
        var time: String {
          switch self {
          case .forced(let version): version.createdAt
          case .refused(let refusal): refusal.attemptedAt
          }
        }
      }
      // Stable: by time, then in catalog order (forced before refused at the same second).
      let events = (forced.map { Event.forced($0) } + report.refusals.map { Event.refused($0) })
        .enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(\.element)
      section.element("table", ["class": "events"]) { table in
        table.element("thead") { head in
          head.element("tr") { row in
            for (title, isNumber) in [
              ("time (UTC)", false), ("version", true), ("event", false), ("source", false), ("message", false),
            ] {
              row.element("th", ["class": isNumber ? "num" : nil], text: title)
            }
          }
        }
        table.element("tbody") { rows in
          for event in events {
            switch event {
            case .forced(let version):
              rows.element("tr", [
                "class": "forced", "data-event": "forced", "data-version": String(version.version),
                "data-time": version.createdAt,
              ]) { row in
                row.element("td", text: version.createdAt)
                row.element("td", ["class": "num"], text: String(version.version))
                row.element("td", text: "forced build")
                row.element("td", text: "")
                row.element(
                  "td", ["class": "message"],
                  text: "published with --force: \(_NumberText.grouped(version.blocking)) blocking, "
                    + "\(_NumberText.grouped(version.identification)) identification entries")
              }
            case .refused(let refusal):
              rows.element("tr", [
                "class": "refused", "data-event": "refused", "data-version": String(refusal.version),
                "data-time": refusal.attemptedAt, "data-kind": refusal.kind, "data-source": refusal.source,
              ]) { row in
                row.element("td", text: refusal.attemptedAt)
                row.element("td", ["class": "num"], text: String(refusal.version))
                row.element("td", text: "refused: \(refusal.kind)")
                row.element("td", ["class": "path"], text: refusal.source ?? "")
                row.element("td", ["class": "message"], text: refusal.message)
              }
            }
          }
        }
      }
    }
  }
}
