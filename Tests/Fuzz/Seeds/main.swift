// Writes the generated seeds of Tests/Fuzz/Corpus (`Tests/Fuzz/fuzz.sh
// seeds`): blobs written by the format's own writers, normalizer inputs
// for a few regions, device wire streams encoded by the protocol's rules,
// and the source-readers, xml-document and json-document seeds from their
// sources in Tests/Fuzz/Seeds/source-readers, Tests/Fuzz/Seeds/xml-document
// and Tests/Fuzz/Seeds/json-document (a
// readable header of options, then the payload). Each seed starts with its harness's option bytes, encoded by
// the harness's own option code (Tests/Fuzz/Options). The other text seeds
// (configs, JSON, validator lists) are files copied from data/sample or
// written by hand, and the version 1 blobs come from
// Tests/CallDirectoryFormatTests/Fixtures. FuzzCorpusTests checks every
// seed against its harness's option decoding.
import CallDirectoryFormat
import CalldirSystem
import Glibc
import PhoneNumbers

let corpus = CommandLine.arguments.count > 1 ? CommandLine.arguments[1] : "Tests/Fuzz/Corpus"

func save(_ bytes: [UInt8], _ harness: String, _ name: String) throws {
  try AtomicFile.write(bytes, to: "\(corpus)/\(harness)/\(name)")
}

/// Blocking numbers with the three block kinds: sparse (Elias–Fano),
/// dense (bitmap) and consecutive (a run).
let sparse = (0..<120).map { 12_125_550_100 + Int64($0) * 37 }
let dense = (0..<300).map { 33_162_000_000 + Int64($0) * 2 }
let run = Array(Int64(33_163_000_000)...33_163_000_999)
let labels = ["Spam", "🚫 démarchage", "Bank, Fraud Team", "Pizza \u{200E}Place"]
let identified = (0..<40).map { IdentificationEntry(number: 14_155_550_100 + Int64($0) * 3, label: labels[$0 % 4]) }
  + (0..<10).map { IdentificationEntry(number: 33_612_000_000 + Int64($0), label: "Spam") }

func full(version: UInt64, blocking: [Int64], identification: [IdentificationEntry], dataset: String) throws -> [UInt8] {
  let sink = MemoryBlobSink()
  let names = Array(Set(identification.map(\.label))).sorted()
  let writer = try FullSnapshotWriter(sink: sink, version: version, labels: names, dataset: dataset)
  for number in blocking { try writer.appendBlocking(number) }
  for entry in identification {
    try writer.appendIdentification(entry.number, labelID: UInt32(names.firstIndex(of: entry.label) ?? 0))
  }
  _ = try writer.finish()
  return sink.bytes
}

let base = Snapshot(version: 6, blocking: sparse + dense, identification: Array(identified.prefix(30)))
let target = Snapshot(
  version: 7, blocking: Array(sparse.dropFirst(10)) + dense + run, identification: Array(identified.dropFirst(5)))
let blobs: [(String, [UInt8])] = [
  ("full-v2.cdir", try full(version: 7, blocking: target.blocking, identification: target.identification, dataset: "com.example.calldir")),
  ("delta-v2.cdir", try SnapshotDelta(from: base, to: target).encoded()),
  ("shard-v2.cdir", try full(
    version: 7, blocking: dense + run, identification: Array(identified.suffix(10)), dataset: "com.example.calldir")),
  ("empty-v2.cdir", try Snapshot(version: 1).encoded()),
]
for (name, blob) in blobs {
  for read in BlobReaderOptions.Read.allCases {
    let options = BlobReaderOptions(reseals: true, recomputesDigest: true, read: read)
    try save(options.bytes + blob, "blob-reader", "read\(read.rawValue)-\(name)")
  }
  try save(ProviderLoaderOptions(reseals: true, verifiesDigest: true, batchSize: 8).bytes + blob, "provider-loader", name)
  let validating = DatasetValidatorOptions(maxReported: 20, recomputesDigest: true)
  try save(validating.bytes + blob, "dataset-validator", name)
}
let replacing = ProviderLoaderOptions(reseals: true, replaces: true, verifiesDigest: true, batchSize: 1)
try save(replacing.bytes + blobs[0].1, "provider-loader", "full-v2-replace.cdir")

let numbers: [(String, String)] = [
  ("US", "(212) 555-0100"), ("US", "+1 212 555 0100 ext. 12"), ("GB", "020 7946 0018"),
  ("GB", "+44 (0)20 7946 0999"), ("FR", "01 62 00 00 42"), ("DE", "0049 30 1234567"),
  ("AR", "011 15-2345-6789"), ("BR", "(11) 91234-5678"), ("US", "1-800-FLOWERS"),
  ("JP", "０３−１２３４−５６７８"), ("ZZ", "+33 1 62 00 00 42"), ("US", "tel:+1-212-555-0100;ext=7"),
]
for (index, (code, text)) in numbers.enumerated() {
  guard let options = NormalizerOptions(regionCode: code == "ZZ" ? nil : code) else { fatalError("no region \(code)") }
  try save(options.bytes + Array(text.utf8), "normalizer", "number-\(index)")
}

/// Wire records (tags of _WireProtocol.swift): numbers are zigzag varint
/// deltas from the previous number of the same operation, strings a varint
/// length and UTF-8.
var wire = Array("CKMP".utf8) + [1, 0, 1]
var previous = [Int64](repeating: 0, count: 4)
func number(_ tag: UInt8, _ slot: Int, _ value: Int64) {
  wire.append(tag)
  Varint.append(Varint.zigZag(value &- previous[slot]), to: &wire)
  previous[slot] = value
}
func string(_ text: String) {
  Varint.append(UInt64(text.utf8.count), to: &wire)
  wire += Array(text.utf8)
}
for value in [Int64(4), 5, 900, 12_125_550_100] { number(2, 0, value) }
number(3, 1, 33_612_345_678)
string("⚠️ spam")
number(4, 2, 7)
number(5, 3, Int64.max)
wire += [6, 7, 8]
try save(WireDecoderOptions(splits: []).bytes! + wire, "wire-decoder", "operations")
wire = Array("CKMP".utf8) + [1, 0, 9]
string("CallDirectoryHandler")
Varint.append(Varint.zigZag(-2), to: &wire)
string("nope")
try save(WireDecoderOptions(splits: [2, 7, 16]).bytes! + wire, "wire-decoder", "cancel-split")

/// The source-readers seeds, from their sources: a header line naming the
/// options (`SourceReadersOptions(header:)`), then the payload.
let seedSources = "Tests/Fuzz/Seeds/source-readers"
for name in try FileSystem.contentsOfDirectory(seedSources) {
  guard let seed = SourceReadersOptions.seed(fromSource: try FileSystem.contents(of: "\(seedSources)/\(name)")) else {
    fatalError("\(seedSources)/\(name): its header names no options the harness decodes")
  }
  try save(seed, "source-readers", name)
}

/// The xml-document seeds, from their sources: a header line naming the
/// options (`XMLDocumentOptions(header:)`), then the document.
let xmlSeedSources = "Tests/Fuzz/Seeds/xml-document"
for name in try FileSystem.contentsOfDirectory(xmlSeedSources) {
  guard let seed = XMLDocumentOptions.seed(fromSource: try FileSystem.contents(of: "\(xmlSeedSources)/\(name)")) else {
    fatalError("\(xmlSeedSources)/\(name): its header names no options the harness decodes")
  }
  try save(seed, "xml-document", name)
}

/// The json-document seeds, from their sources: a header line naming the
/// options (`JSONDocumentOptions(header:)`), then the document.
let documentSources = "Tests/Fuzz/Seeds/json-document"
for name in try FileSystem.contentsOfDirectory(documentSources) {
  guard let seed = JSONDocumentOptions.seed(fromSource: try FileSystem.contents(of: "\(documentSources)/\(name)")) else {
    fatalError("\(documentSources)/\(name): its header names no options the harness decodes")
  }
  try save(seed, "json-document", name)
}
