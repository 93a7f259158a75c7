import FormatFixtures
import Foundation

/// The orders a real list comes in, for the build benchmark: the same
/// numbers (20% of the lines repeat an earlier number) written shuffled,
/// numerically sorted, reverse sorted, sorted as text, and, for one region
/// (the US, and the UK, whose numbers are written with a national prefix),
/// in a mix of national and international forms.
enum InputOrder: String, CaseIterable {
  case shuffled = "shuffled, 20% repeats"
  case sorted = "numerically sorted"
  case reversed = "reverse sorted"
  case lexicographic = "sorted as text"
  case nationalMix = "national and international forms (US)"
  case britishMix = "national and international forms (GB)"

  /// The file's name in the work directory.
  func fileName(count: Int) -> String {
    let tags = ["shuffled", "sorted", "reversed", "lexicographic", "national", "national-gb"]
    return "build-\(tags[InputOrder.allCases.firstIndex(of: self) ?? 0])-\(count).txt"
  }

  /// The `--region` the lines need (national forms only).
  var region: String? {
    switch self {
    case .nationalMix: "US"
    case .britishMix: "GB"
    case .shuffled, .sorted, .reversed, .lexicographic: nil
    }
  }
}

extension Datasets {
  /// `count` E.164 numbers of four countries with numbers of different
  /// lengths, within a country too (so that text order differs from
  /// numeric order), a fifth of them repeats of earlier ones, shuffled.
  static func numbersWithRepeats(count: Int, usOnly: Bool, seed: UInt64) -> [Int64] {
    var generator = SplitMix64(seed: seed)
    let codes = areaCodes(&generator)
    let unique = count - count / 5
    var numbers: [Int64] = []
    numbers.reserveCapacity(count)
    for _ in 0..<unique {
      let choice = usOnly ? 0 : generator.next(below: 4)
      switch choice {
      case 0:  // +1 NPA NXX XXXX: 11 digits
        let code = codes[Int(generator.next(below: UInt64(codes.count)))]
        numbers.append(Int64(10_000_000_000 + code * 10_000_000 + 2_000_000 + generator.next(below: 8_000_000)))
      case 1:  // +44 20 XXXX XXXX: 12 digits
        numbers.append(Int64(442_000_000_000 + generator.next(below: 100_000_000)))
      case 2:  // +41 7X XXX XX XX: 11 digits
        numbers.append(Int64(41_750_000_000 + generator.next(below: 50_000_000)))
      default:  // +49 30 XXXXXXX(X): 11 or 12 digits, as Berlin's numbers are
        numbers.append(
          generator.next(below: 2) == 0
            ? Int64(49_301_000_000 + generator.next(below: 9_000_000))
            : Int64(493_010_000_000 + generator.next(below: 90_000_000)))
      }
    }
    for _ in unique..<count { numbers.append(numbers[Int(generator.next(below: UInt64(unique)))]) }
    numbers.shuffle(using: &generator)
    return numbers
  }

  /// `count` valid UK national significant numbers of ten digits
  /// (London's `20`, mobiles, and geographic numbers of ten cities), a
  /// fifth of them repeats of earlier ones, shuffled.
  static func britishNumbersWithRepeats(count: Int, seed: UInt64) -> [Int64] {
    var generator = SplitMix64(seed: seed)
    let areas: [Int64] = [113, 114, 116, 117, 118, 121, 131, 141, 151, 161]
    let unique = count - count / 5
    var numbers: [Int64] = []
    numbers.reserveCapacity(count)
    for _ in 0..<unique {
      switch generator.next(below: 3) {
      case 0:  // 20 3/7/8XXX XXXX
        numbers.append(2_000_000_000 + [3, 7, 8][Int(generator.next(below: 3))] * 10_000_000
          + Int64(generator.next(below: 10_000_000)))
      case 1:  // 74/75/78/79XX XXXXXX
        numbers.append(7_000_000_000 + [4, 5, 8, 9][Int(generator.next(below: 4))] * 100_000_000
          + Int64(generator.next(below: 100_000_000)))
      default:  // 1AB 2–4XX XXXX
        numbers.append(areas[Int(generator.next(below: 10))] * 10_000_000 + Int64(2_000_000 + generator.next(below: 3_000_000)))
      }
    }
    for _ in unique..<count { numbers.append(numbers[Int(generator.next(below: UInt64(unique)))]) }
    numbers.shuffle(using: &generator)
    return numbers
  }

  /// The numbers the build input in `order` is written from, shuffled
  /// (UK national significant numbers for `britishMix`).
  static func numbers(_ order: InputOrder, count: Int) -> [Int64] {
    order == .britishMix
      ? britishNumbersWithRepeats(count: count, seed: 41)
      : numbersWithRepeats(count: count, usOnly: order == .nationalMix, seed: 31)
  }

  /// The build benchmark's input in `order`, written once.
  func buildInput(_ order: InputOrder, count: Int) throws -> String {
    let name = order.fileName(count: count)
    if FileManager.default.fileExists(atPath: path(name)) { return path(name) }
    var numbers = Self.numbers(order, count: count)
    switch order {
    case .shuffled, .nationalMix, .britishMix: break
    case .sorted: numbers.sort()
    case .reversed: numbers.sort(by: >)
    case .lexicographic: numbers.sort { String($0).utf8.lexicographicallyPrecedes(String($1).utf8) }
    }
    var form = SplitMix64(seed: 37)
    return try file(name) { sink in
      for number in numbers {
        switch order {
        case .nationalMix: sink.write(Self.americanForm(of: number, &form))
        case .britishMix: sink.write(Self.britishForm(of: number, &form))
        case .shuffled, .sorted, .reversed, .lexicographic: sink.write("+\(number)")
        }
      }
    }
  }

  /// `+1` E.164 `number` as people write it: with `+1` and spaces, with the
  /// area code in parentheses, with hyphens, or as `1` and digits.
  private static func americanForm(of number: Int64, _ form: inout SplitMix64) -> String {
    let national = number - 10_000_000_000
    let area = national / 10_000_000
    let exchange = national / 10_000 % 1000
    let line = pad(national % 10_000, 4)
    switch form.next(below: 4) {
    case 0: return "+1 \(area) \(exchange) \(line)"
    case 1: return "(\(area)) \(exchange)-\(line)"
    case 2: return "\(area)-\(exchange)-\(line)"
    default: return "1\(area)\(exchange)\(line)"
    }
  }

  /// A UK national significant number (ten digits) as people write it:
  /// with the national prefix `0` (`020 7946 0018`, `07700 900123`,
  /// `0113 496 0000`), with `+44`, with `+44 (0)`, after `00 44`, or as
  /// E.164.
  private static func britishForm(of national: Int64, _ form: inout SplitMix64) -> String {
    let digits = String(national)
    let start = digits.startIndex
    let cut = digits.hasPrefix("20") ? [2, 6] : digits.hasPrefix("7") ? [4] : [3, 6]
    var grouped = ""
    var previous = 0
    for end in cut + [digits.count] {
      if previous > 0 { grouped += " " }
      grouped += digits[digits.index(start, offsetBy: previous)..<digits.index(start, offsetBy: end)]
      previous = end
    }
    switch form.next(below: 5) {
    case 0, 1: return "0" + grouped
    case 2: return "+44 " + grouped
    case 3: return form.next(below: 2) == 0 ? "+44 (0)" + grouped : "00 44 " + grouped
    default: return "+44" + digits
    }
  }
}
