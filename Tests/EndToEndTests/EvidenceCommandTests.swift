import Foundation
import Testing

/// `calldir build` on complaint feeds and regulator files through the
/// presets, with evidence rules and `--as-of`.
@Suite struct EvidenceCommandTests {
  let dnc = """
    Company_Phone_Number, Created_Date, Violation_Date, Consumer_City, Consumer_State, Consumer_Area_Code, Subject, Recorded_Message_Or_Robocall
    2125550143,2024-03-01 10:12:00,2024-02-29 16:40:00,New York,New York,212,Reducing your debt,Y
    (212) 555-0143,2024-03-02 10:30:00,2024-03-01 17:02:00,Brooklyn,New York,718,Imposters,N
    +1 212 555 0143,2024-03-03 10:30:00,2024-03-01 17:02:00,Brooklyn,New York,718,Imposters,N
    1-800-555-0111,03/05/2024 11:15:00,2024-03-01 09:00:00,Buffalo,New York,716,Warranties & protection plans,Y
    1-800-555-0111,2023-01-05 11:15:00,2023-01-01 09:00:00,Buffalo,New York,716,Warranties & protection plans,Y
    7185550100,2024-04-02 11:15:00,2024-04-01 09:00:00,Buffalo,New York,716,Other,Y

    """

  func workspace() throws -> TemporaryDirectory {
    let directory = try TemporaryDirectory()
    try directory.write("dnc.csv", dnc)
    try directory.write("calldir.json", """
      {"dataset": "us.example.dnc", "sources": [
        {"path": "dnc.csv", "format": "ftc-dnc", "list": "block", "minReports": 2, "maxAgeDays": 90},
        {"path": "dnc.csv", "format": "ftc-dnc", "list": "identify", "labelPolicy": "mostFrequent", "maxAgeDays": 90}
      ]}
      """)
    return directory
  }

  @Test func theRulesSelectAndTheSummaryCountsWhatEachDropped() throws {
    let directory = try workspace()
    let result = try CalldirProcess.run([
      "build", "--config", directory.path("calldir.json"), "--store", directory.path("store"),
      "--as-of", "2024-03-31", "--json",
    ])
    #expect(result.status == 0, "\(result.standardError)")
    let json = try jsonObject(result.standardOutput)
    #expect(json["asOf"] as? String == "2024-03-31")
    let sources = try #require(json["sources"] as? [[String: Any]])
    let evidence = try #require(sources.first?["evidence"] as? [String: Any])
    #expect(evidence["numbersReported"] as? Int == 3)
    #expect(evidence["kept"] as? Int == 1)
    #expect(evidence["droppedByMinReports"] as? Int == 1)
    #expect(evidence["droppedByMaxAge"] as? Int == 1)
    #expect(evidence["reportsTooOld"] as? Int == 1)
    #expect(evidence["reportsAfterAsOf"] as? Int == 1)

    let snapshot = try #require(json["snapshot"] as? String)
    let entries = try CalldirProcess.run(["inspect", "--entries", snapshot])
    #expect(entries.lines == [
      "block\t12125550143", "identify\t12125550143\tImposters",
      "identify\t18005550111\tWarranties & protection plans",
    ])

    let verbose = try CalldirProcess.run([
      "build", "--config", directory.path("calldir.json"), "--store", directory.path("preview"),
      "--as-of", "2024-03-31", "--dry-run", "--verbose",
    ])
    #expect(verbose.lines.contains(
      "evidence: dnc.csv: 6 reports of 3 numbers as of 2024-03-31; kept 1, dropped 1 by maxAgeDays 90, "
        + "1 by minReports 2 (reports not counted: 1 too old, 1 after the reference date)"), "\(verbose.lines)")

    let history = try CalldirProcess.run(["history", "--store", directory.path("store"), "--json"])
    #expect(history.status == 0, "\(history.standardError)")
    let versions = try #require(try jsonObject(history.standardOutput)["versions"] as? [[String: Any]])
    #expect(versions.first?["asOf"] as? String == "2024-03-31")
  }

  @Test func explainSaysWhichReportsCountedAndWhyANumberWasDropped() throws {
    let directory = try workspace()
    let store = directory.path("store")
    let built = try CalldirProcess.run([
      "build", "--config", directory.path("calldir.json"), "--store", store, "--as-of", "2024-03-31",
    ])
    #expect(built.status == 0, "\(built.standardError)")
    // 1-800-555-0111: one report in the window, one too old: dropped.
    let text = try CalldirProcess.run(["explain", "--store", store, "--region", "US", "18005550111", "7185550100"])
    #expect(text.status == 0, "\(text.standardError)")
    let expected = """
      18005550111: 18005550111: version 1: not blocked, label "Warranties & protection plans"
        block dnc.csv:5 (number)
        block dnc.csv:6 (number; not counted: dated 2023-01-05, more than 90 days (maxAgeDays) before the reference date 2024-03-31)
        identify dnc.csv:5 (number, label "Warranties & protection plans")
        identify dnc.csv:6 (number, label "Warranties & protection plans"; not counted: dated 2023-01-05, more than 90 days (maxAgeDays) before the reference date 2024-03-31)
        evidence dnc.csv (block): 2 reports, 1 counted (minReports 2, maxAgeDays 90): too few, so this source does not give it
        evidence dnc.csv (identify): 2 reports, 1 counted (minReports 1, maxAgeDays 90): enough
      7185550100: 17185550100: version 1: not blocked, no label
        block dnc.csv:7 (number; not counted: dated 2024-04-02, after the reference date 2024-03-31)
        identify dnc.csv:7 (number, label "Other"; not counted: dated 2024-04-02, after the reference date 2024-03-31)
        evidence dnc.csv (block): 1 report, 0 counted (minReports 2, maxAgeDays 90): too few, so this source does not give it
        evidence dnc.csv (identify): 1 report, 0 counted (minReports 1, maxAgeDays 90): too few, so this source does not give it

      """
    #expect(text.standardOutput == expected)
    // A label from reports that did not count never "lost".
    let json = try CalldirProcess.run(["explain", "--store", store, "--region", "US", "--json", "2125550143"])
    let object = try jsonObject(json.standardOutput)
    #expect(object["label"] as? String == "Imposters" && (object["lostLabels"] as? [[String: Any]])?.count == 1)
    let evidence = try #require(object["evidence"] as? [[String: Any]])
    #expect(evidence.map { $0["counted"] as? Int } == [3, 3] && evidence.allSatisfy { $0["kept"] as? Bool == true })
    let lines = try #require(object["sources"] as? [[String: Any]])
    #expect(lines.first?["date"] as? String == "2024-03-01" && lines.first?["notCounted"] is NSNull)
  }

  @Test func theSameInputsAndAsOfPublishTheSameBytes() throws {
    let directory = try workspace()
    var snapshots: [Data] = []
    for store in ["one", "two"] {
      let result = try CalldirProcess.run([
        "build", "--config", directory.path("calldir.json"), "--store", directory.path(store), "--as-of", "2024-03-31",
      ])
      #expect(result.status == 0, "\(result.standardError)")
      snapshots.append(try Data(contentsOf: directory.url.appendingPathComponent("\(store)/snapshots/snapshot-000001.cdir")))
      snapshots.append(try Data(contentsOf: directory.url.appendingPathComponent("\(store)/rejects/rejects-000001.txt")))
    }
    #expect(snapshots[0] == snapshots[2])
    #expect(snapshots[1] == snapshots[3])
    // A later reference date weighs the same reports differently.
    let later = try CalldirProcess.run([
      "build", "--config", directory.path("calldir.json"), "--store", directory.path("one"), "--as-of", "2024-12-31",
      "--json", "--force",
    ])
    #expect(later.status == 0, "\(later.standardError)")
    #expect(try jsonObject(later.standardOutput)["counts"].flatMap { ($0 as? [String: Any])?["blocking"] as? Int } == 0)
  }

  @Test(arguments: ["2024-02-30", "yesterday", "31/03/2024", ""])
  func aBadAsOfIsAUsageError(value: String) throws {
    let directory = try workspace()
    let result = try CalldirProcess.run([
      "build", "--config", directory.path("calldir.json"), "--store", directory.path("store"), "--as-of", value,
    ])
    #expect(result.status == 64)
    let message = value.isEmpty ? "invalid value '' for '--as-of'" : "--as-of must be a date YYYY-MM-DD"
    #expect(result.standardError.contains(message), "\(result.standardError)")
  }

  @Test func aRealMajnumLayoutThroughThePreset() throws {
    let directory = try TemporaryDirectory()
    let text = """
      EZABPQM;Tranche_Debut;Tranche_Fin;Mnémo;Territoire;Date_Attribution
      01056;0105600000;0105699999;FRTE;Métropole;01/01/2017
      05901;0590100000;0590100009;FRTE;"Guadeloupe, St Martin et St Barthélemy";10/06/2024
      050855;0508550000;0508550009;FRTE;Saint Pierre et Miquelon;10/06/2024
      06123;0612300000;0612399999;SFR0;Métropole;01/01/2017
      0700000;07000000000000;07000009999999;FRTE;Métropole;01/01/2017

      """
    try Data(text.unicodeScalars.map { UInt8(truncatingIfNeeded: $0.value) })
      .write(to: directory.url.appendingPathComponent("MAJNUM.csv"))
    try directory.write("calldir.json", """
      {"sources": [{"path": "MAJNUM.csv", "format": "arcep-majnum", "list": "block", "operators": ["FRTE"]}]}
      """)
    let result = try CalldirProcess.run([
      "build", "--config", directory.path("calldir.json"), "--store", directory.path("store"), "--json",
    ])
    #expect(result.status == 0, "\(result.standardError)")
    let json = try jsonObject(result.standardOutput)
    #expect((json["counts"] as? [String: Any])?["blocking"] as? Int == 100_020)
    #expect((json["counts"] as? [String: Any])?["rejected"] as? Int == 1)
    let entries = try CalldirProcess.run(["inspect", "--entries", try #require(json["snapshot"] as? String)])
    #expect(entries.lines.first == "block\t508550000")
    #expect(entries.lines.contains("block\t590590100009"))
    #expect(entries.lines.last == "block\t590590100009")
  }
}
