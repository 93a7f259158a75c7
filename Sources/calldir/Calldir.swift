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
      """,
    version: "calldir \(version)",
    subcommands: [
      Normalize.self, Build.self, Explain.self, Inspect.self, Diff.self, Validate.self, History.self, Report.self,
      Repair.self, Prune.self, Keygen.self, Export.self, Device.self,
    ]
  )
}
