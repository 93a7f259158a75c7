import CallDirectoryCompiler
import CallDirectoryStore
import CallDirectoryFormat
import CalldirSystem
import CommandLineKit

extension Calldir {
  /// `calldir diff`: the delta between two full snapshots.
  struct Diff: RunnableCommand {
    static let configuration = CommandConfiguration(
      name: "diff",
      abstract: "Write the incremental delta between two full snapshots.",
      discussion: """
        OLD and NEW are full snapshot blobs, or version numbers of a store with --store. The delta \
        holds blocking removes and adds and identification removes and adds, each ascending; a \
        changed label is a remove plus an add. It names its base and target versions and content \
        digests, so a loader refuses it on any other base.

        Identical snapshots give an empty delta. With --store, a store without a catalog or a \
        version it has not published exits 66; a read-only store can be read.
        """,
      exitStatuses: [
        .init(.success, "The delta is written."),
        .init(.usage, "Bad arguments (with --store, OLD and NEW must be version numbers)."),
        .init(.dataError, "A blob is corrupt, or not a full snapshot."),
        .init(.noInput, "A blob is missing; with --store, a store without a catalog or a version it has not published."),
        .init(.cantCreate, "The output cannot be created, or lies inside the store."),
        .init(.ioError, "Reading or writing failed."),
      ],
      examples: [
        .init("The delta between two snapshot files.", "calldir diff v1.cdir v2.cdir --output v1-v2.cdelta"),
        .init("The delta between versions 2 and 5 of a store.", "calldir diff --store out/store 2 5 --output 2-5.cdelta"),
      ],
      seeAlso: [
        .init("inspect, diff and validate in detail", "reference/blobs.md"),
      ]
    )

    @Argument(help: "The base: a full snapshot blob, or a version with --store.")
    var old: String
    @Argument(help: "The target: a full snapshot blob, or a version with --store.")
    var new: String
    @Option(short: "o", valueName: "file", help: "Where to write the delta blob.")
    var output: String
    @Option(.store, help: "Read OLD and NEW as versions of this store.")
    var store: String?
    @Flag(.json, help: "Print the counts as one JSON object.")
    var json: Bool

    func validate() throws {
      guard store != nil else { return }
      for argument in [old, new] where Self.version(argument) == nil {
        throw UsageError.invalid("'\(argument)' is not a version number (with --store, OLD and NEW are versions)")
      }
    }

    func run(context: CommandContext) throws {
      let summary: SnapshotDiffer.Summary
      let published = try store.map { try PublishedVersions(store: StoreLayout(root: $0)) }
      let inputs = [try resolve(old, in: published), try resolve(new, in: published)]
      try checkOutput(against: inputs)
      let oldReader = try BlobReader(path: inputs[0])
      let newReader = try BlobReader(path: inputs[1])
      summary = try SnapshotDiffer.writeDelta(from: oldReader, to: newReader, path: output)
      if json {
        context.standardOutput.writeJSONLine(WrittenDelta(summary: summary, output: output))
      } else if context.standardOutput.isTerminal {
        context.standardOutput.writeLine(
          "wrote \(output) (\(summary.bytes) bytes): blocking +\(summary.blockingAdded) -\(summary.blockingRemoved), "
            + "identification +\(summary.identificationAdded) -\(summary.identificationRemoved) "
            + "(\(summary.relabeled) relabeled)")
      }
    }

    /// Refuses an output that would replace an input, land among the
    /// published files of the `--store` store, replace something that is
    /// not a regular file, or go into a directory that is not there (exit
    /// 73, before any input is read).
    private func checkOutput(against inputs: [String]) throws {
      if let store, FileSystem.isWithin(output, directory: store) {
        throw CommandFailure(.cantCreate, "\(output) is inside the store \(store); refusing to write a delta among its files")
      }
      if FileSystem.holdsNonRegularFile(output) {
        throw CommandFailure(.cantCreate, "\(output) exists and is not a regular file; refusing to replace it")
      }
      let directory = FileSystem.directoryName(of: output)
      guard (try? FileSystem.status(directory))?.kind == .directory else {
        throw CommandFailure(.cantCreate, "cannot create \(output): \(directory) is not a directory")
      }
      guard let written = try? FileSystem.status(output) else { return }
      for input in inputs {
        guard let read = try? FileSystem.status(input), read.device == written.device, read.inode == written.inode
        else { continue }
        throw CommandFailure(.cantCreate, "--output \(output) is the input \(input); refusing to replace it")
      }
    }

    /// The store named by --store, with its catalog open for reading.
    private struct PublishedVersions {
      let store: StoreLayout
      let catalog: Catalog

      init(store: StoreLayout) throws {
        self.store = store
        catalog = try Catalog.openForReading(store)
      }
    }

    /// A blob path, or with --store the path of a published version.
    private func resolve(_ argument: String, in published: PublishedVersions?) throws -> String {
      guard let published, let version = Self.version(argument) else { return argument }
      guard let record = try published.catalog.snapshot(version: version) else {
        throw CommandFailure(.noInput, "version \(version) is not published in \(published.store.root)")
      }
      if let pruned = record.prunedAt {
        throw CommandFailure(.dataError, "version \(version) was pruned at \(pruned): its snapshot is gone")
      }
      let path = published.store.path(record.path)
      // The file must be the version the catalog recorded (a replaced
      // file is reported, never used).
      let header = try BlobReader.readHeader(path: path)
      guard header.version == UInt64(record.version), header.contentDigest.hex == record.digest else {
        throw StoreError.fileMismatch(
          path: path, problem: "its header names version \(header.version) with digest \(header.contentDigest.hex)")
      }
      return path
    }

    /// A positive version number, or nil.
    private static func version(_ argument: String) -> Int? {
      guard let version = Int(argument), version > 0 else { return nil }
      return version
    }
  }
}
