import Testing

@testable import CallDirectoryFormat

/// The parts of `_BlockEncoder.encode`, each on its own.
@Suite struct BlockEncoderPartsTests {
  @Test func allSameLabels() {
    func same(_ labels: [UInt32]?) -> Bool {
      guard let labels else { return _BlockEncoder.allSame(nil) }
      return labels.withUnsafeBufferPointer { _BlockEncoder.allSame($0) }
    }
    #expect(same(nil))
    #expect(same([]))
    #expect(same([7, 7, 7]))
    #expect(!same([7, 7, 8]))
    #expect(!same([8, 7, 7]))
  }

  /// The labels' minimum, then each one's offset from it in the fewest
  /// bits that hold them all (none when they are all the minimum).
  @Test func labelsAreTheirMinimumAndNarrowOffsets() {
    func encoded(_ labels: [UInt32]) -> [UInt8] {
      var out: [UInt8] = []
      labels.withUnsafeBufferPointer { _BlockEncoder.appendLabels($0, to: &out) }
      return out
    }
    // Minimum 5, offsets 0, 2, 1 in two bits each, least significant first.
    #expect(encoded([5, 7, 6]) == [5, 2, 0b01_10_00])
    #expect(encoded([300, 300]) == [0xAC, 0x02, 0])
  }

  /// Bit `value - first` for each value.
  @Test func bitmapSetsOneBitPerNumber() {
    var out: [UInt8] = [0xFF]
    [UInt64(100), 101, 103, 108, 110].withUnsafeBufferPointer {
      _BlockEncoder.appendBitmap($0, span: 11, to: &out)
    }
    #expect(out == [0xFF, 0b0000_1011, 0b0000_0101])
  }
}
