/// How many decimal digits an E.164 number (country calling code and
/// national number, as an Int64) has.
public enum E164Digits {
  /// The decimal digits of `number` (1 for 0 and below).
  public static func count(of number: Int64) -> Int {
    var count = 1
    var rest = number / 10
    while rest > 0 {
      count += 1
      rest /= 10
    }
    return count
  }
}
