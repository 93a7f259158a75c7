/// The size of a chart and the plot rectangle inside its margins, in pixels.
struct _ChartFrame {
  let width: Double
  let height: Double
  let marginLeft: Double
  let marginRight: Double
  let marginTop: Double
  let marginBottom: Double

  var plotLeft: Double { marginLeft }
  var plotRight: Double { width - marginRight }
  var plotTop: Double { marginTop }
  var plotBottom: Double { height - marginBottom }
  var plotWidth: Double { plotRight - plotLeft }
  var plotHeight: Double { plotBottom - plotTop }

  /// The scale of a horizontal axis across the plot.
  func horizontalScale(_ domain: ClosedRange<Double>) -> _LinearScale {
    _LinearScale(domain: domain, start: plotLeft, end: plotRight)
  }

  /// The scale of a vertical axis up the plot.
  func verticalScale(_ domain: ClosedRange<Double>) -> _LinearScale {
    _LinearScale(domain: domain, start: plotBottom, end: plotTop)
  }
}
