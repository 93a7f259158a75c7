/// One tick of an axis: its value and its label, one or more lines (the
/// first nearest the axis).
struct _Tick {
  let value: Double
  let lines: [String]

  init(_ value: Double, _ lines: String...) {
    self.value = value
    self.lines = lines
  }

  init(_ value: Double, lines: [String]) {
    self.value = value
    self.lines = lines
  }
}

/// Draws the axes of the report's charts: gridlines, tick marks, labels
/// and titles, the same way for every chart.
enum _ChartAxis {
  /// The font size of tick labels (the style sheet's `svg text`).
  static let fontSize = 11.0
  /// Pixels between two lines of a tick label.
  static let lineHeight = 13.0

  /// About how wide `text` is at `fontSize` (a little wider than the
  /// average glyph of common sans-serif fonts, to stay clear of overlaps).
  static func estimatedWidth(_ text: String, fontSize: Double = fontSize) -> Double {
    Double(text.count) * fontSize * 0.62
  }

  /// A value axis along the left edge: a horizontal gridline per tick
  /// across the plot, labels right-aligned in the margin, and `title`
  /// written upwards at the margin's left edge.
  static func drawLeft(
    _ markup: inout _Markup, frame: _ChartFrame, scale: _LinearScale, ticks: [_Tick], title: String
  ) {
    markup.element("g", ["class": "axis left"]) { axis in
      for tick in ticks {
        let y = _NumberText.coordinate(scale.position(tick.value))
        axis.empty("line", [
          "class": "grid", "x1": _NumberText.coordinate(frame.plotLeft), "x2": _NumberText.coordinate(frame.plotRight),
          "y1": y, "y2": y,
        ])
        axis.element(
          "text",
          [
            "x": _NumberText.coordinate(frame.plotLeft - 6),
            "y": _NumberText.coordinate(scale.position(tick.value) + 4), "text-anchor": "end",
          ], text: tick.lines.first ?? "")
      }
      let middle = _NumberText.coordinate((frame.plotTop + frame.plotBottom) / 2)
      axis.element(
        "text",
        ["class": "axis-title", "x": "12", "y": middle, "text-anchor": "middle", "transform": "rotate(-90 12 \(middle))"],
        text: title)
    }
  }

  /// An axis along the bottom edge: its baseline, a tick mark per tick
  /// (and a vertical gridline with `gridlines`), labels centred under the
  /// ticks but kept inside the chart, and `title` centred below.
  static func drawBottom(
    _ markup: inout _Markup, frame: _ChartFrame, scale: _LinearScale, ticks: [_Tick], title: String,
    gridlines: Bool = false
  ) {
    markup.element("g", ["class": "axis bottom"]) { axis in
      let bottom = frame.plotBottom
      axis.empty("line", [
        "class": "baseline", "x1": _NumberText.coordinate(frame.plotLeft),
        "x2": _NumberText.coordinate(frame.plotRight), "y1": _NumberText.coordinate(bottom),
        "y2": _NumberText.coordinate(bottom),
      ])
      for tick in ticks {
        let x = scale.position(tick.value)
        let xText = _NumberText.coordinate(x)
        if gridlines {
          axis.empty("line", [
            "class": "grid", "x1": xText, "x2": xText, "y1": _NumberText.coordinate(frame.plotTop),
            "y2": _NumberText.coordinate(bottom),
          ])
        }
        axis.empty("line", [
          "class": "baseline", "x1": xText, "x2": xText, "y1": _NumberText.coordinate(bottom),
          "y2": _NumberText.coordinate(bottom + 4),
        ])
        let width = tick.lines.map { estimatedWidth($0) }.max() ?? 0
        let anchor =
          x - width / 2 < 0 ? "start" : x + width / 2 > frame.width ? "end" : "middle"
        for (index, line) in tick.lines.enumerated() {
          axis.element(
            "text",
            [
              "class": index == 0 ? nil : "secondary", "x": xText,
              "y": _NumberText.coordinate(bottom + 16 + Double(index) * lineHeight), "text-anchor": anchor,
            ], text: line)
        }
      }
      axis.element(
        "text",
        [
          "class": "axis-title", "x": _NumberText.coordinate((frame.plotLeft + frame.plotRight) / 2),
          "y": _NumberText.coordinate(frame.height - 6), "text-anchor": "middle",
        ], text: title)
    }
  }

  /// The `<svg>` element of a chart, `frame` sized, with `label` as its
  /// accessible name and its `<title>`.
  static func chart(
    _ markup: inout _Markup, frame: _ChartFrame, label: String, class name: String,
    _ body: (inout _Markup) -> Void
  ) {
    let width = _NumberText.coordinate(frame.width)
    let height = _NumberText.coordinate(frame.height)
    markup.element(
      "svg",
      [
        "xmlns": "http://www.w3.org/2000/svg", "class": "chart \(name)", "width": width, "height": height,
        "viewBox": "0 0 \(width) \(height)", "role": "img", "aria-label": label,
      ]
    ) { svg in
      svg.element("title", text: label)
      body(&svg)
    }
  }
}
