import FormatFixtures
import Foundation

/// The orders a real list comes in, for the build benchmark: the same
/// numbers (20% of the lines repeat an earlier number) written shuffled,
/// numerically sorted, reverse sorted, sorted as text, and, for one region,
/// in a mix of national and international forms.
enum InputOrder: String, CaseIterable {
  case shuffled = "shuffled, 20% repeats"
  case sorted = "numerically sorted"
  case reversed = "reverse sorted"
  case lexicographic = "sorted as text"
  case nationalMix = "national and international forms (US)"

  /// The file's name in the work directory.
  func fileName(count: Int) -> String {
    let tag = ["shuffled", "sorted", "reversed", "lexicographic", "national"][InputOrder.allCases.firstIndex(of: self) ?? 0]
    return "build-\(tag)-\(count).txt"
  }

  /// The `--region` the lines need (national forms only).
  var region: String? { self == .nationalMix ? "US" : nil }
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

  /// The build benchmark's input in `order`, written once.
  func buildInput(_ order: InputOrder, count: Int) throws -> String {
    let name = order.fileName(count: count)
    if FileManager.default.fileExists(atPath: path(name)) { return path(name) }
    var numbers = Self.numbersWithRepeats(count: count, usOnly: order == .nationalMix, seed: 31)
    switch order {
    case .shuffled, .nationalMix: break
    case .sorted: numbers.sort()
    case .reversed: numbers.sort(by: >)
    case .lexicographic: numbers.sort { String($0).utf8.lexicographicallyPrecedes(String($1).utf8) }
    }
    var form = SplitMix64(seed: 37)
    return try file(name) { sink in
      for number in numbers {
        guard order == .nationalMix else {
          sink.write("+\(number)")
          continue
        }
        let national = number - 10_000_000_000
        let area = national / 10_000_000
        let exchange = national / 10_000 % 1000
        let line = String(national % 10_000)
        let padded = String(repeating: "0", count: 4 - line.count) + line
        switch form.next(below: 4) {
        case 0: sink.write("+1 \(area) \(exchange) \(padded)")
        case 1: sink.write("(\(area)) \(exchange)-\(padded)")
        case 2: sink.write("\(area)-\(exchange)-\(padded)")
        default: sink.write("1\(area)\(exchange)\(padded)")
        }
      }
    }
  }
}
