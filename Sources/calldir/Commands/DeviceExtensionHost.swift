import CallDirectoryProvider
import CallKitMock
import CalldirDevice
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

    @Flag(.allowDowngrade, help: "Let the request load an older version than the held one.")
    var allowsDowngrade: Bool

    func run(context: CommandContext) throws {
      let options = CallDirectoryLoader.Options(allowsDowngrade: allowsDowngrade)
      let status = CallDirectoryExtensionProcess.run { CalldirCallDirectoryProvider(options: options) }
      if status != 0 { throw ExitCode(rawValue: status) ?? .failure }
    }
  }
}
