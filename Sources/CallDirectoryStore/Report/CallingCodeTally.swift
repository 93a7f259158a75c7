import CallDirectoryFormat
import PhoneNumbers

/// Counts ascending numbers per country calling code in constant memory.
///
/// A number's calling code is the longest prefix of 1–3 digits that is a
/// calling code of the plan (calling codes are prefix-free, so there is at
/// most one); numbers without one are counted under code 0.
///
/// Numbers of one code and one length form a run of consecutive values
/// (`41200000000...41999999999` for eleven-digit Swiss numbers), so the
/// tally keeps the run of the last number and only looks a number up when
/// it leaves it: a sorted section costs about one comparison per number.
struct CallingCodeTally {
  /// Entries per calling code (index 0: no calling code).
  private(set) var counts = [Int](repeating: 0, count: 1000)
  private let isCallingCode: [Bool]
  /// The run of values that share the last number's calling code (none
  /// before the first number).
  private var run: ClosedRange<Int64>? = nil
  private var runCode = 0

  /// Powers of ten up to 10^18 (the largest that fits in `Int64`).
  private static let powersOfTen: [Int64] = (0...18).map { exponent in
    (0..<exponent).reduce(Int64(1)) { value, _ in value * 10 }
  }

  init(plan: NumberingPlan) {
    var isCallingCode = [Bool](repeating: false, count: 1000)
    for code in plan.callingCodes where code > 0 && code < 1000 { isCallingCode[code] = true }
    self.isCallingCode = isCallingCode
  }

  /// Counts every number `numbers` streams, a buffer at a time.
  /// - Throws: `BlobError` when the section is corrupt or truncated.
  mutating func count(_ numbers: NumberIterator) throws {
    var buffer = [Int64](repeating: 0, count: 8192)
    while true {
      let got = try buffer.withUnsafeMutableBufferPointer { try numbers.next(into: $0) }
      if got == 0 { return }
      for index in 0..<got { add(buffer[index]) }
    }
  }

  /// Counts one number.
  mutating func add(_ number: Int64) {
    if run?.contains(number) != true { locate(number) }
    counts[runCode] += 1
  }

  /// Finds the calling code of `number` and the run of values that share it.
  private mutating func locate(_ number: Int64) {
    guard number > 0 else {
      run = number...number
      runCode = 0
      return
    }
    var digits = 1
    while digits < Self.powersOfTen.count && Self.powersOfTen[digits] <= number { digits += 1 }
    let longest = min(3, digits)
    for length in stride(from: longest, through: 1, by: -1) {
      let scale = Self.powersOfTen[digits - length]
      let prefix = number / scale
      if isCallingCode[Int(prefix)] {
        runCode = Int(prefix)
        run = Self.values(withPrefix: prefix, scale: scale)
        return
      }
    }
    // No calling code: neither has any number that shares its first three
    // digits and its length (a shorter number is a run of its own).
    runCode = 0
    let scale = Self.powersOfTen[digits - longest]
    run = Self.values(withPrefix: number / scale, scale: scale)
  }

  /// The numbers `prefix * scale ... prefix * scale + scale - 1`, up to `Int64.max`.
  private static func values(withPrefix prefix: Int64, scale: Int64) -> ClosedRange<Int64> {
    let lower = prefix * scale
    let (upper, overflow) = lower.addingReportingOverflow(scale - 1)
    return lower...(overflow ? Int64.max : upper)
  }
}
