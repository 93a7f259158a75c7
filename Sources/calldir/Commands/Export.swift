import CommandLineKit

extension Calldir {
  /// `calldir export`: a published version in another service's format.
  enum Export: Command {
    static let configuration = CommandConfiguration(
      name: "export",
      abstract: "Export a published version for another service.",
      discussion: """
        live-caller-id writes the inputs of Apple's PIRProcessDatabase for a Live Caller ID Lookup \
        extension (iOS 18): the numbers past the 2,000,000 entries a Call Directory extension \
        holds, served by a PIR server.
        """,
      subcommands: [LiveCallerID.self],
      seeAlso: [
        .init("Live Caller ID Lookup", "guides/live-caller-id.md"),
      ]
    )
  }
}
