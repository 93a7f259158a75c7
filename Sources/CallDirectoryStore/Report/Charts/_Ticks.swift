import Foundation

/// Round tick values for chart axes: steps of 1, 2 or 5 times a power of ten.
enum _Ticks {
  /// The smallest round step that cuts `span` into at most `count` parts,
  /// and no smaller than `minimum` (1 for counts and versions).
  static func step(spanning span: Double, atMost count: Int, minimum: Double = 0) -> Double {
    let parts = Double(max(1, count))
    guard span > 0 else { return max(minimum, 1) }
    var magnitude = pow(10, (log10(span / parts)).rounded(.down))
    while true {
      for factor in [1.0, 2.0, 5.0] {
        let step = factor * magnitude
        if span / step <= parts + 1e-9 && step >= minimum { return step }
      }
      magnitude *= 10
    }
  }

  /// The multiples of `step` within `range`, ascending.
  static func values(in range: ClosedRange<Double>, step: Double) -> [Double] {
    guard step > 0 else { return [] }
    let first = (range.lowerBound / step).rounded(.up)
    let last = (range.upperBound / step).rounded(.down)
    guard first <= last else { return [] }
    return stride(from: first, through: last, by: 1).map { $0 * step }
  }

  /// A value axis covering `data` (and zero): the domain widened to whole
  /// steps, with its ticks, for an axis `length` pixels long whose labels
  /// need `spacing` pixels each.
  static func valueAxis(
    covering data: ClosedRange<Double>, length: Double, spacing: Double
  ) -> (domain: ClosedRange<Double>, ticks: [Double]) {
    let lower = min(0, data.lowerBound)
    let upper = max(data.upperBound, lower + 1)
    let step = self.step(spanning: upper - lower, atMost: Int(length / spacing), minimum: 1)
    let domain = ((lower / step).rounded(.down) * step)...((upper / step).rounded(.up) * step)
    return (domain, values(in: domain, step: step))
  }
}
