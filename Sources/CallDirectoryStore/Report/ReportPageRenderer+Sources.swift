extension ReportPageRenderer {
  /// How many reasons the rejects table shows per source before it sums
  /// up the rest.
  static let reasonsPerSource = 10

  /// Each source's contribution to the latest version, and its rejected
  /// lines by reason.
  func sources(_ latest: StoreReport.Latest, into body: inout _Markup) {
    body.element("section", ["id": "sources"]) { section in
      section.element("h2", text: "Sources of version \(latest.version)")
      guard !latest.sources.isEmpty else {
        section.element("p", ["class": "muted"], text: "The catalog records no sources for this version.")
        return
      }
      section.element(
        "p", ["class": "note"],
        text: "Distinct numbers count ranges number by number; duplicates are numbers a source lists more than once; "
          + "unique entries are entries no other source of the list gives (for an allowlist, removals only it makes).")
      sourceTable(latest.sources, into: &section)
      section.element("h3", text: "Rejected lines by reason")
      let rejecting = latest.sources.filter { !$0.rejectReasons.isEmpty }
      guard !rejecting.isEmpty else {
        section.element("p", ["class": "muted"], text: "No rejected lines.")
        return
      }
      rejectTable(rejecting, into: &section)
    }
  }

  private func sourceTable(_ sources: [StoreReport.Source], into section: inout _Markup) {
    let columns: [(title: String, isNumber: Bool)] = [
      ("path", false), ("list", false), ("format", false), ("region", false), ("data lines", true),
      ("accepted", true), ("rejected", true), ("duplicates", true), ("distinct numbers", true),
      ("unique entries", true),
    ]
    section.element("table", ["class": "sources"]) { table in
      table.element("thead") { head in
        head.element("tr") { row in
          for column in columns { row.element("th", ["class": column.isNumber ? "num" : nil], text: column.title) }
        }
      }
      table.element("tbody") { rows in
        for source in sources {
          let contribution = source.contribution
          rows.element(
            "tr",
            attributes: [
              ("class", source.isMissing ? "warn" : nil), ("data-position", String(source.position)),
              ("data-path", source.path), ("data-list", source.list), ("data-format", source.format),
              ("data-data-lines", String(source.dataLines)), ("data-accepted", String(source.accepted)),
              ("data-rejected", String(source.rejected)), ("data-duplicates", contribution.map { String($0.duplicates) }),
              ("data-numbers", contribution.map { String($0.numbers) }),
              ("data-unique", contribution.map { String($0.unique) }), ("data-missing", String(source.isMissing)),
            ]
          ) { row in
            row.element("td", ["class": "path"]) { cell in
              cell.text(source.path)
              if source.isMissing {
                cell.empty("br")
                cell.element("span", ["class": "muted"], text: "file missing (published with --force)")
              }
            }
            row.element("td", text: source.list)
            row.element("td", text: source.format)
            row.element("td", text: source.region == "ZZ" ? "none" : source.region)
            for value in [source.dataLines, source.accepted, source.rejected] {
              row.element("td", ["class": "num"], text: _NumberText.grouped(value))
            }
            if let contribution {
              for value in [contribution.duplicates, contribution.numbers, contribution.unique] {
                row.element("td", ["class": "num"], text: _NumberText.grouped(value))
              }
            } else {
              row.element("td", ["class": "num muted", "colspan": "3"], text: "not recorded")
            }
          }
        }
      }
    }
  }

  private func rejectTable(_ sources: [StoreReport.Source], into section: inout _Markup) {
    section.element("table", ["class": "rejects"]) { table in
      table.element("thead") { head in
        head.element("tr") { row in
          row.element("th", text: "source")
          row.element("th", text: "reason")
          row.element("th", ["class": "num"], text: "lines")
        }
      }
      table.element("tbody") { rows in
        for source in sources {
          for reason in source.rejectReasons.prefix(Self.reasonsPerSource) {
            rows.element("tr", [
              "data-position": String(source.position), "data-path": source.path, "data-reason": reason.reason,
              "data-count": String(reason.count),
            ]) { row in
              row.element("td", ["class": "path"], text: source.path)
              row.element("td", text: reason.reason)
              row.element("td", ["class": "num"], text: _NumberText.grouped(reason.count))
            }
          }
          let rest = source.rejectReasons.dropFirst(Self.reasonsPerSource)
          if !rest.isEmpty {
            let lines = rest.reduce(0) { $0 + $1.count }
            rows.element("tr", [
              "class": "other-reasons", "data-position": String(source.position), "data-path": source.path,
              "data-reasons": String(rest.count), "data-count": String(lines),
            ]) { row in
              row.element("td", ["class": "path"], text: source.path)
              row.element(
                "td", ["class": "muted"],
                text: "\(Self.count(rest.count, "other reason")) (the rejects report of the version has every line)")
              row.element("td", ["class": "num"], text: _NumberText.grouped(lines))
            }
          }
        }
      }
    }
  }
}
