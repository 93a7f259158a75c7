import Testing

@testable import CallDirectoryCompiler

/// The wildcard screen reads eight bytes at a time; it must answer as the
/// byte rule does, for every byte value at every position and length.
@Suite struct WildcardScreenTests {
  static func byteRule(_ bytes: [UInt8]) -> Bool {
    bytes.contains { $0 >= 0x3A || $0 == 0x23 || $0 == 0x24 || $0 == 0x2A || $0 == 0x2E || $0 == 0x2F }
  }

  @Test func wordsAnswerAsTheByteRule() {
    for length in 1...20 {
      for position in 0..<length {
        for value in 0...255 {
          var bytes = [UInt8](repeating: UInt8(ascii: "5"), count: length)
          bytes[position] = UInt8(value)
          let screened = bytes.withUnsafeBufferPointer { WildcardCheck.mayHoldPattern($0) }
          #expect(screened == Self.byteRule(bytes), "byte \(value) at \(position) of \(length)")
        }
      }
    }
    #expect(!WildcardCheck.mayHoldPattern(UnsafeBufferPointer(start: nil, count: 0)))
  }
}
