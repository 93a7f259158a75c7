import Foundation
import Testing

/// `calldir build` on a file as a regulator publishes it: semicolons,
/// ISO-8859-1, one range per row, an operator filter and a territory column.
@Suite struct DelimitedPublishedFilesCommandTests {
  @Test func aLatin1RangeFileWithWhereAndRegionColumnPublishesExactRanges() throws {
    let directory = try TemporaryDirectory()
    let text = """
      EZABPQM;Tranche_Debut;Tranche_Fin;Mnémo;Territoire
      0612345;0612345670;0612345673;ORAN;Métropole
      0612346;0612346000;0612346001;SFR0;Métropole
      0690100;0690100000;0690100002;ORAN;"Guadeloupe, St Martin et St Barthélemy"
      0612347;0612347000;0612346999;ORAN;Métropole
      0262000;0262000000;0262000001;ORAN;Atlantide

      """
    // ISO-8859-1: é is the single byte 0xE9.
    let latin1 = Data(text.unicodeScalars.map { UInt8(truncatingIfNeeded: $0.value) })
    #expect(latin1.contains(0xE9))
    try latin1.write(to: directory.url.appendingPathComponent("majnum.csv"))
    try directory.write("calldir.json", """
      {"defaultRegion": "FR", "sources": [
        {"path": "majnum.csv", "format": "csv", "list": "block", "delimiter": ";", "encoding": "ISO-8859-1",
         "rangeStart": "Tranche_Debut", "rangeEnd": "Tranche_Fin", "where": {"Mnémo": ["ORAN", "ORANG"]},
         "regionColumn": "Territoire",
         "regions": {"Métropole": "FR", "Guadeloupe, St Martin et St Barthélemy": "GP"}}
      ]}
      """)
    let result = try CalldirProcess.run([
      "build", "--config", directory.path("calldir.json"), "--store", directory.path("store"), "--json",
    ])
    #expect(result.status == 0, "\(result.standardError)")
    #expect(result.standardError.contains(
      "warning: sources[0] (majnum.csv): no row holds 'ORANG' in column 'Mnémo' (a value of 'where' or 'operators' mistyped?)"),
      "\(result.standardError)")
    let json = try jsonObject(result.standardOutput)
    let sources = try #require(json["sources"] as? [[String: Any]])
    #expect(sources.first?["dataLines"] as? Int == 4)
    #expect(sources.first?["accepted"] as? Int == 2)
    #expect(sources.first?["rejected"] as? Int == 2)
    #expect(sources.first?["filtered"] as? Int == 1)
    // The verbose summary has the column too.
    let verbose = try CalldirProcess.run([
      "build", "--config", directory.path("calldir.json"), "--store", directory.path("preview"), "--dry-run",
      "--verbose",
    ])
    let table = verbose.lines.drop { !$0.hasPrefix("source ") }
    #expect(table.first?.split(separator: " ", omittingEmptySubsequences: true).prefix(7).joined(separator: " ")
      == "source list data lines accepted rejected filtered")
    #expect(table.dropFirst().first?.split(separator: " ").map(String.init).prefix(6) == ["majnum.csv", "block", "4", "2", "2", "1"])

    let snapshot = try #require(json["snapshot"] as? String)
    let entries = try CalldirProcess.run(["inspect", "--entries", snapshot])
    #expect(entries.status == 0, "\(entries.standardError)")
    #expect(entries.lines == [
      "block\t33612345670", "block\t33612345671", "block\t33612345672", "block\t33612345673",
      "block\t590690100000", "block\t590690100001", "block\t590690100002",
    ])

    let rejectsPath = try #require(json["rejects"] as? String)
    let rejects = try String(contentsOfFile: rejectsPath, encoding: .utf8)
      .split(separator: "\n").map(String.init)
    #expect(rejects == [
      "majnum.csv:5: range start +33612347000 is greater than range end +33612346999"
        + "\t0612347;0612347000;0612346999;ORAN;Métropole",
      "majnum.csv:6: region column 'Territoire' value 'Atlantide' is not in regions"
        + "\t0262000;0262000000;0262000001;ORAN;Atlantide",
    ])
  }
}
