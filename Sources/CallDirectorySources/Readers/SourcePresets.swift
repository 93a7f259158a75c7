/// The files people download, as formats: each is a named set of the
/// generic delimited keys (`delimiter`, `encoding`, columns, `where`,
/// `regionColumn`, …), and a source's own keys override any of them.
///
///     {"path": "MAJNUM.csv", "format": "arcep-majnum", "list": "block", "operators": ["FRTE"]}
///     {"path": "dnc.csv", "format": "ftc-dnc", "list": "block", "minReports": 3, "maxAgeDays": 180}
public enum SourcePresets {
  /// ARCEP's numbering plan (`MAJNUM.csv`): `;`-separated ISO-8859-1 rows
  /// `EZABPQM;Tranche_Debut;Tranche_Fin;Mnémo;Territoire;Date_Attribution`,
  /// one inclusive range per row in national form.
  ///
  /// `Territoire` picks the numbering plan callers present the range in:
  /// mainland and national ranges are France's (+33); the overseas
  /// departments and territories have their own calling codes, so
  /// `0590 12 34 56` in Guadeloupe is +590 590 12 34 56, and
  /// Saint-Pierre-et-Miquelon's `0508 41 12 34` is +508 41 12 34
  /// (`rewritePrefixes`). `operators` keeps the ranges of those operators
  /// (`Mnémo` codes, as in ARCEP's register `identifiants_CE.csv`).
  public static let territories: [String: String] = [
    "Métropole": "FR",
    "National": "FR",
    "Guadeloupe, St Martin et St Barthélemy": "GP",
    "Guyane": "GF",
    "Martinique": "MQ",
    "La Réunion": "RE",
    "La Réunion - Océan indien": "RE",
    "Mayotte": "YT",
    "Saint Pierre et Miquelon": "PM",
  ]

  /// The `arcep-majnum` format.
  public static let arcepMajnum = preset(
    name: "arcep-majnum",
    summary: "arcep's numbering plan MAJNUM.csv; operators: [Mnémo, …]",
    base: _delimitedFormat(name: "csv", delimiter: 0x2C),
    extraOptions: [
      .init(
        name: "operators", isRequired: false,
        summary: "keep the ranges of these operators (Mnémo codes); default all", kind: .strings)
    ],
    preset: SourceFormat.Preset(
      options: [
        "delimiter": ";", "encoding": "ISO-8859-1",
        "rangeStart": "Tranche_Debut", "rangeEnd": "Tranche_Fin",
        "regionColumn": "Territoire",
        "regions": .object(territories.mapValues { .string($0) }),
        "rewritePrefixes": .object(["0508": "+508"]),
      ],
      region: "FR",
      expand: { options throws(SourceOptionError) in
        guard case .strings(let operators)? = options[value: "operators"] else { return }
        var filter = options[value: "where"]?.stringArraysByKey ?? [:]
        if filter["Mnémo"] != nil {
          throw SourceOptionError(key: "operators", reason: "cannot be combined with a 'where' on Mnémo")
        }
        filter["Mnémo"] = operators
        options[value: "where"] = .object(filter.mapValues { .strings($0) })
        options[value: "operators"] = nil
      }))

  /// The FTC's daily Do Not Call complaint files:
  /// `Company_Phone_Number, Created_Date, Violation_Date, Consumer_City,
  /// Consumer_State, Consumer_Area_Code, Subject,
  /// Recorded_Message_Or_Robocall`. US numbers; each row is one report,
  /// dated by `Created_Date`; `Subject` labels an `identify` source.
  public static let ftcComplaints = preset(
    name: "ftc-dnc",
    summary: "the ftc's do not call complaint csv (Company_Phone_Number, Created_Date, Subject, …)",
    base: _delimitedFormat(name: "csv", delimiter: 0x2C),
    preset: SourceFormat.Preset(
      options: ["number": "Company_Phone_Number", "dateColumn": "Created_Date", "dateFormat": "MM/DD/YYYY"],
      identifyOptions: ["label": "Subject"],
      region: "US"))

  /// The FCC's consumer complaint files: each row reports its `Caller ID
  /// Number` and its advertiser's number, dated by when the ticket was
  /// created. US numbers. Two headers are published: the weekly files
  /// (`Advertiser Business Phone Number`, `Date (Ticket Created)`, `-` in
  /// blank number cells) and opendata.fcc.gov's export of the "CGB -
  /// Consumer Complaints Data" dataset (`Advertiser Business Number`,
  /// `Ticket Created` as `05/25/2016 11:15:29 AM`); both are read.
  public static let fccComplaints = preset(
    name: "fcc-complaints",
    summary: "the fcc's consumer complaint csv (Caller ID Number, Advertiser Business Phone Number, …)",
    base: _delimitedFormat(name: "csv", delimiter: 0x2C),
    preset: SourceFormat.Preset(
      options: [
        "number": .strings(["Caller ID Number", "Advertiser Business Phone Number"]),
        "dateColumn": "Date (Ticket Created)", "dateFormat": "MM/DD/YYYY",
        "columnAliases": .object([
          "Advertiser Business Phone Number": .strings(["Advertiser Business Number"]),
          "Date (Ticket Created)": .strings(["Ticket Created"]),
        ]),
      ],
      region: "US"))

  /// AVM's FRITZ!Box phonebook export (`<phonebooks><phonebook><contact>`):
  /// every `<contact>` is a record, each of its `telephony/number`
  /// elements a number, labelled with `person/realName`. A FRITZ!Box
  /// writes numbers as they were dialled, mostly national (`0171 2345678`,
  /// `030 123456`): they are read as German (AVM's home market) unless the
  /// source sets its `region` (`AT`, `CH`, …); internal numbers (`**610`)
  /// are rejected.
  public static let fritzboxPhonebook = preset(
    name: "fritzbox-phonebook",
    summary: "a fritz!box phonebook export (//contact, telephony/number, person/realName)",
    base: _xmlFormat,
    preset: SourceFormat.Preset(
      options: ["records": "//contact", "number": "telephony/number", "label": "person/realName"],
      region: "DE"))

  /// A preset of `base`: its options, none required (the preset sets
  /// them), plus `extraOptions`.
  private static func preset(
    name: String, summary: String, base: SourceFormat, extraOptions: [SourceFormat.Option] = [],
    preset: SourceFormat.Preset
  ) -> SourceFormat {
    var options = base.options.map { option in
      var optional = option
      optional.isRequired = false
      return optional
    }
    options += extraOptions
    let factory = base.factory
    return SourceFormat(
      name: name, summary: summary, options: options, labels: base.labels, preset: preset,
      factory: { input, own throws(SourceOptionError) in
        // A spec parsed from a config already holds the preset's options;
        // laying them under again changes nothing.
        var merged = preset.options
        for key in own.keys { merged[value: key] = own[value: key] }
        try preset.expand(&merged)
        return try factory(input, merged)
      })
  }
}
