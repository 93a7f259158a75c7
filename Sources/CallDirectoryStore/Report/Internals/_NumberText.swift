/// The report's number formats, written out digit by digit so that they
/// never depend on the locale or on how a platform prints a `Double`.
enum _NumberText {
  /// `1234567` → `1,234,567`; negative values start with a minus sign (U+2212).
  static func grouped(_ value: Int) -> String {
    let digits = String(value.magnitude)
    var text = ""
    for (index, digit) in digits.enumerated() {
      if index > 0 && (digits.count - index) % 3 == 0 { text += "," }
      text.append(digit)
    }
    return value < 0 ? "\u{2212}" + text : text
  }

  /// Entries added: `+34`, or `0`.
  static func added(_ count: Int) -> String {
    count == 0 ? "0" : "+" + grouped(count)
  }

  /// Entries removed: `−20` (U+2212), or `0`.
  static func removed(_ count: Int) -> String {
    count == 0 ? "0" : "\u{2212}" + grouped(count)
  }

  /// An axis label: grouped below 10,000, else in thousands (`25k`,
  /// `12.5k`) or millions (`1.5M`, `2M`), with at most two decimals.
  static func compact(_ value: Double) -> String {
    let rounded = Int(value.rounded())
    switch abs(rounded) {
    case ..<10_000: return grouped(rounded)
    case ..<1_000_000: return decimal(value / 1_000, places: 2) + "k"
    default: return decimal(value / 1_000_000, places: 2) + "M"
    }
  }

  /// A share as a percentage with one decimal: `0.934` → `93.4%`, `0.9`
  /// → `90.0%` (or `90%` when `keepsZeros` is false, for round limits).
  static func percent(_ ratio: Double, keepsZeros: Bool = true) -> String {
    decimal(ratio * 100, places: 1, keepsZeros: keepsZeros) + "%"
  }

  /// A pixel coordinate with at most one decimal: `12`, `12.5`, `-3.5`.
  static func coordinate(_ value: Double) -> String {
    decimal(value, places: 1, minus: "-")
  }

  /// `value` rounded to `places` decimals; trailing zeros are dropped
  /// unless `keepsZeros`.
  static func decimal(_ value: Double, places: Int, keepsZeros: Bool = false, minus: String = "\u{2212}") -> String {
    guard value.isFinite else { return "0" }
    var scale = 1
    for _ in 0..<places { scale *= 10 }
    let scaled = Int((value * Double(scale)).rounded())
    let whole = scaled.magnitude / UInt(scale)
    var fraction = String(scaled.magnitude % UInt(scale))
    fraction = String(repeating: "0", count: places - fraction.count) + fraction
    if !keepsZeros { while fraction.hasSuffix("0") { fraction.removeLast() } }
    let sign = scaled < 0 ? minus : ""
    return sign + String(whole) + (fraction.isEmpty ? "" : "." + fraction)
  }
}
