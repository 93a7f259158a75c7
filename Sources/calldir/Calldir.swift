import CommandLineKit

/// The root command.
enum Calldir: Command {
  static let version = "0.1.0"

  static let configuration = CommandConfiguration(
    name: "calldir",
    abstract: "Compile, diff, validate and load iOS Call Directory datasets.",
    discussion: """
      calldir turns block lists, caller-ID lists and allowlists into the sorted \
      CXCallDirectoryPhoneNumber entries a CallKit Call Directory extension loads, \
      publishes them as compact versioned blobs with incremental deltas, and \
      simulates the device side.

      Start with 'calldir help build'. Every command's full reference, the config reference \
      and guides are under docs/ in the sources (docs/README.md lists them); 'man calldir' \
      after 'make install'.
      """,
    version: "calldir \(version)",
    subcommands: [
      Normalize.self, Build.self, Explain.self, Inspect.self, Diff.self, Validate.self, History.self, Report.self,
      Repair.self, Prune.self, Keygen.self, Export.self, Device.self, Docs.self,
    ],
    exitStatuses: [
      .init(.success, "Success."),
      .init(.failure, "Violations found (validate), or a CallKit error (device)."),
      .init(.usage, "The command line is wrong."),
      .init(.dataError, "Bad input data: a refused build, a corrupt blob, a bad signature, a damaged catalog."),
      .init(.noInput, "An input file, store, version or device does not exist."),
      .init(.software, "An internal error."),
      .init(.cantCreate, "An output file cannot be created."),
      .init(.ioError, "Reading or writing failed (a full disk, the network)."),
      .init(.tempFail, "Try again: the store is locked, or its catalog is held by another process."),
    ],
    examples: [
      .init("Compile a config into a store, then list its versions.", "calldir build --config calldir.json --store out/store && calldir history --store out/store"),
      .init("Install bash completion for the current user.", "calldir --generate-completion-script bash > ~/.local/share/bash-completion/completions/calldir"),
    ]
  )
}
