import Foundation
import Testing

/// The repository's root, from this file's path.
private let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
  .deletingLastPathComponent()

/// Whether an executable is on `PATH` (bash, zsh, fish, man).
private func installed(_ name: String) -> Bool {
  let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
  return path.split(separator: ":").contains { FileManager.default.isExecutableFile(atPath: "\($0)/\(name)") }
}

/// The generated documentation, the links of the hand-written one, help,
/// completions and the man page, as a user meets them.
@Suite struct DocsTests {
  @Test func committedGeneratedDocsMatchTheBinary() throws {
    let scratch = try TemporaryDirectory()
    let run = try CalldirProcess.run(
      ["_docs", "--output", scratch.path("docs"), "--schema", "schemas/config.schema.json"], in: repositoryRoot)
    #expect(run.status == 0, "\(run.standardError)")
    let generated = scratch.url.appendingPathComponent("docs")
    let committed = repositoryRoot.appendingPathComponent("docs")
    let generatedFiles = try files(under: generated, in: ["reference/commands", "man"]) + ["reference/config.md"]
    let committedFiles = try files(under: committed, in: ["reference/commands", "man"]) + ["reference/config.md"]
    #expect(
      Set(generatedFiles) == Set(committedFiles),
      "docs/ holds other generated files than calldir writes: run `make docs` and commit the result")
    for file in generatedFiles {
      let fresh = try String(contentsOf: generated.appendingPathComponent(file), encoding: .utf8)
      let old = (try? String(contentsOf: committed.appendingPathComponent(file), encoding: .utf8)) ?? ""
      #expect(fresh == old, "docs/\(file) differs from what calldir generates: run `make docs` and commit the result")
    }
  }

  @Test func docsCommandRefusesAMissingOrBrokenSchema() throws {
    let scratch = try TemporaryDirectory()
    let missing = try CalldirProcess.run(["_docs", "--output", scratch.path("d"), "--schema", scratch.path("none.json")])
    #expect(missing.status == 66)
    try scratch.write("bad.json", "{\"a\": \n")
    let broken = try CalldirProcess.run(["_docs", "--output", scratch.path("d"), "--schema", scratch.path("bad.json")])
    #expect(broken.status == 65)
    #expect(broken.standardError.contains("bad.json:"))
  }

  @Test func everyRelativeLinkResolves() throws {
    var pages = ["README.md"]
    pages += try files(under: repositoryRoot, in: ["docs"]).filter { $0.hasSuffix(".md") }.map { "docs/" + $0 }
    var broken: [String] = []
    for page in pages {
      let text = try String(contentsOf: repositoryRoot.appendingPathComponent(page), encoding: .utf8)
      for link in MarkdownLinks.links(in: text) {
        if let problem = MarkdownLinks.problem(link, from: page, root: repositoryRoot) {
          broken.append("\(page): \(link): \(problem)")
        }
      }
    }
    #expect(broken.isEmpty, "\(broken.joined(separator: "\n"))")
    #expect(pages.count > 20)
  }

  @Test func theLinkCheckerFindsBrokenLinksAndAnchors() throws {
    let scratch = try TemporaryDirectory()
    try scratch.write("a.md", "# Title\n\n## Some `code` (here), too\n\n## Some `code` (here), too\n")
    let root = scratch.url
    #expect(MarkdownLinks.problem("a.md", from: "b.md", root: root) == nil)
    #expect(MarkdownLinks.problem("a.md#title", from: "b.md", root: root) == nil)
    #expect(MarkdownLinks.problem("a.md#some-code-here-too-1", from: "b.md", root: root) == nil)
    #expect(MarkdownLinks.problem("a.md#nope", from: "b.md", root: root) != nil)
    #expect(MarkdownLinks.problem("c.md", from: "b.md", root: root) != nil)
    #expect(MarkdownLinks.problem("https://example.org/x", from: "b.md", root: root) == nil)
    #expect(
      MarkdownLinks.links(in: "see [a](x.md) and `[b](y.md)` and\n```\n[c](z.md)\n```\n[d](w.md#k \"t\")")
        == ["x.md", "w.md#k"])
  }

  @Test func readmeIsShortAndOpensWithTheTwoCommands() throws {
    let text = try String(contentsOf: repositoryRoot.appendingPathComponent("README.md"), encoding: .utf8)
    #expect(text.utf8.count <= 12 * 1024)
    let opening = text.split(separator: "\n").prefix(6).joined(separator: "\n")
    #expect(opening.contains("make run"))
    #expect(opening.contains("make test"))
    #expect(text.contains("make deps"))
  }

  @Test func buildHelpHasEverySection() throws {
    for arguments in [["help", "build"], ["build", "--help"]] {
      let run = try CalldirProcess.run(arguments)
      #expect(run.status == 0)
      let text = run.standardOutput
      var position = text.startIndex
      for section in ["OVERVIEW:", "USAGE:", "OPTIONS:", "EXIT STATUS:", "EXAMPLES:"] {
        guard let found = text.range(of: "\n" + section, range: position..<text.endIndex)
          ?? (section == "OVERVIEW:" ? text.range(of: section) : nil)
        else {
          Issue.record("\(section) missing or out of order")
          continue
        }
        position = found.upperBound
      }
      #expect(text.contains("  65                      A guard refused the build"))
      #expect(text.contains("    calldir build --config data/sample/calldir.json --store out/store"))
      for line in text.split(separator: "\n") where !line.hasPrefix("USAGE:") && !line.hasPrefix("    calldir") {
        #expect(line.count <= 80, "\(line)")
      }
    }
  }

  @Test func everyCommandDocumentsItsExitStatuses() throws {
    for command in [
      "normalize", "build", "explain", "inspect", "diff", "validate", "history", "report", "repair", "prune",
      "keygen", "export live-caller-id", "device load", "device sync", "device reset", "device dump",
      "device status",
    ] {
      let run = try CalldirProcess.run(["help"] + command.split(separator: " ").map(String.init))
      #expect(run.status == 0)
      #expect(run.standardOutput.contains("\nEXIT STATUS:\n  0 "), "\(command)")
      #expect(run.standardOutput.contains("\nEXAMPLES:\n"), "\(command)")
    }
  }

  @Test func unknownShellIsAUsageError() throws {
    let run = try CalldirProcess.run(["--generate-completion-script", "tcsh"])
    #expect(run.status == 64)
    #expect(run.standardError.contains("takes one of bash, zsh, fish, not 'tcsh'"))
    let missing = try CalldirProcess.run(["--generate-completion-script"])
    #expect(missing.status == 64)
    let extra = try CalldirProcess.run(["--generate-manual", "x"])
    #expect(extra.status == 64)
  }

  // MARK: completions

  private func script(_ shell: String) throws -> TemporaryDirectory {
    let scratch = try TemporaryDirectory()
    let run = try CalldirProcess.run(["--generate-completion-script", shell])
    #expect(run.status == 0)
    try scratch.write("script", run.standardOutput)
    return scratch
  }

  @Test func bashScriptParses() throws {
    let scratch = try script("bash")
    let check = try CalldirProcess.run(["-n", scratch.path("script")], executable: "/bin/bash")
    #expect(check.status == 0, "\(check.standardError)")
  }

  /// Sources the script in bash, completes `words` (the last one being
  /// completed) in `directory`, and returns COMPREPLY.
  private func complete(_ words: [String], in directory: URL? = nil) throws -> [String] {
    let scratch = try script("bash")
    let quoted = words.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
    let program = """
      source \(scratch.path("script"))
      COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1)
      _calldir
      printf '%s\\n' "${COMPREPLY[@]}"
      """
    let run = try CalldirProcess.run(["-c", program], in: directory, executable: "/bin/bash")
    #expect(run.status == 0, "\(run.standardError)")
    return run.lines.filter { !$0.isEmpty }
  }

  @Test func bashCompletesCommandsSubcommandsOptionsAndPaths() throws {
    #expect(try complete(["calldir", "bu"]) == ["build"])
    #expect(try Set(complete(["calldir", "de"])) == ["device"])
    #expect(try Set(complete(["calldir", "device", ""])) == ["load", "sync", "reset", "dump", "status"])
    #expect(try complete(["calldir", "export", ""]) == ["live-caller-id"])
    #expect(try complete(["calldir", "help", "dev"]) == ["device"])
    #expect(try Set(complete(["calldir", "build", "--dr"])) == ["--dry-run"])
    #expect(try complete(["calldir", "device", "sync", "--allow"]) == ["--allow-downgrade"])
    #expect(try complete(["calldir", "--generate-completion-script", "z"]) == ["zsh"])
    #expect(try !complete(["calldir", "_"]).contains("_docs"))

    let tree = try TemporaryDirectory()
    try tree.write("conf.json", "{}")
    try tree.write("configs/x", "")
    // A path option completes files, a directory option only directories.
    #expect(try Set(complete(["calldir", "build", "--config", "con"], in: tree.url)) == ["conf.json", "configs"])
    #expect(try complete(["calldir", "build", "--store", "con"], in: tree.url) == ["configs"])
    #expect(try complete(["calldir", "inspect", "conf."], in: tree.url) == ["conf.json"])
    // A value that is no path completes nothing.
    #expect(try complete(["calldir", "build", "--memory-limit", ""], in: tree.url) == [])
  }

  @Test(.enabled(if: installed("zsh"))) func zshScriptParses() throws {
    let scratch = try script("zsh")
    let run = try CalldirProcess.run(["zsh", "-n", scratch.path("script")], executable: "/usr/bin/env")
    #expect(run.status == 0, "\(run.standardError)")
  }

  @Test(.enabled(if: installed("fish"))) func fishScriptParses() throws {
    let scratch = try script("fish")
    let run = try CalldirProcess.run(["fish", "--no-execute", scratch.path("script")], executable: "/usr/bin/env")
    #expect(run.status == 0, "\(run.standardError)")
    // Loaded for real, it offers the subcommands of `device`.
    let program = "source \(scratch.path("script")); complete -C 'calldir device '"
    let loaded = try CalldirProcess.run(["fish", "-c", program], executable: "/usr/bin/env")
    #expect(loaded.status == 0, "\(loaded.standardError)")
    let offered = Set(loaded.lines.map { String($0.split(separator: "\t").first ?? "") })
    #expect(offered.isSuperset(of: ["load", "sync", "reset", "dump", "status"]), "\(loaded.standardOutput)")
  }

  @Test(.enabled(if: installed("man") && installed("groff"))) func manPageHasNoWarnings() throws {
    let scratch = try TemporaryDirectory()
    let page = try CalldirProcess.run(["--generate-manual"])
    #expect(page.status == 0)
    try scratch.write("calldir.1", page.standardOutput)
    let run = try CalldirProcess.run(
      ["man", "--warnings", "-l", scratch.path("calldir.1")], executable: "/usr/bin/env",
      environment: ["MANPAGER": "cat", "PAGER": "cat", "MANWIDTH": "80"])
    #expect(run.status == 0)
    #expect(run.standardError == "", "\(run.standardError)")
    for heading in ["NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS", "COMMANDS", "EXIT STATUS"] {
      #expect(run.standardOutput.contains("\n" + heading + "\n"), "\(heading)")
    }
    #expect(run.standardOutput.contains("calldir device sync"))
  }

  @Test(.enabled(if: installed("make"))) func makeInstallAndUninstallHonourPrefixAndDestdir() throws {
    let scratch = try TemporaryDirectory()
    let root = scratch.path("root")
    // `-o build`: the binary under test stands in for the release build.
    let arguments = ["-o", "build", "DESTDIR=\(root)", "PREFIX=/opt/cd", "RELEASE_BIN=\(CalldirProcess.binary.path)"]
    let install = try CalldirProcess.run(["make"] + arguments + ["install"], in: repositoryRoot, executable: "/usr/bin/env")
    #expect(install.status == 0, "\(install.standardError)")
    let installed = [
      "bin/calldir", "share/man/man1/calldir.1", "share/bash-completion/completions/calldir",
      "share/zsh/site-functions/_calldir", "share/fish/vendor_completions.d/calldir.fish",
    ]
    for file in installed {
      #expect(FileManager.default.fileExists(atPath: root + "/opt/cd/" + file), "\(file)")
    }
    let manual = try String(contentsOfFile: root + "/opt/cd/share/man/man1/calldir.1", encoding: .utf8)
    #expect(manual.hasPrefix(".\\\" Generated by 'calldir --generate-manual'"))
    let check = try CalldirProcess.run(
      ["-n", root + "/opt/cd/share/bash-completion/completions/calldir"], executable: "/bin/bash")
    #expect(check.status == 0)
    let uninstall = try CalldirProcess.run(["make"] + arguments + ["uninstall"], in: repositoryRoot, executable: "/usr/bin/env")
    #expect(uninstall.status == 0, "\(uninstall.standardError)")
    for file in installed {
      #expect(!FileManager.default.fileExists(atPath: root + "/opt/cd/" + file), "\(file)")
    }
  }

  /// The relative paths of the files under `subdirectories` of `root`.
  private func files(under root: URL, in subdirectories: [String]) throws -> [String] {
    var result: [String] = []
    for subdirectory in subdirectories {
      let base = root.appendingPathComponent(subdirectory)
      guard let enumerator = FileManager.default.enumerator(atPath: base.path) else { continue }
      while let item = enumerator.nextObject() as? String {
        var isDirectory: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: base.appendingPathComponent(item).path, isDirectory: &isDirectory)
        if exists && !isDirectory.boolValue { result.append(subdirectory + "/" + item) }
      }
    }
    return result.map { $0.hasPrefix("docs/") ? String($0.dropFirst(5)) : $0 }.sorted()
  }
}

/// The links of Markdown text and whether each resolves.
enum MarkdownLinks {
  /// Every inline link target `[text](target)` outside code spans and
  /// fenced blocks, without a title.
  static func links(in text: String) -> [String] {
    var result: [String] = []
    var inFence = false
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      if line.trimmingCharacters(in: .whitespaces).hasPrefix("```") {
        inFence.toggle()
        continue
      }
      if inFence { continue }
      var inCode = false
      var index = line.startIndex
      while index < line.endIndex {
        let character = line[index]
        if character == "`" { inCode.toggle() }
        if !inCode, character == "]", line[line.index(after: index)...].hasPrefix("(") {
          let start = line.index(index, offsetBy: 2)
          if let end = line[start...].firstIndex(of: ")") {
            var target = String(line[start..<end])
            if let space = target.firstIndex(of: " ") { target = String(target[..<space]) }
            result.append(target)
            index = end
          }
        }
        index = line.index(after: index)
      }
    }
    return result
  }

  /// Why `link` of `page` does not resolve, or nil.
  static func problem(_ link: String, from page: String, root: URL) -> String? {
    if link.contains("://") || link.hasPrefix("mailto:") { return nil }
    let parts = link.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
    let pathPart = String(parts[0])
    let anchor = parts.count > 1 ? String(parts[1]) : nil
    let pageDirectory = (page as NSString).deletingLastPathComponent
    let target =
      pathPart.isEmpty ? page : ((pageDirectory as NSString).appendingPathComponent(pathPart) as NSString).standardizingPath
    let url = root.appendingPathComponent(target)
    guard FileManager.default.fileExists(atPath: url.path) else {
      return "no file \(target)"
    }
    guard let anchor, target.hasSuffix(".md") else { return nil }
    guard let text = try? String(contentsOf: url, encoding: .utf8) else { return "unreadable \(target)" }
    return anchors(in: text).contains(anchor) ? nil : "no anchor #\(anchor) in \(target)"
  }

  /// GitHub's heading anchors: lowercased, punctuation but `-` and `_`
  /// dropped, spaces as `-`, repeats numbered `-1`, `-2`.
  static func anchors(in text: String) -> Set<String> {
    var seen: [String: Int] = [:]
    var result: Set<String> = []
    var inFence = false
    for line in text.split(separator: "\n") {
      if line.hasPrefix("```") { inFence.toggle() }
      guard !inFence, line.hasPrefix("#") else { continue }
      let title = line.drop(while: { $0 == "#" }).trimmingCharacters(in: .whitespaces)
      var slug = ""
      for character in title.lowercased() {
        if character.isLetter || character.isNumber || character == "-" || character == "_" {
          slug.append(character)
        } else if character == " " {
          slug.append("-")
        }
      }
      let count = seen[slug, default: 0]
      seen[slug] = count + 1
      result.insert(count == 0 ? slug : "\(slug)-\(count)")
    }
    return result
  }
}
