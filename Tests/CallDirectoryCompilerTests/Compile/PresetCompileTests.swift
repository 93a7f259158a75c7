import CalldirSystem
import Foundation
import Testing

@testable import CallDirectoryCompiler

/// The presets `arcep-majnum`, `ftc-dnc` and `fcc-complaints` on their
/// published layouts.
@Suite struct PresetCompileTests {
  /// MAJNUM's layout, as published: ISO-8859-1, `;`, quoted territories
  /// with commas, 14-digit machine-to-machine ranges, short numbers.
  let majnum: [UInt8] = Array(
    """
    EZABPQM;Tranche_Debut;Tranche_Fin;Mnémo;Territoire;Date_Attribution\r
    01056;0105600000;0105699999;FRTE;Métropole;01/01/2017\r
    06123;0612300000;0612399999;SFR0;Métropole;01/01/2017\r
    05901;0590100000;0590100999;FRTE;"Guadeloupe, St Martin et St Barthélemy";10/06/2024\r
    06960;0696000000;0696009999;SFR0;Martinique;10/06/2024\r
    097652;0976520000;0976529999;FRTE;Guyane;10/06/2024\r
    050855;0508550000;0508559999;FRTE;Saint Pierre et Miquelon;10/06/2024\r
    02692;0269200000;0269209999;FRTE;Mayotte;10/06/2024\r
    02621;0262100000;0262109999;FRTE;La Réunion - Océan indien;10/06/2024\r
    0800;0800000000;0800099999;FRTE;National;10/06/2024\r
    0700000;07000000000000;07000009999999;FRTE;Métropole;01/01/2017\r
    3000;3000;3000;FRTE;National;01/01/2017\r
    04111;0411100000;0411199999;FRTE;Atlantide;01/01/2017\r

    """.unicodeScalars.map { UInt8(truncatingIfNeeded: $0.value) })

  func compile(_ name: String, _ bytes: [UInt8], _ source: String) throws -> (CompiledSnapshot, [String]) {
    let workspace = try Workspace()
    try Data(bytes).write(to: workspace.url.appendingPathComponent(name))
    try workspace.config([source], extra: #""maxExtensions": 1000,"#)
    return try workspace.compile(asOf: CalendarDay(year: 2024, month: 3, day: 31))
  }

  func ranges(_ snapshot: CompiledSnapshot) -> [ClosedRange<Int64>] {
    (snapshot.blocking.inMemory?.ranges ?? []).sorted { $0.lowerBound < $1.lowerBound }
  }

  @Test func arcepRangesLandOnTheDigitsCallersPresent() throws {
    let (snapshot, rejects) = try compile(
      "MAJNUM.csv", majnum, #"{"path": "MAJNUM.csv", "format": "arcep-majnum", "list": "block"}"#)
    #expect(ranges(snapshot) == [
      508_550_000...508_559_999,
      33_105_600_000...33_105_699_999,
      33_612_300_000...33_612_399_999,
      33_800_000_000...33_800_099_999,
      262_262_100_000...262_262_109_999,
      262_269_200_000...262_269_209_999,
      590_590_100_000...590_590_100_999,
      594_976_520_000...594_976_529_999,
      596_696_000_000...596_696_009_999,
    ])
    #expect(rejects.count == 3)
    #expect(rejects[0].contains("MAJNUM.csv:11: range start: too long"))
    #expect(rejects[1].contains("MAJNUM.csv:12: range start: too short"))
    #expect(rejects[2].contains("MAJNUM.csv:13: region column 'Territoire' value 'Atlantide' is not in regions"))
  }

  @Test func aMajnumSavedAsUTF8ReadsAsItsLatin1Original() throws {
    let text = String(String.UnicodeScalarView(majnum.map { Unicode.Scalar($0) }))
    let source = #"{"path": "MAJNUM.csv", "format": "arcep-majnum", "list": "block"}"#
    let (latin1, _) = try compile("MAJNUM.csv", majnum, source)
    let (utf8, rejects) = try compile("MAJNUM.csv", Array(text.utf8), source)
    #expect(ranges(utf8) == ranges(latin1) && ranges(utf8).count == 9)
    #expect(rejects.count == 3)
    // Windows-1252 text that only happens to hold a UTF-8-like pair stays Windows-1252.
    let windows: [UInt8] = Array("phone;name\r\n+33612345678;Caf".utf8) + [0xE9, 0x20, 0xC3, 0x28] + Array("\r\n".utf8)
    let (labelled, _) = try compile(
      "names.csv", windows,
      #"{"path": "names.csv", "format": "csv", "list": "identify", "delimiter": ";", "encoding": "Windows-1252", "number": "phone", "label": "name"}"#)
    #expect(labelled.identificationPairs == ["33612345678=Café Ã("])
  }

  @Test func arcepOperatorsSelectTheirRanges() throws {
    let (snapshot, _) = try compile(
      "MAJNUM.csv", majnum,
      #"{"path": "MAJNUM.csv", "format": "arcep-majnum", "list": "block", "operators": ["SFR0"]}"#)
    #expect(ranges(snapshot) == [33_612_300_000...33_612_399_999, 596_696_000_000...596_696_009_999])
    #expect(snapshot.sources.first?.summary.filtered == 10)
  }

  @Test func aPresetKeyCanBeOverridden() throws {
    // The same file converted to UTF-8 and commas, as a user might keep it.
    let latin1 = majnum.map { $0 == 0x3B ? 0x2C : $0 }
    let text = String(String.UnicodeScalarView(latin1.map { Unicode.Scalar($0) }))
      .replacingOccurrences(of: "\"Guadeloupe, St Martin et St Barthélemy\"", with: "Guadeloupe")
    let (snapshot, rejects) = try compile(
      "majnum-utf8.csv", Array(text.utf8),
      #"{"path": "majnum-utf8.csv", "format": "arcep-majnum", "list": "block", "delimiter": ",", "encoding": "UTF-8", "#
        + #""regions": {"Métropole": "FR", "Guadeloupe": "GP"}, "operators": ["FRTE"]}"#)
    #expect(ranges(snapshot).first == 33_105_600_000...33_105_699_999)
    #expect(ranges(snapshot).contains(590_590_100_000...590_590_100_999))
    #expect(rejects.contains { $0.contains("value 'Guyane' is not in regions") })
  }

  @Test func ftcComplaintFilesAreReportsOfUSNumbers() throws {
    let csv = """
      Company_Phone_Number, Created_Date, Violation_Date, Consumer_City, Consumer_State, Consumer_Area_Code, Subject, Recorded_Message_Or_Robocall
      2125550143,2024-03-01 10:12:00,2024-02-29 16:40:00,New York,New York,212,Reducing your debt,Y
      (212) 555-0143,2024-03-02 10:30:00,2024-03-01 17:02:00,Brooklyn,New York,718,Imposters,N
      ,2024-03-02 11:00:00,2024-03-01 17:30:00,Albany,New York,518,Other,Y
      1-800-555-0111,03/05/2024 11:15:00,2024-03-01 09:00:00,Buffalo,New York,716,Warranties & protection plans,Y
      7185550100,2023-01-01 11:15:00,2023-01-01 09:00:00,Buffalo,New York,716,Other,Y

      """
    let (snapshot, rejects) = try compile(
      "dnc.csv", Array(csv.utf8),
      #"{"path": "dnc.csv", "format": "ftc-dnc", "list": "block", "maxAgeDays": 90}"#)
    #expect(snapshot.blockingNumbers == [12_125_550_143, 18_005_550_111])
    #expect(rejects.count == 1)
    #expect(rejects.first?.contains("dnc.csv:4: empty number") == true)
    let (labelled, _) = try compile(
      "dnc.csv", Array(csv.utf8),
      #"{"path": "dnc.csv", "format": "ftc-dnc", "list": "identify", "minReports": 2}"#)
    #expect(labelled.identificationPairs == ["12125550143=Reducing your debt"])
  }

  @Test func fccComplaintFilesReportBothNumbersOfARow() throws {
    let csv = """
      Ticket ID,Date (Ticket Created),Issue,Caller ID Number,Advertiser Business Phone Number,State
      1,03/30/2024,Robocalls,866-410-0458,,CA
      2,03/29/2024,Unwanted Calls,866-410-0458,(888) 555-0100,NY
      3,2024-03-28T09:00:00.000,Robocalls,,888-555-0100,TX
      4,03/28/2024,Robocalls,,,TX

      """
    let (snapshot, rejects) = try compile(
      "fcc.csv", Array(csv.utf8),
      #"{"path": "fcc.csv", "format": "fcc-complaints", "list": "block", "minReports": 2}"#)
    #expect(snapshot.blockingNumbers == [18_664_100_458, 18_885_550_100])
    #expect(rejects.count == 1)
    #expect(rejects.first?.contains("fcc.csv:5: empty number") == true)
  }

  @Test func fccOpenDataExportsAreReadUnderTheirOwnColumnNames() throws {
    // opendata.fcc.gov's "CGB - Consumer Complaints Data" export.
    let csv = """
      Ticket ID,Ticket Created,Date of Issue,Time of Issue,Form,Method,Issue,Caller ID Number,Type of Call or Messge,\
      Advertiser Business Number,City,State,Zip,Location (Center point of the Zip Code)
      1009001,03/25/2024 11:15:29 AM,03/25/2024,1:00 pm,Phone,Internet (VOIP),Robocalls,866-410-0458,\
      Autodialed Live Voice Call,,Plantation,FL,33324,"(26.1276, -80.2331)"
      1009002,03/26/2024 12:51:35 PM,03/24/2024,12:00 pm,Phone,Wired,"Telemarketing (including do not call and spoofing)",\
      619-840-7262,Live Voice,866-410-0458,San Marcos,CA,92078,"(33.1434, -117.1661)"
      1009003,03/27/2024 09:02:11 AM,03/27/2024,9:00 am,Phone,Wireless,Robocalls,619-840-7262,Prerecorded Voice,,Austin,TX,\
      78701,"(30.27, -97.74)"

      """
    let (snapshot, rejects) = try compile(
      "fcc.csv", Array(csv.utf8), #"{"path": "fcc.csv", "format": "fcc-complaints", "list": "block", "minReports": 2}"#)
    #expect(snapshot.blockingNumbers == [16_198_407_262, 18_664_100_458])
    #expect(rejects.isEmpty)
  }

  @Test func aDashInAnFCCNumberCellIsNoNumber() throws {
    // The weekly files write `-` where a report gives no number.
    let csv = """
      Phone Issues,Time of Issue,Caller ID Number,Advertiser Business Phone Number,Type of Call or Message (Robocalls),\
      Type of Call or Message (Telemarketing),State,Date (Ticket Date of Issue),Date (Ticket Created)
      Robocalls,9:15 AM,313-307-4101,-,Prerecorded Voice,-,MI,3/28/2024,3/28/2024
      Telemarketing,2:00 p.m.,-,469-656-8497,-,Live Voice,TX,3/29/2024,3/29/2024
      Robocalls,-,-,-,-,-,OH,3/30/2024,3/30/2024

      """
    let (snapshot, rejects) = try compile(
      "weekly.csv", Array(csv.utf8), #"{"path": "weekly.csv", "format": "fcc-complaints", "list": "block"}"#)
    #expect(snapshot.blockingNumbers == [13_133_074_101, 14_696_568_497])
    #expect(rejects.count == 1)
    #expect(rejects.first?.contains("weekly.csv:4: empty number") == true)
  }

  @Test func aFileWithNeitherNameOfAColumnSaysWhichNamesServe() throws {
    let csv = "Ticket ID,Created,Caller ID Number,Advertiser Business Number\n1,03/30/2024,866-410-0458,\n"
    #expect {
      try compile("fcc.csv", Array(csv.utf8), #"{"path": "fcc.csv", "format": "fcc-complaints", "list": "block"}"#)
    } throws: { error in
      "\(error)".contains("column 'Date (Ticket Created)' or 'Ticket Created' not found in header")
    }
  }
}
