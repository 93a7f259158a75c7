extension ReportPageRenderer {
  /// Every version with its counts and changes, newest first, folded away
  /// under a `<details>` element.
  func versionTable(_ report: StoreReport, into body: inout _Markup) {
    guard !report.versions.isEmpty else { return }
    body.element("details", ["id": "versions"]) { details in
      details.element("summary", text: "All versions (\(_NumberText.grouped(report.versions.count)))")
      details.element("table", ["class": "versions"]) { table in
        table.element("thead") { head in
          head.element("tr") { row in
            for (title, isNumber) in [
              ("version", true), ("published (UTC)", false), ("blocking", true), ("added", true), ("removed", true),
              ("identification", true), ("added", true), ("removed", true), ("labels", true), ("rejected", true),
              ("bytes", true), ("forced", false),
            ] {
              row.element("th", ["class": isNumber ? "num" : nil], text: title)
            }
          }
        }
        table.element("tbody") { rows in
          for version in report.versions.reversed() {
            rows.element("tr", attributes: Self.versionAttributes(version)) { row in
              row.element("td", ["class": "num"], text: String(version.version))
              row.element("td", text: version.createdAt)
              for list in _ReportList.allCases {
                row.element("td", ["class": "num"], text: _NumberText.grouped(list.entries(of: version)))
                if let changes = version.changes {
                  row.element("td", ["class": "num"], text: _NumberText.added(list.added(changes)))
                  row.element("td", ["class": "num"], text: _NumberText.removed(list.removed(changes)))
                } else {
                  row.element("td", ["class": "num muted", "colspan": "2"], text: "not recorded")
                }
              }
              for value in [version.labels, version.rejected, Int(version.bytes)] {
                row.element("td", ["class": "num"], text: _NumberText.grouped(value))
              }
              row.element("td", text: version.forced ? "forced" : "")
            }
          }
        }
      }
    }
  }

  /// The `data-*` attributes of a version's row.
  private static func versionAttributes(_ version: StoreReport.Version) -> [_Markup.Attribute] {
    var attributes: [_Markup.Attribute] = [
      ("data-version", String(version.version)), ("data-created-at", version.createdAt),
      ("data-blocking", String(version.blocking)), ("data-identification", String(version.identification)),
      ("data-labels", String(version.labels)), ("data-rejected", String(version.rejected)),
      ("data-bytes", String(version.bytes)), ("data-forced", String(version.forced)),
    ]
    if let changes = version.changes {
      for list in _ReportList.allCases {
        attributes += [
          ("data-\(list.name)-added", String(list.added(changes))),
          ("data-\(list.name)-removed", String(list.removed(changes))),
        ]
      }
    } else {
      attributes.append(("data-changes", "not recorded"))
    }
    return attributes
  }
}
