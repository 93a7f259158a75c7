import CalldirSystem
import CommandLineKit

extension Calldir {
  /// `calldir _docs`: writes the documentation generated from the command
  /// definitions and the config schema (what `make docs` runs; hidden).
  struct Docs: RunnableCommand {
    static let configuration = CommandConfiguration(
      name: "_docs",
      abstract: "Write the generated documentation: command pages, the config reference, the manual page.",
      discussion: """
        Writes OUTPUT/reference/commands/calldir*.md (one page per command, from the \
        command definitions; pages of commands that no longer exist are removed), \
        OUTPUT/reference/config.md (from the config schema) and OUTPUT/man/calldir.1. \
        `make docs` runs it with --output docs; a test fails when the committed files differ.
        """,
      isHidden: true,
      exitStatuses: [
        .init(.success, "The files are written."),
        .init(.dataError, "The schema is not valid JSON."),
        .init(.noInput, "The schema cannot be read."),
        .init(.cantCreate, "A file or folder cannot be written."),
      ]
    )

    @Option(valueName: "dir", help: "The documentation folder (docs).")
    var output: String
    @Option(valueName: "file", help: "The config schema the config reference is generated from.")
    var schema = "schemas/config.schema.json"

    func run(context: CommandContext) throws {
      let bytes = try FileSystem.contents(of: schema, requiringRegularFile: true)
      let parsed: JSONValue
      do {
        parsed = try JSONParser.parse(bytes)
      } catch {
        throw CommandFailure(.dataError, "\(schema):\(error.description)")
      }
      var files = Self.files(schema: parsed, schemaPath: schema)
      let commands = output + "/reference/commands"
      do {
        try FileSystem.createDirectory(commands)
        try FileSystem.createDirectory(output + "/man")
        let current = Set(files.map(\.path))
        for name in try FileSystem.contentsOfDirectory(commands)
        where name.hasPrefix("calldir") && name.hasSuffix(".md") && !current.contains("reference/commands/" + name) {
          try FileSystem.removeFile(commands + "/" + name)
        }
        files.sort { $0.path < $1.path }
        for file in files {
          try AtomicFile.write(Array(file.text.utf8), to: output + "/" + file.path)
        }
      } catch {
        throw error.writingFailure
      }
      context.standardOutput.writeLine("wrote \(files.count) files under \(output)")
    }

    /// Every generated file, by its path under the documentation folder.
    static func files(schema: JSONValue, schemaPath: String) -> [(path: String, text: String)] {
      var files = CommandLineTool.referencePages(root: Calldir.self).map {
        (path: "reference/commands/" + $0.fileName, text: $0.text)
      }
      files.append((path: "reference/config.md", text: ConfigReference.page(schema, schemaPath: schemaPath)))
      files.append((path: "man/calldir.1", text: CommandLineTool.manual(root: Calldir.self)))
      return files
    }
  }
}
