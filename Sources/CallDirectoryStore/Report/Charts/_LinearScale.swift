/// Maps values of a domain linearly onto pixels of a chart: `start` is the
/// pixel of the domain's lower bound, `end` the pixel of its upper bound
/// (`end < start` for a vertical axis, whose pixels grow downwards).
struct _LinearScale {
  let domain: ClosedRange<Double>
  let start: Double
  let end: Double

  /// A scale over `domain`; an empty domain is widened by one on each side.
  init(domain: ClosedRange<Double>, start: Double, end: Double) {
    self.domain = domain.upperBound > domain.lowerBound ? domain : (domain.lowerBound - 1)...(domain.upperBound + 1)
    self.start = start
    self.end = end
  }

  /// The pixel of `value` (values outside the domain map outside the range).
  func position(_ value: Double) -> Double {
    start + (value - domain.lowerBound) * pixelsPerUnit
  }

  /// How many pixels one unit of the domain spans (negative when `end < start`).
  var pixelsPerUnit: Double {
    (end - start) / (domain.upperBound - domain.lowerBound)
  }
}
