import Foundation
import Testing

@Suite struct ValidateCommandTests {
  @Test func validTextAndBlobsExitZero() throws {
    let directory = try TemporaryDirectory()
    let text = try directory.write("ok.txt", "# header\n18005551234\n18005551235\n12125550100\tClinic\n")
    let result = try CalldirProcess.run(["validate", text.path])
    #expect(result.status == 0)
    #expect(result.standardOutput.hasSuffix(": valid: 3 entries (2 blocking, 1 identification)\n"))
    let sample = try SampleStore()
    let snapshot = try #require(try jsonObject(try sample.build().standardOutput)["snapshot"] as? String)
    #expect(try CalldirProcess.run(["validate", snapshot]).status == 0)
  }

  @Test func reportsTheFirstViolationAtItsLine() throws {
    let directory = try TemporaryDirectory()
    let path = try directory.write("bad.txt", "18005551234\n18005551234\n18005550000\nabc\n0\n").path
    let result = try CalldirProcess.run(["validate", path])
    #expect(result.status == 1)
    #expect(result.lines.first == "\(path):2: error: duplicate: 18005551234 repeats the previous entry of the blocking list")
    #expect(result.lines.contains { $0.hasPrefix("\(path):3: error: out of order") })
    #expect(result.lines.contains { $0.hasPrefix("\(path):4: error: ") })
    #expect(result.lines.contains { $0.hasPrefix("\(path):5: error: ") })
    let json = try CalldirProcess.run(["validate", path, "--json", "--max-errors", "2"])
    #expect(json.status == 1)
    let object = try jsonObject(json.standardOutput)
    #expect(object["valid"] as? Bool == false)
    #expect(object["truncated"] as? Bool == true)
    let violations = try #require(object["violations"] as? [[String: Any]])
    #expect(violations.count == 2)
    #expect(violations.first?["line"] as? Int == 2)
    #expect(violations.first?["kind"] as? String == "duplicate")
  }

  @Test func textSortedInputIsCalledOut() throws {
    let directory = try TemporaryDirectory()
    let numbers = (1...30).map(String.init).sorted()
    let path = try directory.write("sorted.txt", numbers.joined(separator: "\n") + "\n").path
    let result = try CalldirProcess.run(["validate", path])
    #expect(result.status == 1)
    #expect(result.standardOutput.contains("sorted as text"))
  }

  @Test func damagedAndMissingFilesAreRefused() throws {
    let directory = try TemporaryDirectory()
    let corrupt = try directory.write("bad.cdir", "CDIR-not-really").path
    let damaged = try CalldirProcess.run(["validate", corrupt])
    #expect(damaged.status == 65)
    #expect(damaged.standardError.hasPrefix("error: "))
    #expect(try CalldirProcess.run(["validate", directory.path("missing.txt")]).status == 66)
    #expect(try CalldirProcess.run(["validate", corrupt, "--max-errors", "x"]).status == 64)
  }
}
