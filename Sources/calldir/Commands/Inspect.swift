import CalldirSystem
import CallDirectoryFormat
import CommandLineKit

extension Calldir {
  /// `calldir inspect`: what a blob holds.
  struct Inspect: RunnableCommand {
    static let configuration = CommandConfiguration(
      name: "inspect",
      abstract: "Show a blob's header, counts, digest and checksum status, or its entries.",
      discussion: """
        Verifies every checksum and the content digest (exit 65 when the blob is corrupt), run by \
        run: a run of consecutive numbers costs O(1) however long (identification runs are hashed \
        entry by entry, as the digest defines them). FILE must be a regular file: a directory, a \
        symbolic link loop, a FIFO or a pipe exits 66.

        With --entries, prints every entry as TSV: for a full snapshot `block<TAB>number` lines, \
        then `identify<TAB>number<TAB>label` lines, each ascending; for a delta `-block`, \
        `+block`, `-identify`, `+identify` lines, removes before adds.
        """,
      exitStatuses: [
        .init(.success, "The blob is intact."),
        .init(.dataError, "The blob is corrupt (a checksum or the digest does not match)."),
        .init(.noInput, "FILE is missing, or not a regular file."),
        .init(.ioError, "Reading failed."),
      ],
      examples: [
        .init("Show a snapshot's header and counts.", "calldir inspect out/store/snapshots/v3.cdir"),
        .init("List its entries as TSV.", "calldir inspect --entries out/store/snapshots/v3.cdir"),
      ],
      seeAlso: [
        .init("inspect, diff and validate in detail", "reference/blobs.md"),
      ]
    )

    @Argument(name: "file", help: "A calldir blob (full snapshot or delta).")
    var path: String
    @Flag(.json, help: "Print the header as one JSON object (\"dataset\" is \"\" when the blob names none).")
    var json: Bool
    @Flag(help: "Print every entry as TSV instead of the header.")
    var entries: Bool

    func run(context: CommandContext) throws {
      let reader = try BlobReader(path: path)
      if entries {
        // Entries only from a blob that verifies whole (checksums and
        // content digest): a damaged one prints nothing, exit 65.
        try reader.verify(recomputingDigest: true)
        try BlobEntries.write(reader, to: context.standardOutput)
        return
      }
      let verification = try reader.verify(recomputingDigest: true)
      let header = verification.header
      if json {
        context.standardOutput.writeJSONLine(InspectedBlob(header: header, path: path, labels: reader.labelCount))
      } else {
        Self.describe(header, path: path, labels: reader.labelCount, to: context.standardOutput)
      }
    }

    static func describe(_ header: BlobHeader, path: String, labels: Int, to output: any OutputSink) {
      output.writeLine("file: \(path)")
      output.writeLine("format: calldir blob version \(header.formatVersion)")
      if !header.dataset.isEmpty { output.writeLine("dataset: \(header.dataset)") }
      switch header.kind {
      case .full:
        output.writeLine("kind: full snapshot, version \(header.version)")
      case .delta:
        output.writeLine("kind: delta from version \(header.baseVersion) to version \(header.version)")
        output.writeLine("base digest: \(header.baseDigest.hex)")
      }
      output.writeLine("digest: \(header.contentDigest.hex)")
      output.writeLine("bytes: \(header.fileSize)")
      for section in header.kind.sectionOrder where section != .labels {
        output.writeLine("\(section): \(header.entryCount(section))")
      }
      output.writeLine("labels: \(labels)")
      output.writeLine("checksums: ok")
    }
  }
}

/// Prints a blob's entries in the TSV layout `inspect --entries` and
/// `device dump` share.
enum BlobEntries {
  static func write(_ reader: BlobReader, to output: any OutputSink) throws {
    switch reader.header.kind {
    case .full:
      try numbers(try reader.blocking(), prefix: "block\t", to: output)
      try labeled(try reader.identification(), reader: reader, prefix: "identify\t", to: output)
    case .delta:
      try numbers(try reader.blockingRemoves(), prefix: "-block\t", to: output)
      try numbers(try reader.blockingAdds(), prefix: "+block\t", to: output)
      try numbers(try reader.identificationRemoves(), prefix: "-identify\t", to: output)
      try labeled(try reader.identificationAdds(), reader: reader, prefix: "+identify\t", to: output)
    }
  }

  private static func numbers(_ iterator: NumberIterator, prefix: String, to output: any OutputSink) throws {
    while output.isWritable, let chunk = try iterator.nextChunk() {
      switch chunk {
      case .run(let range):
        // Every number of the run is printed, as asked; a closed output stops it.
        for number in range {
          guard output.isWritable else { return }
          line(prefix, number, to: output)
        }
      case .numbers(let numbers):
        for number in numbers { line(prefix, number, to: output) }
      }
    }
  }

  private static func line(_ prefix: String, _ number: Int64, to output: any OutputSink) {
    output.write(prefix)
    output.write(String(number))
    output.write("\n")
  }

  private static func labeled(
    _ iterator: IdentificationIterator, reader: BlobReader, prefix: String, to output: any OutputSink
  ) throws {
    while output.isWritable, let entry = try iterator.next() {
      output.write(prefix)
      output.write(String(entry.number))
      output.write("\t")
      output.write(try reader.label(entry.labelID))
      output.write("\n")
    }
  }
}
