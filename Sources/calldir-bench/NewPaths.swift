import FormatFixtures
import Foundation

/// The paths users wait on besides build and diff: `explain` against a
/// large version, `device sync` (the extension's memory, full and delta),
/// and `report` over a year of versions.
enum NewPathsBenchmark {
  /// Writes `numbers` one per line as E.164 and a config over them.
  static func store(
    _ data: Datasets, name: String, numbers: [Int64], key: String? = nil
  ) throws -> (config: String, store: String, list: String) {
    let list = data.path("\(name).txt")
    let sink = LineSink(handle: try create(list))
    for number in numbers { sink.write("+\(number)") }
    try sink.close()
    let signing = key.map { ", \"signingKey\": \"\($0)\"" } ?? ""
    let config = data.path("\(name).json")
    try """
      {"dataset": "com.example.bench", "maxRemovalRatio": 1\(signing),
       "sources": [{"path": "\(list)", "format": "lines", "list": "block"}]}
      """.write(toFile: config, atomically: true, encoding: .utf8)
    return (config, data.path("store-\(name)"), list)
  }

  /// `count` distinct, ascending French numbers `+33 D XX XX XX XX` whose
  /// first national digit is `digit` (so that each benchmark has its own
  /// range and every number is one the normalizer accepts).
  static func frenchNumbers(count: Int, digit: Int64, seed: UInt64) -> [Int64] {
    var generator = SplitMix64(seed: seed)
    let span: UInt64 = 100_000_000
    let gap = max(1, span / UInt64(max(1, count)))
    var numbers: [Int64] = []
    numbers.reserveCapacity(count)
    var offset: UInt64 = 0
    while numbers.count < count && offset < span {
      numbers.append(33_000_000_000 + digit * 100_000_000 + Int64(offset))
      offset += 1 + generator.next(below: 2 * gap - 1)
    }
    return numbers
  }

  static func create(_ path: String) throws -> FileHandle {
    guard FileManager.default.createFile(atPath: path, contents: nil) else { throw BenchError.data("cannot create \(path)") }
    return try FileHandle(forWritingTo: URL(fileURLWithPath: path))
  }

  /// `explain --no-provenance` of 1,000 numbers against a `count`-entry version.
  static func explain(_ data: Datasets, binary: String, count: Int, runs: Int) throws -> Row {
    let numbers = frenchNumbers(count: count, digit: 1, seed: 41)
    let (config, store, _) = try store(data, name: "explain-\(count)", numbers: numbers)
    try? FileManager.default.removeItem(atPath: store)
    guard try ProcessRunner.run([binary, "build", "--config", config, "--store", store]).status == 0 else {
      throw BenchError.failed("build for explain", 1)
    }
    var generator = SplitMix64(seed: 43)
    let queried = (0..<1000).map { index in
      index % 2 == 0 ? "+\(numbers[Int(generator.next(below: UInt64(numbers.count)))])" : "+\(33_100_000_000 + Int64(generator.next(below: 100_000_000)))"
    }
    let explain = try ProcessRunner.median(runs, [binary, "explain", "--store", store, "--no-provenance", "--json"] + queried)
    return Row(
      name: "explain 1000 numbers, \(count / 1_000_000)M-entry version", calldir: explain, baselineName: "-", baseline: nil,
      floor: nil, note: String(format: "%.3f s (floor 0.5 s) %@", explain.seconds, verdict(explain.seconds <= 0.5)))
  }

  /// The extension process's peak RSS in `device sync`: full and 1% delta
  /// syncs of a `large`-entry extension against the same of 10k entries.
  static func sync(_ data: Datasets, binary: String, large: Int) throws -> [Row] {
    let prefix = data.path("bench-key")
    if !FileManager.default.fileExists(atPath: prefix + ".key") {
      _ = try ProcessRunner.run([binary, "keygen", "--output", prefix])
    }
    var peaks: [String: [Int]] = [:]
    for count in [10_000, large] {
      var generator = SplitMix64(seed: 47)
      let first = frenchNumbers(count: count, digit: 2, seed: 45)
      let (config, store, list) = try store(data, name: "sync-\(count)", numbers: first, key: prefix + ".key")
      let device = data.path("sync-device-\(count)")
      for path in [store, device] { try? FileManager.default.removeItem(atPath: path) }
      guard try ProcessRunner.run([binary, "build", "--config", config, "--store", store]).status == 0 else {
        throw BenchError.failed("build for sync", 1)
      }
      for step in ["full", "delta"] {
        if step == "delta" {
          let changed = first.filter { _ in generator.next(below: 100) != 0 } + (0..<(count / 100)).map { Int64($0) * 7 + 33_900_000_000 }
          let sink = LineSink(handle: try create(list))
          for number in changed { sink.write("+\(number)") }
          try sink.close()
          guard try ProcessRunner.run([binary, "build", "--config", config, "--store", store]).status == 0 else {
            throw BenchError.failed("build for sync", 1)
          }
        }
        let output = data.path("sync-\(count)-\(step).json")
        let run = try ProcessRunner.run(
          [binary, "device", "sync", "--device", device, "--from", store, "--public-key", prefix + ".pub", "--json"], stdout: output)
        guard run.status == 0, let text = FileManager.default.contents(atPath: output),
          let object = try JSONSerialization.jsonObject(with: text) as? [String: Any],
          let extensions = object["extensions"] as? [[String: Any]]
        else { throw BenchError.failed("device sync (\(step), \(count))", run.status) }
        peaks[step, default: []].append(extensions.compactMap { $0["peakMemoryBytes"] as? Int }.max() ?? 0)
      }
    }
    return ["full", "delta"].map { step in
      let pair = peaks[step] ?? [0, 0]
      let growth = pair[1] - pair[0]
      return Row(
        name: "device sync \(step), extension RSS", calldir: Measurement(seconds: 0, peakBytes: pair[1], status: 0),
        baselineName: "-", baseline: nil, floor: nil,
        note: "10k: \(mib(pair[0])), \(Double(large) / 1e6)M: \(mib(pair[1])), growth \(mib(growth)) (floor 8 MiB) \(verdict(growth <= 8 << 20))")
    }
  }

  /// A build from a file in ARCEP's MAJNUM layout (ISO-8859-1, `;`, one
  /// range per row, territories quoted where their names hold a comma),
  /// generated with `rows` rows, through the `arcep-majnum` preset.
  static func majnum(_ data: Datasets, binary: String, rows: Int, runs: Int) throws -> Row {
    let file = data.path("majnum-\(rows).csv")
    if !FileManager.default.fileExists(atPath: file) {
      // (national prefix of the block, territory as published): mainland
      // geographic and mobile blocks, then the overseas plans.
      let blocks: [(String, String)] = [
        ("01", "Métropole"), ("02", "Métropole"), ("03", "Métropole"), ("04", "Métropole"), ("05", "Métropole"),
        ("06", "Métropole"), ("07", "Métropole"), ("09", "National"), ("080", "National"),
        ("0590", "\"Guadeloupe, St Martin et St Barthélemy\""), ("0596", "Martinique"), ("0594", "Guyane"),
        ("0262", "La Réunion"), ("0692", "\"La Réunion - Océan indien\""), ("0269", "Mayotte"),
        ("0508", "Saint Pierre et Miquelon"),
      ]
      let operators = ["FRTE", "SFR0", "BOUY", "OUTR", "SRR", "FREE", "LYCA", "ORRE"]
      var generator = SplitMix64(seed: 61)
      var text = "EZABPQM;Tranche_Debut;Tranche_Fin;Mnémo;Territoire;Date_Attribution\r\n"
      var used = Set<String>()
      while used.count < rows {
        let (prefix, territory) = blocks[Int(generator.next(below: UInt64(blocks.count)))]
        // A block of 10,000 numbers: the national prefix, then digits up to six in all.
        var block = prefix
        while block.count < 6 { block += String(generator.next(below: 10)) }
        guard used.insert(block).inserted else { continue }
        let mnemo = operators[Int(generator.next(below: UInt64(operators.count)))]
        text += "\(block);\(block)0000;\(block)9999;\(mnemo);\(territory);01/01/2017\r\n"
      }
      guard let latin1 = text.data(using: .isoLatin1) else { throw BenchError.data("majnum text is not latin-1") }
      try latin1.write(to: URL(fileURLWithPath: file))
    }
    let config = data.path("majnum-\(rows).json")
    // Every operator's ranges: some 200M numbers, more than 100 extensions.
    try "{\"maxExtensions\": 1000, \"sources\": [{\"path\": \"\(file)\", \"format\": \"arcep-majnum\", \"list\": \"block\"}]}"
      .write(toFile: config, atomically: true, encoding: .utf8)
    let store = data.path("store-majnum-\(rows)")
    let build = try ProcessRunner.median(runs, [binary, "build", "--config", config, "--store", store]) {
      try? FileManager.default.removeItem(atPath: store)
    }
    return Row(
      name: "build arcep-majnum, \(rows / 1000)k ranges", calldir: build, baselineName: "-", baseline: nil, floor: nil,
      note: String(format: "%.3f s, peak %@ (ranges are never expanded)", build.seconds, mib(build.peakBytes)))
  }

  /// `report` on a store of `versions` versions.
  static func report(_ data: Datasets, binary: String, versions: Int, runs: Int) throws -> Row {
    let base = frenchNumbers(count: 20_000, digit: 3, seed: 51)
    let (config, store, list) = try store(data, name: "report-\(versions)", numbers: base)
    if !FileManager.default.fileExists(atPath: store + "/snapshots/snapshot-\(String(format: "%06d", versions)).cdir") {
      try? FileManager.default.removeItem(atPath: store)
      var generator = SplitMix64(seed: 53)
      for version in 1...versions {
        let numbers = base.filter { _ in generator.next(below: 50) != 0 } + (0..<20).map { Int64(version * 100 + $0) + 33_400_000_000 }
        let sink = LineSink(handle: try create(list))
        for number in numbers { sink.write("+\(number)") }
        try sink.close()
        guard try ProcessRunner.run([binary, "build", "--config", config, "--store", store], quiet: true).status == 0 else {
          throw BenchError.failed("build \(version) for report", 1)
        }
      }
    }
    let report = try ProcessRunner.median(runs, [binary, "report", "--store", store, "--output", data.path("report.html")])
    return Row(
      name: "report, \(versions) versions", calldir: report, baselineName: "-", baseline: nil, floor: nil,
      note: String(format: "%.3f s (floor 2 s) %@", report.seconds, verdict(report.seconds <= 2)))
  }
}
