import CallDirectoryFormat
import FormatFixtures
import Foundation

/// `make bench`: calldir against the tools a user would otherwise use, in one
/// run on this machine. Inputs are generated deterministically; timings are
/// medians; peak RSS comes from wait4. `--quick` uses smaller inputs.

struct Row {
  var name: String
  var calldir: Measurement
  var baselineName: String
  var baseline: Measurement?
  /// What the ratio must reach (baseline time / calldir time), if any.
  var floor: Double?
  var note: String = ""
  /// calldir's answer against the baseline's (`Answers`); a difference fails the bench.
  var answer: Answers.Check? = nil
  /// A bound that holds whatever the input's size (memory): missed, it fails
  /// the bench, quick runs too.
  var violated = false
}

let arguments = CommandLine.arguments.dropFirst()
let quick = arguments.contains("--quick")
/// `--only SECTION[,SECTION…]` runs those sections alone (normalize, build,
/// diff, decode, encode, stream, paths, memory, national), for working on one of them.
let only: Set<String>? = arguments.firstIndex(of: "--only").flatMap { flag in
  arguments.index(after: flag) < arguments.endIndex
    ? Set(arguments[arguments.index(after: flag)].split(separator: ",").map(String.init)) : nil
}
func wants(_ section: String) -> Bool { only?.contains(section) ?? true }
let runs = quick ? 1 : 3
/// Runs of each side of a ratio floor (build, diff), taken in turns.
let ratioRuns = quick ? 1 : 5
let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("calldir").path
let work = ProcessInfo.processInfo.environment["CALLDIR_BENCH_DIR"]
  ?? FileManager.default.currentDirectoryPath + "/.build/bench" + (quick ? "-quick" : "")
try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
let data = Datasets(directory: work)
var rows: [Row] = []

// `--scale 1000000,10000000 [--memory-limit 2G,4G]`: the cost curve only.
if let flag = arguments.firstIndex(of: "--scale"), arguments.index(after: flag) < arguments.endIndex {
  let sizes = arguments[arguments.index(after: flag)].split(separator: ",").compactMap { Double($0).map { Int($0) } }
  var limits: [String?] = [nil]
  if let option = arguments.firstIndex(of: "--memory-limit"), arguments.index(after: option) < arguments.endIndex {
    limits = arguments[arguments.index(after: option)].split(separator: ",").map { $0 == "default" ? nil : String($0) }
  }
  try ScaleBenchmark.run(sizes: sizes, memoryLimits: limits, binary: binary, data: Datasets(directory: work))
  exit(0)
}

func log(_ message: String) {
  FileHandle.standardError.write(Data("bench: \(message)\n".utf8))
}

/// "ok" or "BELOW FLOOR"; a quick run only reports (floors are set for full-size inputs).
func verdict(_ reached: Bool) -> String {
  reached ? "ok" : (quick ? "below (quick run)" : "BELOW FLOOR")
}

func mib(_ bytes: Int) -> String { String(format: "%.1f MiB", Double(bytes) / 1_048_576) }

// The release build just wrote hundreds of megabytes: the kernel writes
// them back before anything is timed, so that no row measures that.
sync()

// MARK: normalize vs Python phonenumbers, with and without validity

if wants("normalize") {
  let count = quick ? 100_000 : 1_000_000
  log("normalize: \(count) mixed-format inputs")
  let input = try data.mixedNumbers(count: count, name: "mixed-\(count).txt")
  // What a user would otherwise run: parse and the possible-number check;
  // with --types, is_valid_number and number_type too (calldir --json).
  let script = data.path("normalize.py")
  try """
    import sys
    import phonenumbers
    from phonenumbers import PhoneNumberFormat
    from phonenumbers import PhoneNumberType as T
    types = "--types" in sys.argv
    # calldir's names of the number types (normalize --json).
    names = {T.FIXED_LINE: "fixedLine", T.MOBILE: "mobile", T.FIXED_LINE_OR_MOBILE: "fixedLineOrMobile",
             T.TOLL_FREE: "tollFree", T.PREMIUM_RATE: "premiumRate", T.SHARED_COST: "sharedCost", T.VOIP: "voip",
             T.PERSONAL_NUMBER: "personalNumber", T.PAGER: "pager", T.UAN: "uan", T.VOICEMAIL: "voicemail",
             T.UNKNOWN: "unknown"}
    out = []
    for line in sys.stdin.buffer:
        text = line.rstrip(b"\\n").rstrip(b"\\r").decode("utf-8", "replace")
        try:
            number = phonenumbers.parse(text, "US")
            if not phonenumbers.is_possible_number(number):
                out.append("INVALID")
            elif types:
                valid = phonenumbers.is_valid_number(number)
                kind = names.get(phonenumbers.number_type(number), "unknown")
                out.append("%s %s %s" % (phonenumbers.format_number(number, PhoneNumberFormat.E164)[1:], valid, kind))
            else:
                out.append(phonenumbers.format_number(number, PhoneNumberFormat.E164)[1:])
        except phonenumbers.NumberParseException:
            out.append("INVALID")
    sys.stdout.write("\\n".join(out) + "\\n")
    """.write(toFile: script, atomically: true, encoding: .utf8)
  // One run untimed: the input into the page cache, the binary's pages in.
  _ = try ProcessRunner.median(1, [binary, "normalize", "--region", "US"], stdin: input)
  // Plain and --valid take turns, nine runs each (a run takes a fraction
  // of a second): the share --valid costs is a ratio of two short times,
  // which the machine's drift would otherwise move more than the code does.
  let (plain, valid) = try ProcessRunner.medians(
    max(runs, 9), [binary, "normalize", "--region", "US"], [binary, "normalize", "--region", "US", "--valid"],
    stdin: input)
  let typed = try ProcessRunner.median(runs, [binary, "normalize", "--region", "US", "--json"], stdin: input)
  var python: Measurement? = nil
  var pythonTyped: Measurement? = nil
  var answers: (plain: Answers.Check, typed: Answers.Check)? = nil
  if (try? ProcessRunner.run(["python3", "-c", "import phonenumbers"], quiet: true).status) == 0 {
    let (pythonOut, pythonTypedOut) = (data.path("normalize-python.out"), data.path("normalize-python-types.out"))
    python = try ProcessRunner.median(1, ["python3", script], stdin: input, stdout: pythonOut)
    pythonTyped = try ProcessRunner.median(1, ["python3", script, "--types"], stdin: input, stdout: pythonTypedOut)
    // The answers, untimed: each line's E.164 digits or INVALID (the reason
    // is calldir's own); with --json, the number, its validity and type.
    let (plainOut, typedOut) = (data.path("normalize-calldir.out"), data.path("normalize-calldir-json.out"))
    _ = try ProcessRunner.median(1, [binary, "normalize", "--region", "US"], stdin: input, stdout: plainOut)
    _ = try ProcessRunner.median(1, [binary, "normalize", "--region", "US", "--json"], stdin: input, stdout: typedOut)
    answers = (
      Answers.sameLines(try Answers.lines(plainOut), try Answers.lines(pythonOut)) {
        $0.hasPrefix("INVALID") ? "INVALID" : String($0)
      },
      Answers.sameLines(try Answers.lines(typedOut), try Answers.lines(pythonTypedOut), key: Answers.typedAnswer) {
        String($0)
      })
  } else {
    log("python3 with phonenumbers not found (pip install phonenumbers); no baseline")
  }
  rows.append(Row(
    name: "normalize \(count / 1000)k", calldir: plain, baselineName: "python phonenumbers", baseline: python,
    floor: 200, answer: answers?.plain))
  rows.append(Row(
    name: "normalize --json \(count / 1000)k (valid, type)", calldir: typed,
    baselineName: "python phonenumbers + is_valid_number, number_type", baseline: pythonTyped, floor: 150,
    answer: answers?.typed))
  // Throughput lost to validity: 1 - (plain time / --valid time).
  let loss = 1 - plain.seconds / valid.seconds
  rows.append(Row(
    name: "normalize --valid \(count / 1000)k", calldir: valid, baselineName: "-", baseline: nil, floor: nil,
    note: String(format: "%.0f%% of plain normalize's throughput lost (ceiling 30%%) %@", loss * 100, verdict(loss <= 0.30))))
}

// MARK: build vs sort -u, in every order a list comes in

if wants("build") {
  let count = quick ? 1_000_000 : 10_000_000
  var snapshots: [String: Data] = [:]
  for order in InputOrder.allCases {
    log("build: \(count) lines, \(order.rawValue)")
    let input = try data.buildInput(order, count: count)
    let config = data.path("build-\(count).json")
    let region = order.region.map { ", \"region\": \"\($0)\"" } ?? ""
    try "{\"sources\": [{\"path\": \"\(input)\", \"format\": \"lines\", \"list\": \"block\"\(region)}]}"
      .write(toFile: config, atomically: true, encoding: .utf8)
    let store = data.path("store-\(count)")
    let (calldir, sort) = try ProcessRunner.medians(
      ratioRuns, [binary, "build", "--config", config, "--store", store], ["env", "LC_ALL=C", "sort", "-u", input]
    ) { try? FileManager.default.removeItem(atPath: store) }
    let snapshot = store + "/snapshots/snapshot-000001.cdir"
    snapshots[order.rawValue] = FileManager.default.contents(atPath: snapshot)
    // The answers, untimed: the snapshot's numbers against sort -u's lines
    // as numbers (E.164 lines); lines in national forms, which sort -u
    // cannot make numbers of, against the distinct numbers they were
    // written from.
    let numbers = try Answers.blocking(ofBlob: snapshot)
    let answer: Answers.Check
    if order.region == nil {
      let sorted = data.path("build-sort-u.out")
      _ = try ProcessRunner.run(["env", "LC_ALL=C", "sort", "-u", input], stdout: sorted)
      let baseline = try Answers.lines(sorted).map { line in
        guard let number = Answers.number(line) else { throw BenchError.data("sort -u printed \(line)") }
        return number
      }.sorted()
      try? FileManager.default.removeItem(atPath: sorted)
      answer = Answers.sameNumbers(numbers, baseline, baselineName: "sort -u")
    } else {
      answer = Answers.sameNumbers(
        numbers, Datasets.distinctNumbers(order, count: count), baselineName: "the numbers written")
    }
    try? FileManager.default.removeItem(atPath: store)
    rows.append(Row(
      name: "build \(count / 1_000_000)M lines, \(order.rawValue)", calldir: calldir, baselineName: "LC_ALL=C sort -u",
      baseline: sort, floor: order == .shuffled ? 10 : 5, answer: answer))
  }
  // The international orders hold the same numbers: the same snapshot, byte
  // for byte; another one fails the bench.
  let international = Set(InputOrder.allCases.filter { $0.region == nil }.map { snapshots[$0.rawValue] })
  if international.count != 1 {
    rows.append(Row(
      name: "build \(count / 1_000_000)M lines, every international order", calldir: Measurement(seconds: 0, peakBytes: 0, status: 0),
      baselineName: "-", baseline: nil, floor: nil,
      answer: .differs("the input orders published \(international.count) different snapshots")))
  }
}

// MARK: diff vs comm -3, on snapshots of several shapes

/// A diff of `old` against a copy with 1% of its numbers removed and as many
/// added, against `comm -3` on the same numbers as sorted text.
func diffRow(_ name: String, old: [Int64], tag: String) throws -> Row {
  var generator = SplitMix64(seed: 21)
  var new: [Int64] = []
  new.reserveCapacity(old.count + old.count / 100)
  for number in old where generator.next(below: 100) != 0 { new.append(number) }
  for _ in 0..<(old.count / 100) { new.append(old[Int(generator.next(below: UInt64(old.count)))] + 1) }
  new = Array(Set(new)).sorted()
  let oldBlob = data.path("diff-\(tag)-old.cdir")
  let newBlob = data.path("diff-\(tag)-new.cdir")
  if !FileManager.default.fileExists(atPath: newBlob) {
    _ = try Snapshot(version: 1, blocking: old).write(to: oldBlob)
    _ = try Snapshot(version: 2, blocking: new).write(to: newBlob)
  }
  let oldText = try data.file("diff-\(tag)-old.txt") { sink in for number in old.map(String.init).sorted() { sink.write(number) } }
  let newText = try data.file("diff-\(tag)-new.txt") { sink in for number in new.map(String.init).sorted() { sink.write(number) } }
  let delta = data.path("diff.cdir")
  let (calldir, comm) = try ProcessRunner.medians(
    ratioRuns, [binary, "diff", oldBlob, newBlob, "--output", delta],
    ["env", "LC_ALL=C", "comm", "-3", oldText, newText])
  // The answers, untimed: the delta's added and removed numbers against
  // comm -3's two columns.
  let commOut = data.path("diff-comm.out")
  _ = try ProcessRunner.run(["env", "LC_ALL=C", "comm", "-3", oldText, newText], stdout: commOut)
  let answer = try Answers.sameChanges(commOutput: commOut, delta: delta)
  try? FileManager.default.removeItem(atPath: commOut)
  return Row(name: name, calldir: calldir, baselineName: "LC_ALL=C comm -3", baseline: comm, floor: 15, answer: answer)
}

if wants("diff") {
  let count = quick ? 1_000_000 : 10_000_000
  log("diff: two \(count)-entry snapshots, 1% adds and 1% removes")
  rows.append(try diffRow(
    "diff 2×\(count / 1_000_000)M, 1% changed", old: DatasetShapes.scattered(count: count, universeScale: 1, seed: 5),
    tag: "scattered-\(count)"))
  log("diff: expanded ranges and 200k scattered numbers, 1% changed")
  let blocks = DatasetShapes.prefixBlocks(scale: quick ? 0.1 : 1)
  // Files are named by size: a quick run's must not stand in for a full run's.
  rows.append(try diffRow(
    "diff expanded ranges (\(blocks.count / 1000)k), 1% changed", old: blocks, tag: "blocks-\(blocks.count)"))
  let sparse = DatasetShapes.sparse()
  rows.append(try diffRow("diff 200k scattered, 1% changed", old: sparse, tag: "sparse-\(sparse.count)"))
}

// MARK: decode speed

if wants("decode") {
  let count = quick ? 5_000_000 : 20_000_000
  log("decode: \(count) entries")
  let blob = data.path("decode-\(count).cdir")
  if !FileManager.default.fileExists(atPath: blob) {
    _ = try Snapshot(version: 1, blocking: DatasetShapes.scattered(count: count, universeScale: 2, seed: 9)).write(to: blob)
  }
  var best = Double.infinity
  var buffer = [Int64](repeating: 0, count: 8192)
  for _ in 0..<(quick ? 3 : 7) {
    let start = DispatchTime.now()
    let iterator = try BlobReader(path: blob).blocking()
    var total = 0
    while true {
      let got = try buffer.withUnsafeMutableBufferPointer { try iterator.next(into: $0) }
      if got == 0 { break }
      total += got
    }
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
    guard total == count else { throw BenchError.data("decoded \(total) of \(count)") }
    best = min(best, seconds)
  }
  let rate = Double(count) / best / 1e6
  rows.append(Row(
    name: "decode \(count / 1_000_000)M", calldir: Measurement(seconds: best, peakBytes: 0, status: 0),
    baselineName: "-", baseline: nil, floor: nil,
    note: String(format: "%.0fM numbers/s (floor 250M/s) %@", rate, verdict(rate >= 250))))
}

// MARK: encode speed

/// A sink that keeps nothing: the encoder's own cost, without the disk.
final class DiscardingSink: BlobSink {
  func write(_ bytes: UnsafeRawBufferPointer) throws(BlobError) {}
  func overwrite(at offset: UInt64, with bytes: UnsafeRawBufferPointer) throws(BlobError) {}
  func commit() throws(BlobError) {}
  func abandon() {}
}

if wants("encode") {
  // What each blob of a build costs its thread: blocks, frames, CRCs and
  // the content digest of scattered numbers, on one core.
  let count = quick ? 5_000_000 : 20_000_000
  log("encode: \(count) entries on one thread")
  let numbers = DatasetShapes.scattered(count: count, universeScale: 2, seed: 9)
  var best = Double.infinity
  for _ in 0..<(quick ? 3 : 7) {
    let start = DispatchTime.now()
    let writer = try FullSnapshotWriter(sink: DiscardingSink(), version: 1)
    try numbers.withUnsafeBufferPointer { try writer.appendBlocking(ascending: $0, hashingAside: false) }
    try writer.finish()
    best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9)
  }
  rows.append(Row(
    name: "encode \(count / 1_000_000)M", calldir: Measurement(seconds: best, peakBytes: 0, status: 0),
    baselineName: "-", baseline: nil, floor: nil,
    note: String(format: "%.0fM numbers/s on one thread, content digest included", Double(count) / best / 1e6)))
}

// MARK: streaming memory: a large blob against a small one

for (command, name) in [(["validate"], "validate"), (["device", "load", "--device"], "device load")] where wants("stream") {
  guard (try? ProcessRunner.run([binary] + command.prefix(1) + ["--help"], quiet: true).status) == 0 else {
    log("\(name): command not available, skipped")
    continue
  }
  let large = quick ? 5_000_000 : 20_000_000
  var peaks: [Int] = []
  for count in [10_000, large] {
    let blob = data.path("stream-\(count).cdir")
    if !FileManager.default.fileExists(atPath: blob) {
      _ = try Snapshot(version: 1, blocking: DatasetShapes.scattered(count: count, universeScale: 2, seed: 13)).write(to: blob)
    }
    var argv = [binary] + command
    if name == "device load" {
      let device = data.path("device-\(count)")
      try? FileManager.default.removeItem(atPath: device)
      argv += [device, blob, "--max-entries", String(large * 2)]
    } else {
      argv.append(blob)
    }
    peaks.append(try ProcessRunner.run(argv).peakBytes)
  }
  let growth = peaks[1] - peaks[0]
  rows.append(Row(
    name: "\(name) RSS", calldir: Measurement(seconds: 0, peakBytes: peaks[1], status: 0), baselineName: "-",
    baseline: nil, floor: nil,
    note: "10k: \(mib(peaks[0])), \(large / 1_000_000)M: \(mib(peaks[1])), growth \(mib(growth)) (floor 8 MiB) \(verdict(growth <= 8 << 20))"))
}

// MARK: the new paths: explain, device sync, report

if wants("paths") {
  log("explain: 1000 numbers")
  rows.append(try NewPathsBenchmark.explain(data, binary: binary, count: quick ? 1_000_000 : 10_000_000, runs: runs))
  log("device sync: full and 1% delta")
  rows += try NewPathsBenchmark.sync(data, binary: binary, large: quick ? 200_000 : 1_800_000)
  log("build: a MAJNUM-layout file through the arcep-majnum preset")
  rows.append(try NewPathsBenchmark.majnum(data, binary: binary, rows: quick ? 2_000 : 20_000, runs: runs))
  log("report: a store of \(quick ? 30 : 365) versions")
  rows.append(try NewPathsBenchmark.report(data, binary: binary, versions: quick ? 30 : 365, runs: runs))
}

// MARK: memory bounds: build --memory-limit and validate -, within 1.5 times the bound

if wants("memory") {
  rows += try MemoryBoundsBenchmark.rows(data, binary: binary, quick: quick)
}

// MARK: national format

if wants("national") {
  log("national format: E.164 numbers of 14 countries and +800")
  rows += try NationalFormatBenchmark.rows(data, binary: binary, quick: quick, runs: runs)
}

// MARK: report

let machine = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8))?
  .split(separator: "\n").first { $0.hasPrefix("model name") }?.split(separator: ":").last?
  .trimmingCharacters(in: .whitespaces) ?? "unknown CPU"
print("calldir bench\(quick ? " (quick)" : "") on \(ProcessInfo.processInfo.activeProcessorCount) cores, \(machine), \(mib(Int(ProcessInfo.processInfo.physicalMemory)))")
print("")
print("| benchmark | calldir | calldir peak RSS | baseline | baseline time | baseline peak RSS | ratio | floor | answer |")
print("|---|---:|---:|---|---:|---:|---:|---|---|")
var failed = false
var wrong = false
var bounds = false
for row in rows {
  if row.violated { bounds = true }
  if row.answer?.holds == false { wrong = true }
  let answer = row.answer?.text ?? ""
  if let baseline = row.baseline {
    let ratio = baseline.seconds / row.calldir.seconds
    let floorText = row.floor.map { "≥ \(Int($0))× " + verdict(ratio >= $0) } ?? ""
    if let floor = row.floor, ratio < floor, !quick { failed = true }
    print(String(format: "| %@ | %.3f s | %@ | %@ | %.3f s | %@ | %.1f× | %@ | %@ |", row.name, row.calldir.seconds,
      mib(row.calldir.peakBytes), row.baselineName, baseline.seconds, mib(baseline.peakBytes), ratio, floorText, answer))
  } else {
    if row.note.contains("BELOW") { failed = true }
    print(String(format: "| %@ | %@ | %@ | %@ | | | | %@ | %@ |", row.name,
      row.calldir.seconds > 0 ? String(format: "%.3f s", row.calldir.seconds) : "", row.calldir.peakBytes > 0 ? mib(row.calldir.peakBytes) : "",
      row.baselineName, row.note, answer))
  }
}
if failed { print("\nsome floors are not reached") }
if wrong { print("\nsome answers differ from their baseline's") }
if quick { print("\nquick run: small inputs, where start-up time dominates; the floors apply to the full run (make bench)") }
// A wrong answer or a memory bound missed fails the bench, quick runs too
// (a speed floor missed is reported).
if bounds { print("\nsome memory bounds are not held") }
if wrong || bounds { exit(1) }
