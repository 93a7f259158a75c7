import CallKitMock
import CommandLineKit

extension Calldir.Device {
  /// `calldir device _extension`: the extension process `device load`
  /// spawns. Not for direct use.
  struct ExtensionHost: RunnableCommand {
    static let configuration = CommandConfiguration(
      name: "_extension",
      abstract: "Internal: serve one request as an extension process (spawned by 'device load').",
      discussion: """
        Runs calldir's provider for the request the simulated system passes through the \
        environment and inherited descriptors. Run directly, it exits 64.
        """,
      isHidden: true
    )

    init(arguments: ParsedArguments) throws {}

    func run(context: CommandContext) throws {
      let status = CallDirectoryExtensionProcess.run { CalldirCallDirectoryProvider() }
      if status != 0 { throw ExitCode(rawValue: status) ?? .failure }
    }
  }
}
