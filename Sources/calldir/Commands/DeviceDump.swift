import CallKitMock
import CommandLineKit

extension Calldir.Device {
  /// `calldir device dump`: every entry the device holds.
  struct Dump: RunnableCommand {
    static let configuration = CommandConfiguration(
      name: "dump",
      abstract: "Print every entry a simulated device holds, as TSV.",
      discussion: """
        Same layout as `calldir inspect --entries` of a full snapshot: every `block<TAB>number` \
        line, then every `identify<TAB>number<TAB>label` line, each ascending across all \
        extensions (merged in constant memory; a number held by two extensions is printed once per \
        extension).
        """,
      exitStatuses: [
        .init(.success, "The entries are printed."),
        .init(.noInput, "DIR is not a device (nothing is written there)."),
        .init(.ioError, "The device cannot be read."),
      ],
      examples: [
        .init("Count the blocked numbers a device holds.", "calldir device dump --device out/phone | grep -c \"^block\""),
      ],
      seeAlso: [
        .init("The device commands in detail", "reference/device.md"),
      ]
    )

    @Option(.device)
    var devicePath: String

    func run(context: CommandContext) throws {
      let device = try DeviceSupport.openExisting(devicePath)
      let identifiers = try DeviceSupport.extensions(of: device)
      let output = context.standardOutput
      // A reader that goes away (`dump | head`) ends the merge quietly.
      try device.forEachMergedEntry(
        inExtensionsWithIdentifiers: identifiers, while: { output.isWritable },
        blocking: { number in
          output.write("block\t")
          output.write(String(number))
          output.write("\n")
        },
        identification: { entry in
          output.write("identify\t")
          output.write(String(entry.number))
          output.write("\t")
          output.write(entry.label)
          output.write("\n")
        })
    }
  }
}
