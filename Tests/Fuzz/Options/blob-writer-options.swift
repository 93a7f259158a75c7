import CallDirectoryFormat

/// The input layout of the blob-writer harness: byte 0 picks how many
/// numbers each bulk append takes (1 to 255, or 0: all at once); then each
/// byte is a gap to the next number: its top two bits pick 1 (a run, the
/// byte after it repeating it up to 128 times), its low six bits plus 2,
/// the next two bytes plus 64, or the next four bytes shifted left by the
/// low five bits (far jumps); the first number is the first gap. At most
/// 2^15 numbers, all below `BlobLimits.maxNumber`.
struct BlobWriterInput: Equatable {
  /// Numbers per bulk append.
  var chunk: Int
  /// The ascending numbers written.
  var numbers: [Int64]

  init(_ input: inout FuzzInput) {
    let chunkChoice = Int(input.takeByte())
    var numbers: [Int64] = []
    var value: Int64 = 0
    while !input.remaining.isEmpty, numbers.count < 1 << 15 {
      let byte = input.takeByte()
      var gap: Int64
      switch byte >> 6 {
      case 0: gap = 1
      case 1: gap = Int64(byte & 63) + 2
      case 2: gap = input.take(2).reduce(Int64(0)) { $0 << 8 | Int64($1) } + 64
      default: gap = input.take(4).reduce(Int64(0)) { $0 << 8 | Int64($1) } << Int64(byte & 31) + 1
      }
      // Repeats of the same byte stretch a run or an even spacing.
      let repeats = byte >> 6 == 0 ? Int(input.takeByte() & 127) + 1 : 1
      for _ in 0..<repeats {
        guard value <= BlobLimits.maxNumber - gap else { break }
        value += gap
        numbers.append(value)
      }
      if value >= BlobLimits.maxNumber - 1 { break }
    }
    self.numbers = numbers
    chunk = chunkChoice == 0 ? max(1, numbers.count) : chunkChoice
  }
}
