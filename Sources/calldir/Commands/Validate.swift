import CalldirSystem
import CallDirectoryValidation
import CommandLineKit

extension Calldir {
  /// `calldir validate`: what CallKit would reject in a text list or a blob.
  struct Validate: RunnableCommand {
    static let configuration = CommandConfiguration(
      name: "validate",
      abstract: "Check a text list or blob for entries CallKit would reject.",
      discussion: """
        FILE is a calldir blob (full snapshot or delta, detected by its CDIR magic) or text with \
        one entry per line (LF or CRLF): `number` is a blocking entry, `number<TAB>label` an \
        identification entry; lines starting with # are comments; empty lines are allowed only at \
        the end.

        Numbers are digits only, country code first, no + or leading zero, in \
        1...9223372036854775806; each list must be strictly ascending. Violations go to standard \
        output as `FILE:LINE: error: ...` (blobs: `FILE:entry N (SECTION): error: ...`), then \
        notes and a summary line.

        FILE is read once, front to back, so a FIFO or a pipe works like a file: `-` (or \
        /dev/stdin) reads standard input.

        A blob is read at random offsets, so one that is not a regular file is first copied to an \
        unlinked temporary file in $TMPDIR (else /tmp), up to 256 MiB (a larger one exits 65: pass \
        it as a regular file); memory stays flat.
        """,
      exitStatuses: [
        .init(.success, "Valid (warnings allowed)."),
        .init(.failure, "Violations were found."),
        .init(.dataError, "A corrupt blob, or one over 256 MiB read from a pipe."),
        .init(.noInput, "FILE cannot be opened, or is a directory or a symbolic link loop."),
        .init(.cantCreate, "A blob read from a pipe cannot be copied to a temporary file."),
        .init(.ioError, "Reading failed."),
      ],
      examples: [
        .init("Check a hand-made list before loading it.", "calldir validate list.txt"),
        .init("Check a blob read from a pipe, as JSON.", "curl -s https://example.org/v3.cdir | calldir validate --json -"),
      ],
      seeAlso: [
        .init("inspect, diff and validate in detail", "reference/blobs.md"),
      ]
    )

    @Argument(name: "file", help: "A calldir blob or a text list; - for standard input.")
    var path: String
    @Flag(.json, help: "Print one JSON object instead of diagnostics.")
    var json: Bool
    @Option(
      valueName: "n", help: "Report at most this many violations, 0 for all; counting continues.", range: 0...,
      outOfRange: { "--max-errors must be 0 (report all) or more, not \($0)" })
    var maxErrors = 20

    func run(context: CommandContext) throws {
      let output = context.standardOutput
      let writer = ValidationReportWriter(name: path == "-" ? "<stdin>" : path, style: json ? .json : .text) { output.write($0) }
      let validator = DatasetValidator(options: ValidationOptions(maxReported: maxErrors == 0 ? nil : maxErrors))
      let summary: ValidationSummary
      if path == "-" {
        summary = try validator.validate(descriptor: .standardInput, name: "<stdin>") { writer.write($0) }
      } else {
        summary = try validator.validate(path: path) { writer.write($0) }
      }
      writer.finish(summary)
      if !summary.isValid { throw ExitCode.failure }
    }
  }
}

