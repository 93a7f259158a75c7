import FormatFixtures
import Foundation

/// The memory bounds a command is given or documents, held: `build
/// --memory-limit 64M` on numbers, two-number ranges, `#` patterns, many
/// sources, caller-ID entries with their labels and one JSON document
/// (each far past 64 MiB when held whole), and `validate -`
/// of a blob on a pipe past its documented 256 MiB. Each row's floor is a
/// peak RSS within 1.5 times the bound; a row above it fails the bench.
/// A new row is one more function returning `try build(…)` (or `row(…)`
/// of a run of its own), listed in `rows`.
enum MemoryBoundsBenchmark {
  /// The limit the build rows are given (the smallest a build accepts).
  static let limit = 64 << 20
  static let limitText = "64M"
  /// What `validate` documents for a blob that is not a regular file.
  static let spoolBound = 256 << 20

  static func rows(_ data: Datasets, binary: String, quick: Bool) throws -> [Row] {
    let scale = quick ? 5 : 1
    return [
      try numbers(data, binary: binary, scale: scale),
      try ranges(data, binary: binary, scale: scale),
      try patterns(data, binary: binary, scale: scale),
      try manySources(data, binary: binary, scale: scale),
      try identification(data, binary: binary, scale: scale),
      try fritzboxPhonebook(data, binary: binary, scale: scale),
      try jsonDocument(data, binary: binary, scale: scale),
      try validateStream(data, binary: binary),
    ]
  }

  /// 10M shuffled numbers (a fifth of them quick).
  static func numbers(_ data: Datasets, binary: String, scale: Int) throws -> Row {
    let numbers = try data.buildInput(.shuffled, count: 10_000_000 / scale)
    return try build(
      "numbers", "build --memory-limit \(limitText), \(10 / scale)M numbers", sources: [(numbers, "lines")],
      data: data, binary: binary)
  }

  /// 10M two-number ranges, one number apart: nothing joins.
  static func ranges(_ data: Datasets, binary: String, scale: Int) throws -> Row {
    let count = 10_000_000 / scale
    let ranges = try data.file("bound-ranges-\(count).txt") { sink in
      for index in 0..<count {
        let start = 33_612_000_000 + 3 * Int64(index)
        sink.write("\(start)-\(start + 1)")
      }
    }
    return try build(
      "ranges", "build --memory-limit \(limitText), \(count / 1_000_000)M two-number ranges",
      sources: [(ranges, "patterns")], data: data, binary: binary)
  }

  /// 2M patterns: `33` and eight digits, then `#`: 10 numbers each, none
  /// touching (20 million numbers in all: 12 extensions).
  static func patterns(_ data: Datasets, binary: String, scale: Int) throws -> Row {
    let patternCount = 10_000_000 / scale / 5
    let patterns = try data.file("bound-patterns-\(patternCount).txt") { sink in
      for index in 0..<patternCount { sink.write("\(3_310_000_000 + 2 * index)#") }
    }
    return try build(
      "patterns", "build --memory-limit \(limitText), \(Double(patternCount) / 1e6)M # patterns",
      sources: [(patterns, "patterns")], data: data, binary: binary)
  }

  /// Forty sources, each numbers and ranges of its own stretch of French
  /// numbers (+33 and nine digits from 1 to 8: every stretch possible;
  /// stretches of 100M from +33 1 reached +351 and +353, whose numbers
  /// have other lengths, and the build refused those sources).
  static func manySources(_ data: Datasets, binary: String, scale: Int) throws -> Row {
    let perSource = 250_000 / scale
    var many: [(String, String)] = []
    for source in 0..<40 {
      let base = 33_100_000_000 + Int64(source) * 20_000_000
      many.append((try data.file("bound-fr-source-\(source)-\(perSource).txt") { sink in
        var generator = SplitMix64(seed: UInt64(100 + source))
        for index in 0..<perSource {
          let number = base + Int64(generator.next(below: 18_000_000))
          sink.write(index % 10 == 0 ? "\(number)-\(number + 1 + Int64(generator.next(below: 3)))" : "\(number)")
        }
      }, "patterns"))
    }
    return try build(
      "many", "build --memory-limit \(limitText), 40 sources of \(perSource / 1000)k numbers and ranges",
      sources: many, data: data, binary: binary)
  }

  /// Caller ID: 3M entries of three identify sources (priorities 0, 5
  /// and 5: repeated numbers conflict), about 300,000 distinct labels,
  /// one in seven not ASCII (about 210 MiB held whole).
  static func identification(_ data: Datasets, binary: String, scale: Int) throws -> Row {
    let entries = 3_000_000 / scale
    var identify: [String] = []
    for (index, share) in [5, 3, 2].enumerated() {
      let names = try data.file("bound-names-\(index)-\(entries).csv") { sink in
        var generator = SplitMix64(seed: UInt64(200 + index))
        let codes = Datasets.areaCodes(&generator)
        sink.write("phone,name")
        for _ in 0..<(entries * share / 10) {
          let code = codes[Int(generator.next(below: 20))]
          let label = generator.next(below: UInt64(entries / 10))
          sink.write(
            "+1\(code)\(2_000_000 + generator.next(below: 1_000_000)),"
              + (label % 7 == 0 ? "Société \(label) ☎" : "Caller \(label)"))
        }
      }
      identify.append(
        #"{"path": "\#(names)", "format": "csv", "list": "identify", "number": "phone", "label": "name", "priority": \#(index == 0 ? 0 : 5)}"#)
    }
    return try build(
      "identification",
      "build --memory-limit \(limitText), \(Double(entries) / 1e6)M identification entries, \(entries / 10_000)k labels",
      entries: identify, data: data, binary: binary)
  }

  /// A FRITZ!Box phonebook export of 250,000 contacts with one to three
  /// national numbers each (about 100 MB of XML, 500,000 numbers), read
  /// by the fritzbox-phonebook preset as it streams.
  static func fritzboxPhonebook(_ data: Datasets, binary: String, scale: Int) throws -> Row {
    let contacts = 250_000 / scale
    let phonebook = try data.file("bound-fritzbox-\(contacts).xml") { sink in
      var generator = SplitMix64(seed: 300)
      sink.write("<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<phonebooks>\n<phonebook owner=\"1\" name=\"Telefonbuch\">")
      for index in 0..<contacts {
        sink.write(
          "<contact>\n<category>0</category>\n<person>\n<realName>Kontakt \(index) &amp; Söhne</realName>\n</person>\n"
            + "<telephony nid=\"\(1 + index % 3)\">")
        for slot in 0...(index % 3) {
          let prefix = ["030", "0171", "089"][slot]
          sink.write("<number type=\"home\" prio=\"1\" id=\"\(slot)\">\(prefix) \(1_000_000 + generator.next(below: 8_999_999))</number>")
        }
        sink.write("</telephony>\n<services />\n<setup />\n<mod_time>1700000000</mod_time>\n<uniqueid>\(index)</uniqueid>\n</contact>")
      }
      sink.write("</phonebook>\n</phonebooks>")
    }
    return try build(
      "fritzbox", "build --memory-limit \(limitText), a \(contacts / 1000)k-contact FRITZ!Box phonebook (xml)",
      sources: [(phonebook, "fritzbox-phonebook")], data: data, binary: binary)
  }

  /// One JSON document (format json): a pretty-printed array of operator
  /// records as a French blocker app ships them, about 140 MB for 1M
  /// records, read one record at a time.
  static func jsonDocument(_ data: Datasets, binary: String, scale: Int) throws -> Row {
    let records = 1_000_000 / scale
    let document = try data.file("bound-operators-\(records).json") { sink in
      sink.write("[")
      for index in 0..<records {
        sink.write("  {\n    \"operator_name\": \"Opérateur \(index % 40)\",")
        sink.write("    \"pattern\": \"+\(33_612_000_000 + 13 * Int64(index))\",")
        sink.write("    \"start\": \"2023-01-01T00:00:00+01:00\",\n    \"end\": null")
        sink.write(index == records - 1 ? "  }" : "  },")
      }
      sink.write("]")
    }
    return try build(
      "json", "build --memory-limit \(limitText), one json document of \(Double(records) / 1e6)M records",
      entries: [#"{"path": "\#(document)", "format": "json", "list": "block", "number": "pattern"}"#], data: data,
      binary: binary)
  }

  /// A build of blocking `sources` (path, format) under the limit, into a fresh store.
  static func build(
    _ tag: String, _ name: String, sources: [(String, String)], data: Datasets, binary: String
  ) throws -> Row {
    try build(
      tag, name, entries: sources.map { #"{"path": "\#($0.0)", "format": "\#($0.1)", "list": "block"}"# }, data: data,
      binary: binary)
  }

  /// A build of the sources `entries` (the config's JSON objects) under the
  /// limit, into a fresh store.
  static func build(_ tag: String, _ name: String, entries: [String], data: Datasets, binary: String) throws -> Row {
    log("memory: \(name)")
    let config = data.path("bound-\(tag).json")
    try "{\"sources\": [\(entries.joined(separator: ", "))]}".write(toFile: config, atomically: true, encoding: .utf8)
    let store = data.path("store-bound-\(tag)")
    try? FileManager.default.removeItem(atPath: store)
    let run = try ProcessRunner.run([binary, "build", "--config", config, "--store", store, "--memory-limit", limitText])
    guard run.status == 0 else { throw BenchError.failed("calldir build (\(name))", run.status) }
    try? FileManager.default.removeItem(atPath: store)
    return row(name, run, bound: limit, boundText: "limit")
  }

  /// `validate -` of 300 MB that start with `CDIR`, on a pipe: copied to a
  /// temporary file up to 256 MiB, then refused (65).
  static func validateStream(_ data: Datasets, binary: String) throws -> Row {
    let name = "validate - of a 300 MB blob on a pipe"
    log("memory: \(name)")
    let script = "(printf CDIR; head -c 300000000 /dev/zero) | exec \"$0\" validate -"
    let run = try ProcessRunner.run(["sh", "-c", script, binary], quiet: true)
    guard run.status == 65 else { throw BenchError.failed(name, run.status) }
    return row(name, run, bound: spoolBound, boundText: "documented bound")
  }

  /// A row of the section: the peak against the bound, `ok` within 1.5
  /// times it, otherwise `ABOVE BOUND`, which fails the bench (quick runs
  /// too: a bound does not depend on the input's size). A peak of 0 is no
  /// measurement, and fails too.
  static func row(_ name: String, _ run: Measurement, bound: Int, boundText: String) -> Row {
    let ratio = Double(run.peakBytes) / Double(bound)
    let holds = run.peakBytes > 0 && ratio <= 1.5
    let verdict = run.peakBytes == 0 ? "NOT MEASURED" : holds ? "ok" : "ABOVE BOUND"
    return Row(
      name: name, calldir: run, baselineName: "-", baseline: nil, floor: nil,
      note: String(
        format: "peak %@, %@ %@: %.2f× %@ 1.5× %@", mib(run.peakBytes), boundText, mib(bound), ratio,
        ratio <= 1.5 ? "≤" : ">", verdict),
      violated: !holds)
  }
}
