/// The horizontal axis of the charts over versions: one slot per version
/// from the first published to the last (or the last refused, when a
/// refused build came after it), ticks at round versions spaced so that
/// their labels (the version, and under it its date when published and
/// not the same as the previous tick's) never overlap.
struct _VersionAxis {
  let frame: _ChartFrame
  let scale: _LinearScale
  let ticks: [_Tick]
  let first: Int
  let last: Int

  /// The widest tick label: a date (`2026-05-15`) and a gap.
  private static let tickSpacing = _ChartAxis.estimatedWidth("2026-05-15") + 16

  init(frame: _ChartFrame, versions: [StoreReport.Version], refusals: [StoreReport.Refusal]) {
    let numbers = versions.map(\.version) + refusals.map(\.version)
    first = numbers.min() ?? 1
    last = numbers.max() ?? 1
    self.frame = frame
    scale = frame.horizontalScale((Double(first) - 0.5)...(Double(last) + 0.5))
    let step = _Ticks.step(
      spanning: Double(last - first + 1), atMost: Int(frame.plotWidth / Self.tickSpacing), minimum: 1)
    var dates: [Int: String] = [:]
    for version in versions { dates[version.version] = String(version.createdAt.prefix(10)) }
    var values = _Ticks.values(in: Double(first)...Double(last), step: step)
    // The first version is worth a label when the next tick leaves room.
    if let tick = values.first, Double(first) < tick,
      (tick - Double(first)) * scale.pixelsPerUnit >= Self.tickSpacing
    {
      values.insert(Double(first), at: 0)
    }
    // A date under a tick only where it differs from the one before it.
    var shownDate: String?
    ticks = values.map { value in
      let version = Int(value)
      guard let date = dates[version], date != shownDate else { return _Tick(value, String(version)) }
      shownDate = date
      return _Tick(value, String(version), date)
    }
  }

  /// The centre of a version's slot.
  func center(_ version: Int) -> Double {
    scale.position(Double(version))
  }

  /// The left and right edges of a version's slot.
  func slot(_ version: Int) -> (left: Double, right: Double) {
    (scale.position(Double(version) - 0.5), scale.position(Double(version) + 0.5))
  }

  /// How wide one version's slot is.
  var slotWidth: Double { scale.pixelsPerUnit }

  /// Draws the axis along the bottom of `frame`.
  func draw(_ markup: inout _Markup) {
    _ChartAxis.drawBottom(&markup, frame: frame, scale: scale, ticks: ticks, title: "version (date published, UTC)")
  }
}
