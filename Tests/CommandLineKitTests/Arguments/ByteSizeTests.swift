import CommandLineKit
import Testing

@Suite struct ByteSizeTests {
  @Test(arguments: [
    ("0", 0), ("4096", 4096), ("100k", 102_400), ("100K", 102_400), ("512M", 536_870_912),
    ("2G", 2_147_483_648), ("1T", 1_099_511_627_776), ("64KiB", 65_536), ("8MB", 8_388_608),
    ("7b", 7), ("3gib", 3_221_225_472),
  ])
  func parsesSizes(_ text: String, _ bytes: Int) {
    #expect(ByteSize.parse(text) == bytes)
  }

  @Test(arguments: ["", "M", "-1M", "1.5G", "12Q", "1 G", "1GG", " 1G", "99999999999999999999", "9000000T", "１G"])
  func rejectsNonSizes(_ text: String) {
    #expect(ByteSize.parse(text) == nil)
  }
}
