import Testing
import UnicodeText

@Suite struct DecimalDigitsTests {
  struct Case: CustomTestStringConvertible, Sendable {
    let scalar: Unicode.Scalar
    let expected: Int?
    let name: String
    var testDescription: String {
      "\(name) U+\(String(scalar.value, radix: 16, uppercase: true))"
    }
  }

  static let cases: [Case] = [
    Case(scalar: "0", expected: 0, name: "ascii zero"),
    Case(scalar: "9", expected: 9, name: "ascii nine"),
    Case(scalar: "\u{FF15}", expected: 5, name: "full-width five"),
    Case(scalar: "\u{0663}", expected: 3, name: "arabic-indic three"),
    Case(scalar: "\u{06F7}", expected: 7, name: "persian seven"),
    Case(scalar: "\u{096F}", expected: 9, name: "devanagari nine"),
    Case(scalar: "\u{09EA}", expected: 4, name: "bengali four"),
    Case(scalar: "\u{0E58}", expected: 8, name: "thai eight"),
    Case(scalar: "\u{1D7D7}", expected: 9, name: "mathematical bold nine"),
    Case(scalar: "a", expected: nil, name: "latin letter"),
    Case(scalar: "Z", expected: nil, name: "latin capital"),
    Case(scalar: "+", expected: nil, name: "plus sign"),
    Case(scalar: "/", expected: nil, name: "ascii just below zero"),
    Case(scalar: ":", expected: nil, name: "ascii just above nine"),
    Case(scalar: "\u{00B2}", expected: nil, name: "superscript two (No)"),
    Case(scalar: "\u{00BD}", expected: nil, name: "vulgar fraction one half"),
    Case(scalar: "\u{2460}", expected: nil, name: "circled digit one (No)"),
    Case(scalar: "\u{216B}", expected: nil, name: "roman numeral twelve (Nl)"),
    Case(scalar: "\u{0628}", expected: nil, name: "arabic letter beh"),
  ]

  @Test(arguments: cases)
  func digitValue(_ testCase: Case) {
    #expect(DecimalDigits.value(of: testCase.scalar) == testCase.expected)
  }

  @Test func everyDigitOfEveryBlockMapsInOrder() {
    let zeros: [UInt32] = [0x30, 0x660, 0x6F0, 0x966, 0x9E6, 0xE50, 0xFF10]
    for zero in zeros {
      for offset in 0..<10 {
        let scalar = Unicode.Scalar(zero + UInt32(offset))
        #expect(scalar.flatMap(DecimalDigits.value(of:)) == offset)
      }
    }
  }
}
