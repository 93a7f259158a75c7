import CallDirectoryFormat
import Foundation
import Glibc
import LiveCallerID
import SQLiteDatabase
import Sodium
import Testing

/// A store built by the binary from a config with `liveCallerID`, and
/// exports of it.
final class LiveCallerIDStore {
  let directory: TemporaryDirectory
  var store: String { directory.path("store") }
  var config: String { directory.path("calldir.json") }

  /// A HEIC file's start (an `ftyp` box of brand `heic`) and some bytes.
  static let icon: [UInt8] =
    [0, 0, 0, 24] + Array("ftypheic".utf8) + [0, 0, 0, 0] + Array("mif1heic".utf8) + (0..<300).map { UInt8($0 % 251) }

  init(liveCallerID: String = #"{"useCase": "com.example.lookup", "cacheExpiryMinutes": 30, "block": {"shardCount": 8}, "identity": {"shardCount": 4}}"#) throws {
    directory = try TemporaryDirectory()
    try Data(Self.icon).write(to: URL(fileURLWithPath: directory.path("shop.heic")))
    try writeConfig(liveCallerID: liveCallerID)
  }

  func writeConfig(liveCallerID: String?, category: String = "business") throws {
    let settings = liveCallerID.map { #""liveCallerID": "# + $0 + "," } ?? ""
    try directory.write(
      "calldir.json",
      #"{"dataset": "com.example.blocklist", "# + settings + #" "sources": ["#
        + #"{"path": "block.txt", "format": "lines", "list": "block"},"#
        + #"{"path": "ranges.txt", "format": "patterns", "list": "block"},"#
        + #"{"path": "shops.csv", "format": "csv", "list": "identify", "number": "number", "label": "name", "category": ""#
        + category + #"", "icon": "shop.heic", "priority": 1},"#
        + #"{"path": "people.csv", "format": "csv", "list": "identify", "number": "number", "label": "name", "category": "person"},"#
        + #"{"path": "allow.txt", "format": "lines", "list": "allow"}]}"#)
  }

  /// The sources: `block` numbers, a range of 200, shops and people, and
  /// `allowed` allowlisted.
  func writeSources(block: [String], shops: [String: String], people: [String: String], allowed: [String]) throws {
    try directory.write("block.txt", block.joined(separator: "\n") + "\n")
    try directory.write("ranges.txt", "+33612345###\n+33612346000-33612346099\n")
    try directory.write("shops.csv", "number,name\n" + shops.sorted(by: { $0.key < $1.key }).map { "\($0.key),\($0.value)\n" }.joined())
    try directory.write("people.csv", "number,name\n" + people.sorted(by: { $0.key < $1.key }).map { "\($0.key),\($0.value)\n" }.joined())
    try directory.write("allow.txt", allowed.joined(separator: "\n") + "\n")
  }

  static let people = ["+4930123456": "Erika Mustermann", "+12125550142": "Loses To The Shop"]
  static let shops = ["+12125550142": "Corner Shop", "+14085551212": "Spam Co"]
  static let block = (0..<400).map { "+1408555\(String(2000 + $0 * 7))" } + ["+442079460018", "+33412345678"]

  @discardableResult
  func build(day: Int = 1, _ extra: [String] = []) throws -> CalldirProcess.Result {
    let result = try CalldirProcess.run(
      ["build", "--config", config, "--store", store, "--as-of", "2026-03-\(day < 10 ? "0" : "")\(day)"] + extra)
    #expect(result.status == 0, "\(result.standardError)")
    return result
  }

  func export(_ output: String = "out", _ extra: [String] = [], environment: [String: String] = [:]) throws
    -> CalldirProcess.Result
  {
    try CalldirProcess.run(
      ["export", "live-caller-id", "--store", store, "--output", directory.path(output), "--json"] + extra,
      environment: environment)
  }

  /// Every row of `useCase`'s inputs in `output`: keyword → (value, shard).
  func rows(_ useCase: String, output: String = "out") throws -> [String: (value: [UInt8], shard: Int)] {
    var rows: [String: (value: [UInt8], shard: Int)] = [:]
    let inputs = directory.path(output) + "/inputs"
    for name in try FileManager.default.contentsOfDirectory(atPath: inputs)
    where name.hasPrefix(useCase + "-") && !name.hasPrefix(".") {
      let shard = try #require(Int(name.dropFirst(useCase.count + 1).dropLast(".binpb".count)))
      for row in try KeywordDatabase.decode(Array(try Data(contentsOf: URL(fileURLWithPath: inputs + "/" + name)))) {
        let keyword = String(decoding: row.keyword, as: UTF8.self)
        #expect(rows[keyword] == nil, "\(keyword) twice")
        rows[keyword] = (row.value, shard)
      }
    }
    return rows
  }

  /// The blocking numbers and identification entries of the latest version.
  func entries() throws -> (blocking: [String], identification: [String: String]) {
    let history = try parseJSON(try CalldirProcess.run(["history", "--store", store, "--json"]).standardOutput)
    let latest = try #require((history["versions"] as? [[String: Any]])?.last?["snapshot"] as? String)
    let listed = try CalldirProcess.run(["inspect", "--entries", latest.hasPrefix("/") ? latest : store + "/" + latest])
    var blocking: [String] = []
    var identification: [String: String] = [:]
    for line in listed.lines {
      let fields = line.split(separator: "\t", maxSplits: 2).map(String.init)
      if fields[0] == "block" { blocking.append("+" + fields[1]) }
      if fields[0] == "identify" { identification["+" + fields[1]] = fields[2] }
    }
    return (blocking, identification)
  }

  /// The files of the export, by path relative to `output`, and their bytes.
  func files(_ output: String = "out") throws -> [String: Data] {
    var files: [String: Data] = [:]
    let root = directory.path(output)
    for directory in ["", "inputs", "configs", "processed"] {
      let path = directory.isEmpty ? root : root + "/" + directory
      for name in (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [] {
        let file = path + "/" + name
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: file, isDirectory: &isDirectory), !isDirectory.boolValue else { continue }
        files[directory.isEmpty ? name : directory + "/" + name] = try Data(contentsOf: URL(fileURLWithPath: file))
      }
    }
    return files
  }

  /// The catalog's exports: (id, version, shards written).
  func recordedExports() throws -> [String] {
    let database = try Database(path: store + "/catalog.sqlite", mode: .readOnly)
    return try database.query(
      """
      SELECT e.id, e.version, (SELECT group_concat(s.use_case || s.shard, ',') FROM live_caller_id_export_shards s
        WHERE s.export_id = e.id AND s.written = 1) FROM live_caller_id_exports e ORDER BY e.id
      """
    ).map { "\($0[0].int64 ?? 0) v\($0[1].int64 ?? 0) \($0[2].string ?? "")" }
  }
}

func sha256Hex(_ data: Data) -> String {
  SodiumSHA256.hash(Array(data)).map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
}

@Suite struct LiveCallerIDExportTests {
  static func built() throws -> LiveCallerIDStore {
    let store = try LiveCallerIDStore()
    try store.writeSources(
      block: LiveCallerIDStore.block, shops: LiveCallerIDStore.shops, people: LiveCallerIDStore.people,
      allowed: ["+14085552007", "+33612345001"])
    try store.build()
    return store
  }

  @Test func everyBlockingAndIdentifiedNumberIsARowOfItsShard() throws {
    let store = try Self.built()
    let result = try store.export()
    #expect(result.status == 0, "\(result.standardError)")
    let document = try parseJSON(result.standardOutput)
    // export.json is what --json printed.
    let file = try Data(contentsOf: URL(fileURLWithPath: store.directory.path("out/export.json")))
    #expect(String(decoding: file, as: UTF8.self) == result.standardOutput)
    #expect(document["dataset"] as? String == "com.example.blocklist")
    #expect(document["version"] as? Int == 1)

    let (blocking, identification) = try store.entries()
    #expect(blocking.count == 402 - 1 + 1000 + 100 - 1)
    #expect(!blocking.contains("+14085552007"))
    let useCases = try #require(document["useCases"] as? [[String: Any]])
    #expect(useCases.map { $0["name"] as? String } == ["com.example.lookup.block", "com.example.lookup.identity"])
    let block = useCases[0]
    let identity = useCases[1]
    for (useCase, count) in [(block, 8), (identity, 4)] {
      #expect(useCase["shardCount"] as? Int == count)
      #expect(useCase["shardingFunction"] as? String == "sha256")
      #expect(useCase["fileStem"] as? String == "processed/\(useCase["kind"] as? String ?? "")")
      let written = try #require(useCase["shardsWritten"] as? [String: Any])
      #expect(written["indices"] as? [Int] == Array(0..<count))
      #expect((written["reason"] as? String)?.hasPrefix("first export of this store") == true)
    }
    #expect(block["rows"] as? Int == blocking.count + (block["paddingRows"] as? Int ?? -1))
    #expect(block["keywords"] as? [String: Int] == ["e164": blocking.count])

    // Every blocking number answers 01, in the shard its keyword hashes to;
    // nothing else is a number's row.
    let blockRows = try store.rows("block")
    for number in blocking {
      let row = try #require(blockRows[number], "\(number)")
      #expect(row.value == [0x01])
      #expect(KeywordSharding.shard(of: Array(number.utf8), shardCount: 8) == row.shard)
    }
    #expect(blockRows.keys.filter { Keyword.couldBeNumber(Array($0.utf8)) }.count == blocking.count)
    #expect(blockRows["+14085552007"] == nil)
    for (keyword, row) in blockRows where !Keyword.couldBeNumber(Array(keyword.utf8)) {
      #expect(KeywordSharding.shard(of: Array(keyword.utf8), shardCount: 8) == row.shard, "padding \(keyword)")
    }

    // Identities: the winning source's label, category and icon.
    let identityRows = try store.rows("identity")
    #expect(identification.count == 3)
    for (number, label) in identification {
      let row = try #require(identityRows[number], "\(number)")
      let decoded = try CallIdentity(decoding: row.value)
      #expect(decoded.name == label)
      #expect(decoded.cacheExpiryMinutes == 30)
      if number == "+4930123456" {
        #expect(decoded.category == 1)
        #expect(decoded.icon == nil)
      } else {
        #expect(decoded.category == 2)
        #expect(decoded.icon == CallIdentity.Icon(format: 1, image: LiveCallerIDStore.icon))
      }
    }
    #expect(try CallIdentity(decoding: try #require(identityRows["+12125550142"]).value).name == "Corner Shop")

    // Every shard from 0 to N−1 has its input and config; every file listed
    // is on disk with its size and SHA-256.
    let files = try store.files()
    for (name, count) in [("block", 8), ("identity", 4)] {
      for shard in 0..<count {
        #expect(files["inputs/\(name)-\(shard).binpb"] != nil)
        let configData = try #require(files["configs/\(name)-\(shard).json"])
        let config = try parseJSON(String(decoding: configData, as: UTF8.self))
        #expect(config["databaseType"] as? String == "keyword")
        #expect(config["inputDatabase"] as? String == "inputs/\(name)-\(shard).binpb")
        #expect(config["outputDatabase"] as? String == "processed/\(name)-SHARD_ID.bin")
        #expect(config["outputPirParameters"] as? String == "processed/\(name)-SHARD_ID.params.txtpb")
        #expect(config["sharding"] as? [String: Int] == ["shardCount": count])
        #expect((config["shardingFunction"] as? [String: Any])?.keys.sorted() == ["sha256"])
        #expect(config["rlweParameters"] as? String == "n_4096_logq_27_28_28_logt_5")
        #expect(config["trialsPerShard"] as? Int == 0)
        let cuckoo = try #require(config["cuckooTableArguments"] as? [String: Any])
        let bucketCount = try #require((cuckoo["bucketCount"] as? [String: [String: Int]])?["fixedSize"]?["bucketCount"])
        #expect(bucketCount >= 2 && bucketCount % 2 == 0)
        #expect(cuckoo["maxSerializedBucketSize"] as? Int == 1024)
      }
    }
    for useCase in useCases {
      for listed in try #require(useCase["files"] as? [[String: Any]]) {
        let path = try #require(listed["path"] as? String)
        let data = try #require(files[path])
        #expect(listed["bytes"] as? Int == data.count)
        #expect(listed["sha256"] as? String == sha256Hex(data))
      }
    }
    let commands = useCases.flatMap { $0["commands"] as? [String] ?? [] }
    #expect(commands.count == 12)
    #expect(String(decoding: try #require(files["commands.txt"]), as: UTF8.self) == commands.map { $0 + "\n" }.joined())
    let service = try parseJSON(String(decoding: try #require(files["service-config.json"]), as: UTF8.self))
    let serviceUseCases = try #require(service["usecases"] as? [[String: Any]])
    #expect(serviceUseCases.map { $0["name"] as? String } == ["com.example.lookup.block", "com.example.lookup.identity"])
    #expect(serviceUseCases.map { $0["fileStem"] as? String } == ["processed/block", "processed/identity"])
    #expect(serviceUseCases.map { $0["shardCount"] as? Int } == [8, 4])
    // The icon is in the store under its SHA-256.
    let iconName = sha256Hex(Data(LiveCallerIDStore.icon))
    #expect(FileManager.default.contents(atPath: store.store + "/icons/\(iconName).heic") == Data(LiveCallerIDStore.icon))
    #expect(FileManager.default.fileExists(atPath: store.store + "/snapshots/identities-000001.cdid"))
    #expect(try store.recordedExports().count == 1)
  }

  /// Shards stay fixed: after a build that changes a few numbers, the
  /// export writes exactly the shards whose rows changed, and lists them.
  @Test func aSecondBuildMakesTheExportWriteOnlyTheChangedShards() throws {
    let store = try Self.built()
    #expect(try store.export().status == 0)
    let before = try store.files()
    var block = LiveCallerIDStore.block
    let removed = block.remove(at: 10)
    block.append("+14085559999")
    var people = LiveCallerIDStore.people
    people["+4930123456"] = "Erika Musterfrau"
    try store.writeSources(
      block: block, shops: LiveCallerIDStore.shops, people: people, allowed: ["+14085552007", "+33612345001"])
    try store.build(day: 2)
    let result = try store.export()
    #expect(result.status == 0, "\(result.standardError)")
    let useCases = try #require(try parseJSON(result.standardOutput)["useCases"] as? [[String: Any]])
    let expectedBlock = Set([removed, "+14085559999"].map { KeywordSharding.shard(of: Array($0.utf8), shardCount: 8) }).sorted()
    let expectedIdentity = [KeywordSharding.shard(of: Array("+4930123456".utf8), shardCount: 4)]
    let written = useCases.map { ($0["shardsWritten"] as? [String: Any])?["indices"] as? [Int] }
    #expect(written == [expectedBlock, expectedIdentity])
    #expect(((useCases[0]["shardsWritten"] as? [String: Any])?["reason"] as? String)?.hasPrefix("rows changed since export 1 (version 1)") == true)
    #expect(useCases[0]["commands"] as? [String] == expectedBlock.map { "PIRProcessDatabase configs/block-\($0).json" })
    // The other shards' files are as the first export left them; the
    // written ones hold the new rows.
    let after = try store.files()
    for shard in 0..<8 where !expectedBlock.contains(shard) {
      #expect(after["inputs/block-\(shard).binpb"] == before["inputs/block-\(shard).binpb"])
    }
    let rows = try store.rows("block")
    #expect(rows[removed] == nil)
    #expect(rows["+14085559999"]?.value == [0x01])
    #expect(try CallIdentity(decoding: try #require(try store.rows("identity")["+4930123456"]).value).name == "Erika Musterfrau")
    #expect(try store.recordedExports().count == 2)

    // Nothing changed since: nothing written; --all: everything, anywhere.
    let again = try parseJSON(try store.export().standardOutput)
    #expect((again["useCases"] as? [[String: Any]])?.allSatisfy { (($0["shardsWritten"] as? [String: Any])?["indices"] as? [Int])?.isEmpty == true } == true)
    let all = try store.export("fresh", ["--all"])
    #expect(all.status == 0)
    let everything = try #require(try parseJSON(all.standardOutput)["useCases"] as? [[String: Any]])
    #expect(everything.map { (($0["shardsWritten"] as? [String: Any])?["indices"] as? [Int])?.count } == [8, 4])
    #expect(try store.rows("block", output: "fresh").keys.sorted() == rows.keys.sorted())
  }

  /// A build whose only change is to an identify source's category
  /// publishes a version all the same, and the next export sees it.
  @Test func aChangedCategoryAloneIsANewVersionTheExportSees() throws {
    let store = try Self.built()
    #expect(try store.export().status == 0)
    let unchanged = try store.build(day: 2, ["--json"])
    #expect(try parseJSON(unchanged.standardOutput)["unchanged"] as? Bool == true)
    try store.writeConfig(
      liveCallerID: #"{"useCase": "com.example.lookup", "cacheExpiryMinutes": 30, "block": {"shardCount": 8}, "identity": {"shardCount": 4}}"#,
      category: "person")
    let rebuilt = try parseJSON(try store.build(day: 3, ["--json"]).standardOutput)
    #expect(rebuilt["unchanged"] as? Bool == false)
    #expect(rebuilt["version"] as? Int == 2)
    #expect((rebuilt["changes"] as? [String: [String: Int]])?["blocking"] == ["added": 0, "removed": 0])
    let result = try parseJSON(try store.export().standardOutput)
    #expect(result["version"] as? Int == 2)
    let useCases = try #require(result["useCases"] as? [[String: Any]])
    #expect(((useCases[0]["shardsWritten"] as? [String: Any])?["indices"] as? [Int]) == [])
    let shops = ["+12125550142", "+14085551212"].map { KeywordSharding.shard(of: Array($0.utf8), shardCount: 4) }
    #expect(((useCases[1]["shardsWritten"] as? [String: Any])?["indices"] as? [Int]) == Set(shops).sorted())
    #expect(try CallIdentity(decoding: try #require(try store.rows("identity")["+14085551212"]).value).category == 1)
  }

  /// What a config without liveCallerID publishes is not changed by the
  /// feature: the same blobs, reports and manifest, byte for byte.
  @Test func withoutLiveCallerIDTheStoreIsByteIdentical() throws {
    let plain = try LiveCallerIDStore()
    try plain.writeConfig(liveCallerID: nil)
    let with = try LiveCallerIDStore()
    for store in [plain, with] {
      try store.writeSources(
        block: LiveCallerIDStore.block, shops: LiveCallerIDStore.shops, people: LiveCallerIDStore.people, allowed: [])
      try store.build()
    }
    for name in ["snapshots/snapshot-000001.cdir", "rejects/rejects-000001.txt", "rejects/conflicts-000001.txt", "manifest.json"] {
      let a = FileManager.default.contents(atPath: plain.store + "/" + name)
      #expect(a != nil && a == FileManager.default.contents(atPath: with.store + "/" + name), "\(name)")
    }
    #expect(!FileManager.default.fileExists(atPath: plain.store + "/snapshots/identities-000001.cdid"))
    #expect(!FileManager.default.fileExists(atPath: plain.store + "/icons"))
    // Its export says which key is missing.
    let result = try plain.export()
    #expect(result.status == 65)
    #expect(result.standardError.contains(#"add a "liveCallerID" object to the config"#))
    #expect(try parseJSON(result.standardOutput)["error"] as? [String: String] == [
      "kind": "data", "message": String(result.standardError.dropFirst("error: ".count).dropLast()),
    ])
  }

  @Test func missingPrunedAndUnreadableVersionsAreClearErrors() throws {
    let store = try Self.built()
    var block = LiveCallerIDStore.block
    block.append("+14085559999")
    try store.writeSources(
      block: block, shops: LiveCallerIDStore.shops, people: LiveCallerIDStore.people,
      allowed: ["+14085552007", "+33612345001"])
    try store.build(day: 2)
    #expect(try CalldirProcess.run(["prune", "--store", store.store, "--keep", "1"]).status == 0)
    let pruned = try store.export("out", ["--version", "1"])
    #expect(pruned.status == 65)
    #expect(pruned.standardError.contains("version 1 was pruned at"))
    let missing = try store.export("out", ["--version", "7"])
    #expect(missing.status == 66)
    #expect(missing.standardError == "error: version 7 is not published in \(store.store)\n")
    #expect(try parseJSON(missing.standardOutput)["error"] as? [String: String] == [
      "kind": "noInput", "message": "version 7 is not published in \(store.store)",
    ])
    #expect(try store.export("out", ["--version", "zero"]).status == 64)
    let noStore = try CalldirProcess.run(["export", "live-caller-id", "--store", store.directory.path("nothing"), "--output", store.directory.path("o")])
    #expect(noStore.status == 66)
    #expect(!FileManager.default.fileExists(atPath: store.directory.path("out")))
    #expect(try store.export("out", ["--version", "2"]).status == 0)
  }

  @Test func theOutputMustBeADirectoryOutsideTheStore() throws {
    let store = try Self.built()
    for inside in ["store/lcid", "store/snapshots/x", "store"] {
      let result = try store.export(inside)
      #expect(result.status == 73, "\(inside): \(result.standardError)")
      #expect(result.standardError.contains("is inside the store"))
    }
    #expect(!FileManager.default.fileExists(atPath: store.store + "/lcid"))
    try store.directory.write("afile", "x")
    #expect(try store.export("afile").status == 73)
    #expect(try store.export("afile/below").status == 73)
    #expect(try store.recordedExports().isEmpty)
  }

  @Test func aStoreAnotherCommandHoldsIsBusyWithNoWait() throws {
    let store = try Self.built()
    let lock = open(store.store + "/lock", O_RDWR)
    #expect(lock >= 0)
    defer { close(lock) }
    #expect(flock(lock, LOCK_EX) == 0)
    let result = try store.export("out", ["--no-wait"])
    #expect(result.status == 75)
    #expect(try parseJSON(result.standardOutput)["error"] as? [String: String] != nil)
    flock(lock, LOCK_UN)
    #expect(try store.export().status == 0)
  }

  @Test func badLiveCallerIDSettingsAndIconsStopTheBuild() throws {
    let store = try LiveCallerIDStore(liveCallerID: #"{"useCase": "com.example.lookup", "block": {"shardCount": 3}}"#)
    try store.writeSources(block: ["+14085551212"], shops: [:], people: [:], allowed: [])
    let bad = try CalldirProcess.run(["build", "--config", store.config, "--store", store.store])
    #expect(bad.status == 65)
    #expect(bad.standardError.contains("liveCallerID.block.shardCount: must be a power of two"))
    try store.writeConfig(liveCallerID: #"{"useCase": "com.example.lookup"}"#)
    try FileManager.default.removeItem(atPath: store.directory.path("shop.heic"))
    let missing = try CalldirProcess.run(["build", "--config", store.config, "--store", store.store])
    #expect(missing.status == 66)
    #expect(missing.standardError.contains("sources[2].icon: file not found"))
    try store.directory.write("shop.heic", "GIF89a not a heic image at all")
    let notHEIC = try CalldirProcess.run(["build", "--config", store.config, "--store", store.store, "--json"])
    #expect(notHEIC.status == 65)
    #expect(notHEIC.standardError.contains("sources[2].icon: "))
    #expect(notHEIC.standardError.contains("not a HEIC image"))
    #expect(!FileManager.default.fileExists(atPath: store.store))
  }

  /// The `national` form through the binary: libphonenumber's national
  /// digits (Python's `phonenumbers` gives the same), and a national text
  /// two numbers share given to neither.
  @Test func theNationalFormGivesEveryNumberItsNationalDigitsOnce() throws {
    let store = try LiveCallerIDStore(
      liveCallerID: #"{"useCase": "com.example.lookup", "keywordForms": ["e164", "national"], "block": {"shardCount": 2}}"#)
    try store.writeSources(
      block: ["+33 4 12 34 56 78", "+61 412 345 678", "+44 20 7946 0018", "+1 212-555-0142", "+81 90 1234 5678"],
      shops: ["+12125550142": "Corner Shop"], people: ["+4930123456": "Erika Mustermann"], allowed: [])
    try store.build()
    let result = try store.export()
    #expect(result.status == 0, "\(result.standardError)")
    let useCases = try #require(try parseJSON(result.standardOutput)["useCases"] as? [[String: Any]])
    #expect(useCases[0]["keywords"] as? [String: Int] == ["e164": 5 + 1100, "national": 3 + 1100])
    #expect(useCases[0]["sharedNationalDigits"] as? Int == 2)
    let rows = try store.rows("block")
    for keyword in ["+33412345678", "+61412345678", "02079460018", "2125550142", "09012345678", "0612345601"] {
      #expect(rows[keyword]?.value == [0x01], "\(keyword)")
    }
    #expect(rows["0412345678"] == nil)
    let identities = try store.rows("identity")
    #expect(try CallIdentity(decoding: try #require(identities["2125550142"]).value).name == "Corner Shop")
    #expect(try CallIdentity(decoding: try #require(identities["030123456"]).value).name == "Erika Mustermann")
  }

  /// Repair keeps each version's settings and identity details; prune
  /// removes the details with their version and keeps the icons; a damaged
  /// details file is found.
  @Test func repairKeepsTheRecordPruneRemovesItAndDamageIsFound() throws {
    let store = try Self.built()
    var block = LiveCallerIDStore.block
    for day in 2...3 {
      block.append("+1408555990\(day)")
      try store.writeSources(
        block: block, shops: LiveCallerIDStore.shops, people: LiveCallerIDStore.people,
        allowed: ["+14085552007", "+33612345001"])
      try store.build(day: day)
    }
    let repaired = try CalldirProcess.run(["repair", "--store", store.store, "--json"])
    #expect(repaired.status == 0, "\(repaired.standardError)")
    #expect(try parseJSON(repaired.standardOutput)["warnings"] as? [String] == [])
    #expect(try store.export("out", ["--version", "2"]).status == 0)
    #expect(try CalldirProcess.run(["prune", "--store", store.store, "--keep", "1"]).status == 0)
    for version in 1...2 {
      #expect(!FileManager.default.fileExists(atPath: store.store + "/snapshots/identities-00000\(version).cdid"))
    }
    #expect(FileManager.default.fileExists(atPath: store.store + "/snapshots/identities-000003.cdid"))
    #expect(FileManager.default.fileExists(atPath: store.store + "/icons/\(sha256Hex(Data(LiveCallerIDStore.icon))).heic"))
    #expect(try store.export().status == 0)

    // A details file that is not the one the catalog recorded is refused,
    // and repair leaves the version without it (with a warning).
    let details = store.store + "/snapshots/identities-000003.cdid"
    var bytes = try Data(contentsOf: URL(fileURLWithPath: details))
    bytes[bytes.count / 2] ^= 0x01
    try bytes.write(to: URL(fileURLWithPath: details))
    let damaged = try store.export("other")
    #expect(damaged.status == 65)
    #expect(damaged.standardError.contains("identities-000003.cdid does not match the catalog"))
    let again = try CalldirProcess.run(["repair", "--store", store.store, "--json"])
    #expect(again.status == 0)
    #expect((try parseJSON(again.standardOutput)["warnings"] as? [String])?.contains { $0.contains("identity details are left out") } == true)
    let unsettled = try store.export("other")
    #expect(unsettled.status == 65)
    #expect(unsettled.standardError.contains("was built without Live Caller ID Lookup settings"))
    // The next build records them again (the settings differ from none).
    let rebuilt = try parseJSON(try store.build(day: 4, ["--json"]).standardOutput)
    #expect(rebuilt["version"] as? Int == 4)
    #expect(try store.export("other").status == 0)
  }
}

/// `export live-caller-id` holds one shard and its buffers, not the
/// dataset: 2 million rows export within 48 MiB more than 20,000.
@Suite struct LiveCallerIDExportMemoryTests {
  static func peak(rows patterns: [String]) throws -> (peak: Int, rows: Int) {
    let directory = try TemporaryDirectory()
    try directory.write("ranges.txt", patterns.joined(separator: "\n") + "\n")
    try directory.write(
      "calldir.json",
      #"{"liveCallerID": {"useCase": "a.b"}, "sources": [{"path": "ranges.txt", "format": "patterns", "list": "block"}]}"#)
    let built = try CalldirProcess.run(
      ["build", "--config", directory.path("calldir.json"), "--store", directory.path("store")])
    #expect(built.status == 0, "\(built.standardError)")
    let measured = try MemoryBoundTests.measure(
      "exec \"$0\" export live-caller-id --json --store '\(directory.path("store"))' --output '\(directory.path("out"))'")
    #expect(measured.status == 0, "\(measured.standardError)")
    let block = try #require((try parseJSON(measured.standardOutput)["useCases"] as? [[String: Any]])?.first)
    return (measured.peakBytes, block["rows"] as? Int ?? 0)
  }

  @Test func memoryIsBoundedByAShardNotTheDataset() throws {
    let small = try Self.peak(rows: ["+140855500##", "+140855501##"])
    let large = try Self.peak(rows: ["+14085######", "+14086######"])
    #expect(small.rows == 200)
    #expect(large.rows == 2_000_000)
    // Rows held whole would take about 50 bytes each (100 MiB); the
    // export holds 32 MiB of buffers and one shard (about 60,000 rows).
    #expect(large.peak - small.peak <= 48 << 20, "\(small.peak >> 20) MiB, then \(large.peak >> 20) MiB")
  }
}
