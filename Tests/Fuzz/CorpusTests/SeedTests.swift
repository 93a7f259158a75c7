import CallDirectoryCompiler
import CallDirectoryFormat
import CallDirectorySources
import CallDirectorySync
import CallDirectoryValidation
import CalldirSystem
@_spi(Fuzzing) import CallKitMock
import Foundation
import LiveCallerID
import PhoneNumbers
import Testing

/// Tests/Fuzz, from this file's place.
private let fuzzDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().path

/// Every seed of a harness's corpus, by name.
private func seeds(_ harness: String) throws -> [(name: String, bytes: [UInt8])] {
  let directory = "\(fuzzDirectory)/Corpus/\(harness)"
  return try FileManager.default.contentsOfDirectory(atPath: directory).sorted().map { name in
    (name, Array(try Data(contentsOf: URL(fileURLWithPath: "\(directory)/\(name)"))))
  }
}

/// Decodes `bytes` with `decode`, as the harness does, and hands back the
/// options and the payload after them.
private func decoded<Options>(_ bytes: [UInt8], _ decode: (inout FuzzInput) -> Options) -> (Options, [UInt8]) {
  bytes.withUnsafeBufferPointer { buffer in
    var input = FuzzInput(buffer.baseAddress ?? UnsafePointer(bitPattern: 1)!, buffer.count)
    let options = decode(&input)
    return (options, input.rest)
  }
}

/// Each seed of each harness decodes, with the harness's own option code
/// (Tests/Fuzz/Options), to the reader or parser its name says, and its
/// payload gets past the options into that reader's or parser's work: a
/// harness change that moves the option bytes fails here rather than
/// leaving the corpus stopped at option parsing.
@Suite struct SeedTests {
  @Test func everyHarnessHasOptionCodeAndSeeds() throws {
    let harnesses = try FileManager.default.contentsOfDirectory(atPath: "\(fuzzDirectory)/Harnesses")
      .map { String($0.dropLast(".swift".count)) }.sorted()
    #expect(harnesses.count == 13)
    for harness in harnesses {
      #expect(FileManager.default.fileExists(atPath: "\(fuzzDirectory)/Options/\(harness)-options.swift"), "\(harness)")
      #expect(try !seeds(harness).isEmpty, "\(harness) has no seeds")
    }
  }

  // MARK: xml-document

  @Test func xmlDocumentSeedsAreWrittenFromTheirHeaders() throws {
    let directory = "\(fuzzDirectory)/Seeds/xml-document"
    let names = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
    let corpus = Dictionary(uniqueKeysWithValues: try seeds("xml-document").map { ($0.name, $0.bytes) })
    #expect(names.count >= 9 && names.count == corpus.count)
    for name in names {
      let source = Array(try Data(contentsOf: URL(fileURLWithPath: "\(directory)/\(name)")))
      let seed = try #require(XMLDocumentOptions.seed(fromSource: source), "\(name): its header encodes to no option bytes")
      #expect(corpus[name] == seed, "Corpus/xml-document/\(name) is not what its source writes (Tests/Fuzz/fuzz.sh seeds)")
      let newline = try #require(source.firstIndex(of: 0x0A))
      let header = try #require(XMLDocumentOptions(header: try JSONParser().parse(Array(source[..<newline]))))
      let (options, payload) = decoded(seed, XMLDocumentOptions.init)
      #expect(options == header, "\(name)")
      #expect(payload == Array(source[(newline + 1)...]), "\(name)")
    }
  }

  /// Each seed reaches the records of its document; the attack and
  /// malformed documents (`external-entity`, `billion-laughs`,
  /// `malformed`) reach the refusal instead.
  @Test func xmlDocumentSeedsReachTheirRecordsOrTheirRefusal() throws {
    for (name, bytes) in try seeds("xml-document") {
      let (options, document) = decoded(bytes, XMLDocumentOptions.init)
      let reader = try XMLSourceReader(
        input: .bytes(document), records: options.records, number: options.number, label: options.label,
        encoding: options.encoding)
      if ["external-entity", "billion-laughs", "malformed"].contains(name) {
        #expect(throws: SourceError.self, "\(name)") { try reader.readAll() }
      } else {
        let contents = try reader.readAll()
        #expect(!contents.records.isEmpty, "\(name)")
        #expect(contents.records.allSatisfy { !$0.number.isEmpty }, "\(name)")
      }
    }
  }

  // MARK: source-readers

  /// The format a seed's name names: the longest format the name (without
  /// `preset-`) is or starts with followed by `-`.
  static func format(named name: String) -> String? {
    let bare = name.hasPrefix("preset-") ? String(name.dropFirst("preset-".count)) : name
    return SourceReadersOptions.formats.filter { bare == $0 || bare.hasPrefix($0 + "-") }.max { $0.count < $1.count }
  }

  @Test func sourceReaderSeedsAreWrittenFromTheirHeaders() throws {
    let directory = "\(fuzzDirectory)/Seeds/source-readers"
    let names = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
    let corpus = Dictionary(uniqueKeysWithValues: try seeds("source-readers").map { ($0.name, $0.bytes) })
    #expect(names.count >= 25)
    for name in names {
      let source = Array(try Data(contentsOf: URL(fileURLWithPath: "\(directory)/\(name)")))
      let seed = try #require(SourceReadersOptions.seed(fromSource: source), "\(name): its header encodes to no option bytes")
      #expect(corpus[name] == seed, "Corpus/source-readers/\(name) is not what its source writes (Tests/Fuzz/fuzz.sh seeds)")
      // The header's options are what the harness decodes from the seed.
      let newline = try #require(source.firstIndex(of: 0x0A))
      let header = try #require(SourceReadersOptions(header: try JSONParser().parse(Array(source[..<newline]))))
      let (options, payload) = decoded(seed, SourceReadersOptions.init)
      #expect(options == header, "\(name)")
      #expect(payload == Array(source[(newline + 1)...]), "\(name)")
    }
  }

  @Test func sourceReaderSeedsReachTheRecordsOfTheReaderTheyName() throws {
    for (name, bytes) in try seeds("source-readers") {
      let named = try #require(Self.format(named: name), "\(name) names no format")
      let (options, payload) = decoded(bytes, SourceReadersOptions.init)
      #expect(options.format == named, "\(name) decodes to \(options.format)")
      let sourceOptions = try #require(options.sourceOptions, "\(name): the preset refuses the options")
      let format = try #require(SourceFormatRegistry.standard[options.format])
      let reader: any SourceReader
      do {
        reader = try format.makeReader(input: .bytes(payload), options: sourceOptions)
      } catch {
        Issue.record("\(name): no reader: \(error)")
        continue
      }
      var found = 0
      var issues: [String] = []
      do {
        _ = try reader.read { event in
          switch event {
          case .record, .range: found += 1
          case .issue(let issue): issues.append(issue.description)
          }
        }
      } catch {
        issues.append("thrown: \(error)")
      }
      #expect(found > 0, "\(name) reaches no record or range of \(options.format): \(issues.prefix(3))")
    }
  }

  @Test func headersRoundTripThroughTheOptionBytes() throws {
    var header = SourceReadersOptions(format: "csv")
    header.delimiter = ";"
    header.encoding = "Shift_JIS"
    header.ranges = true
    header.regions = true
    header.dateFormat = "D.M.Y"
    header.wildcard = "#"
    let bytes = try #require(header.bytes)
    #expect(decoded(bytes, SourceReadersOptions.init).0 == header)
    // Options no bytes give are refused rather than written wrong.
    var tsv = SourceReadersOptions(format: "tsv")
    tsv.delimiter = ";"
    #expect(tsv.bytes == nil)
    var jsonl = SourceReadersOptions(format: "jsonl")
    jsonl.ranges = true
    #expect(jsonl.bytes == nil)
    #expect(SourceReadersOptions(header: try JSONParser().parse(#"{"format": "csv", "delimter": ";"}"#)) == nil)
  }

  // MARK: json-document

  @Test func jsonDocumentSeedsAreWrittenFromTheirHeaders() throws {
    let directory = "\(fuzzDirectory)/Seeds/json-document"
    let names = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
    let corpus = Dictionary(uniqueKeysWithValues: try seeds("json-document").map { ($0.name, $0.bytes) })
    #expect(names.count >= 5 && names == corpus.keys.sorted())
    for name in names {
      let source = Array(try Data(contentsOf: URL(fileURLWithPath: "\(directory)/\(name)")))
      let seed = try #require(JSONDocumentOptions.seed(fromSource: source), "\(name): its header encodes to no option bytes")
      #expect(corpus[name] == seed, "Corpus/json-document/\(name) is not what its source writes (Tests/Fuzz/fuzz.sh seeds)")
      let newline = try #require(source.firstIndex(of: 0x0A))
      let header = try #require(JSONDocumentOptions(header: try JSONParser().parse(Array(source[..<newline]))))
      let (options, payload) = decoded(seed, JSONDocumentOptions.init)
      #expect(options == header, "\(name)")
      #expect(payload == Array(source[(newline + 1)...]), "\(name)")
    }
  }

  /// Each document gives the json reader records; one named `broken…` is
  /// refused by the parser and the tokenizer alike, at the same place.
  @Test func jsonDocumentSeedsReachRecords() throws {
    for (name, bytes) in try seeds("json-document") {
      let (options, document) = decoded(bytes, JSONDocumentOptions.init)
      let format = try #require(SourceFormatRegistry.standard["json"])
      let reader = try format.makeReader(input: .bytes(document), options: options.sourceOptions)
      var records = 0
      var failure: (any Error)?
      do {
        _ = try reader.read { event in
          if case .record = event { records += 1 }
        }
      } catch {
        failure = error
      }
      if name.hasPrefix("broken") {
        #expect(failure is SourceError, "\(name)")
        #expect(throws: JSONParseError.self) { try JSONParser(maxDepth: options.maxDepth).parse(document) }
      } else {
        #expect(failure == nil && records > 0, "\(name): \(records) records, \(String(describing: failure))")
      }
    }
  }

  // MARK: blobs

  @Test func blobReaderSeedsAreBlobsForTheReadTheyName() throws {
    for (name, bytes) in try seeds("blob-reader") {
      let (options, blob) = decoded(bytes, BlobReaderOptions.init)
      if name.hasPrefix("read"), let digit = name.dropFirst(4).first?.wholeNumberValue {
        #expect(options.read.rawValue == UInt8(digit), "\(name)")
      }
      #expect(throws: Never.self, "\(name)") { try BlobReader(bytes: blob).verify() }
    }
  }

  @Test func providerLoaderSeedsAreBlobs() throws {
    for (name, bytes) in try seeds("provider-loader") {
      let (options, blob) = decoded(bytes, ProviderLoaderOptions.init)
      #expect(options.replaces == name.contains("replace"), "\(name)")
      #expect(throws: Never.self, "\(name)") { try BlobReader(bytes: blob).verify() }
    }
  }

  @Test func datasetValidatorSeedsAreListsOrBlobs() throws {
    for (name, bytes) in try seeds("dataset-validator") {
      let (options, input) = decoded(bytes, DatasetValidatorOptions.init)
      let validator = DatasetValidator(
        options: ValidationOptions(
          maxReported: options.maxReported, maxLineLength: options.maxLineLength,
          reportsControlCharacters: options.reportsControlCharacters, recomputesDigest: options.recomputesDigest))
      let summary = try validator.validate(bytes: input, report: { _ in })
      // A blob by its magic, read as one; a text list gives entries or errors.
      if name.hasSuffix(".cdir") {
        #expect(Array(input.prefix(4)) == Array("CDIR".utf8) && summary.format != .text, "\(name)")
      } else {
        #expect(name.hasSuffix(".txt") && summary.format == .text, "\(name)")
        #expect(summary.entries > 0 || summary.errorCount > 0, "\(name)")
      }
    }
  }

  @Test func blobWriterSeedsWriteNumbers() throws {
    for (name, bytes) in try seeds("blob-writer") {
      let (input, _) = decoded(bytes, BlobWriterInput.init)
      #expect(input.numbers.count > 100, "\(name): \(input.numbers.count) numbers")
      #expect(zip(input.numbers, input.numbers.dropFirst()).allSatisfy { $0 < $1 }, "\(name)")
    }
  }

  // MARK: text parsers

  /// Each document parses; one named `out-of-range…` is refused for a
  /// number past Double's range (and nothing before it).
  @Test func jsonParserSeedsParse() throws {
    for (name, bytes) in try seeds("json-parser") {
      let (options, document) = decoded(bytes, JSONParserOptions.init)
      let parser = JSONParser(maxDepth: options.maxDepth)
      if name.hasPrefix("out-of-range") {
        #expect(throws: JSONParseError.self, "\(name)") { try parser.parse(document) }
      } else {
        #expect(throws: Never.self, "\(name)") { try parser.parse(document) }
      }
    }
  }

  /// Each config parses; a seed named `typo…` or `refused-…` is refused by
  /// the config parser (a misspelt key, a value it refuses), past reading
  /// the JSON.
  @Test func buildConfigSeedsParse() throws {
    for (name, bytes) in try seeds("build-config") {
      let (input, _) = decoded(bytes, BuildConfigInput.init)
      #expect(try JSONParser().parse(input.text).objectValue != nil, "\(name)")
      if name.hasPrefix("typo") || name.hasPrefix("refused-") {
        #expect(throws: ConfigError.self, "\(name)") { try BuildConfig.parse(input.text, baseDirectory: "/fuzz/config") }
      } else {
        let config = try BuildConfig.parse(input.text, baseDirectory: "/fuzz/config")
        #expect(!config.sources.isEmpty, "\(name)")
      }
    }
  }

  @Test func syncManifestSeedsParse() throws {
    let directory = try FileManager.default.url(
      for: .itemReplacementDirectory, in: .userDomainMask, appropriateFor: URL(fileURLWithPath: NSTemporaryDirectory()),
      create: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    for (name, bytes) in try seeds("sync-manifest") {
      let (input, _) = decoded(bytes, SyncManifestInput.init)
      #expect(throws: Never.self, "\(name)") { try Manifest(parsing: input.manifest) }
      #expect(input.state.isEmpty == name.contains("without-state") || !name.contains("state"), "\(name)")
      if name.contains("with-state") {
        let path = directory.appendingPathComponent("\(name).state").path
        try Data(input.state).write(to: URL(fileURLWithPath: path))
        #expect(try SyncStateStore(path: path).load() != nil, "\(name)")
      }
    }
  }

  @Test func protobufSeedsDecodeAsTheMessageTheyName() throws {
    for (name, bytes) in try seeds("protobuf-decoder") {
      let (options, message) = decoded(bytes, ProtobufDecoderOptions.init)
      if name.hasPrefix("keyword-database") {
        #expect(options.message == .keywordDatabase, "\(name)")
        #expect(try !KeywordDatabase.decode(message).isEmpty, "\(name)")
      } else {
        #expect(name.hasPrefix("call-identity") && options.message == .callIdentity, "\(name)")
        #expect(throws: Never.self, "\(name)") { try CallIdentity(decoding: message) }
      }
    }
  }

  @Test func wireSeedsDecodeToRecords() throws {
    for (name, bytes) in try seeds("wire-decoder") {
      let (options, stream) = decoded(bytes, WireDecoderOptions.init)
      #expect(options.splits.allSatisfy { $0 < stream.count }, "\(name): splits \(options.splits)")
      #expect(!_WireFuzzing.decode(stream, splittingAt: []).records.isEmpty, "\(name)")
    }
  }

  /// Each text's first line is a number in the seed's region; a seed named
  /// `national-prefix-XX` is in region XX.
  @Test func normalizerSeedsAreNumbersOfTheirRegion() throws {
    let normalizer = PhoneNumberNormalizer()
    for (name, bytes) in try seeds("normalizer") {
      let (options, text) = decoded(bytes, NormalizerOptions.init)
      if name.hasPrefix("national-prefix-") {
        #expect(options.regionCode == name.dropFirst("national-prefix-".count).uppercased(), "\(name)")
      }
      let line = String(decoding: text.prefix { $0 != 0x0A && $0 != 0x0D }, as: UTF8.self)
      let region = options.regionCode.flatMap { normalizer.plan.region($0) }
      guard case .success = normalizer.normalize(line, region: region) else {
        Issue.record("\(name): \(line) is no number in \(options.regionCode ?? "no region")")
        continue
      }
    }
  }
}
