import Foundation
import Testing

/// One command line whose options the typed declarations refuse.
struct TypedOptionCase: CustomTestStringConvertible, Sendable {
  let arguments: [String]
  /// The first line of standard error (or, with `--json`, the error's message).
  let message: String
  var testDescription: String { arguments.joined(separator: " ") }
}

/// The options of every command are typed properties: values convert (or
/// are refused with the message and exit 64 they always had) before the
/// command runs, and the shared options (`--store`, `--device`, `--json`,
/// `--no-wait`, the extension limits) mean the same in every command.
@Suite struct TypedOptionsTests {
  static let refusals: [TypedOptionCase] = [
    .init(arguments: ["build", "--config", "c", "--store", "s", "--memory-limit", "1M"],
          message: "--memory-limit must be a size of at least 64M, such as 512M or 4G, not '1M'"),
    .init(arguments: ["build", "--config", "c", "--store", "s", "--as-of", "2026-13-01"],
          message: "--as-of must be a date YYYY-MM-DD, such as 2026-12-01, not '2026-13-01'"),
    .init(arguments: ["prune", "--store", "s", "--keep", "0"],
          message: "--keep must be a number of versions, at least 1, not '0'"),
    .init(arguments: ["prune", "--store", "s", "--keep", "x"],
          message: "--keep must be a number of versions, at least 1, not 'x'"),
    .init(arguments: ["explain", "--store", "s", "--version", "0", "1"],
          message: "--version must be a published version number such as 3, not '0'"),
    .init(arguments: ["export", "live-caller-id", "--store", "s", "-o", "o", "--version", "0"],
          message: "invalid value '0' for '--version <v>': expected a version number (1, 2, …)"),
    .init(arguments: ["validate", "--max-errors", "-1", "x"],
          message: "--max-errors must be 0 (report all) or more, not -1"),
    .init(arguments: ["validate", "--max-errors", "x", "x"],
          message: "invalid value 'x' for '--max-errors <n>': expected an integer"),
    .init(arguments: ["device", "sync", "--device", "d", "--from", "f", "--public-key", "k", "--network-timeout", "0"],
          message: "--network-timeout must be between 1 and 86400 seconds"),
    .init(arguments: ["device", "sync", "--device", "d", "--from", "f", "--public-key", "k", "--network-timeout", "x"],
          message: "invalid value 'x' for '--network-timeout <seconds>': expected an integer"),
    .init(arguments: ["device", "sync", "--device", "d", "--from", "f", "--public-key", "k", "--minimum-rate", "0"],
          message: "--minimum-rate must be between 1 and 1073741824 bytes a second"),
    .init(arguments: ["device", "sync", "--device", "d", "--from", "f", "--public-key", "k", "--timeout", "0"],
          message: "--timeout must be a positive number of seconds"),
    .init(arguments: ["device", "load", "--device", "d", "f", "--memory-budget", "0"],
          message: "--memory-budget must be positive"),
    .init(arguments: ["device", "load", "--device", "d", "f", "--memory-budget", "5Q"],
          message: "invalid value '5Q' for '--memory-budget <size>': expected a size such as 512M, 2G or 100k"),
    .init(arguments: ["device", "load", "--device", "d", "f", "--max-entries", "-1"],
          message: "--max-entries must not be negative"),
    .init(arguments: ["device", "load", "f"], message: "missing expected argument '--device <dir>'"),
    .init(arguments: ["device", "dump"], message: "missing expected argument '--device <dir>'"),
    .init(arguments: ["history", "--store"], message: "missing value for option '--store'"),
    .init(arguments: ["diff", "a", "b"], message: "missing expected argument '--output <file>'"),
    .init(arguments: ["keygen"], message: "missing expected argument '--output <prefix>'"),
    .init(arguments: ["device", "status", "--device", "d", "--jsno"],
          message: "unknown option '--jsno'; did you mean '--json'?"),
    .init(arguments: ["normalize", "--json=1"], message: "option '--json' does not take a value (got '1')"),
  ]

  @Test(arguments: refusals)
  func refusedValuesKeepTheirMessageAndExit64(_ refusal: TypedOptionCase) throws {
    let result = try CalldirProcess.run(refusal.arguments)
    #expect(result.status == 64)
    #expect(result.standardOutput == "")
    let lines = result.standardError.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(lines.first.map(String.init) == "error: " + refusal.message)
    #expect(lines.dropFirst().first?.hasPrefix("usage: calldir ") == true, "\(result.standardError)")
  }

  /// With the shared `--json`, a refused value is answered with the error
  /// document on standard output too.
  @Test(arguments: [
    (["validate", "--json", "--max-errors", "x", "x"], "invalid value 'x' for '--max-errors <n>': expected an integer"),
    (["device", "load", "--device", "d", "f", "--timeout", "0", "--json"], "--timeout must be a positive number of seconds"),
    (["repair", "--store", "", "--json"], "invalid value '' for '--store': expected a value that is not empty"),
    (["device", "reset", "--json"], "missing expected argument '--device <dir>'"),
  ])
  func jsonAnswersARefusedValue(_ arguments: [String], _ message: String) throws {
    let result = try CalldirProcess.run(arguments)
    #expect(result.status == 64)
    let document = try parseJSON(result.standardOutput)
    let error = try #require(document["error"] as? [String: Any])
    #expect(error["kind"] as? String == "usage")
    #expect(error["message"] as? String == message)
  }

  /// The shared options read the same in every command's help.
  @Test func sharedOptionsReadTheSameInEveryCommand() throws {
    for command in [["history"], ["report"], ["repair"], ["prune"], ["explain"], ["export", "live-caller-id"]] {
      let help = try CalldirProcess.run(command + ["--help"]).standardOutput
      #expect(help.contains("  --store <dir>           The store directory.\n"), "\(command)")
    }
    for command in [["dump"], ["status"], ["reset"]] {
      let help = try CalldirProcess.run(["device"] + command + ["--help"]).standardOutput
      #expect(help.contains("  --device <dir>          The simulated device's directory.\n"), "\(command)")
    }
    for command in [["load"], ["sync"]] {
      let help = try CalldirProcess.run(["device"] + command + ["--help"]).standardOutput
      #expect(help.contains("  --memory-budget <size>  Memory the extension process may add above its\n"), "\(command)")
      #expect(help.contains("(default: 16M)"), "\(command)")
      #expect(help.contains("  --max-entries <n>"), "\(command)")
      #expect(help.contains("(default: 2000000)"), "\(command)")
    }
  }

  /// Defaults arrive typed: the extension limits a load runs with when
  /// none are given, and the ones given.
  @Test func extensionLimitsReachTheLoad() throws {
    let directory = try TemporaryDirectory()
    let blob = try directory.full("v1.cdir", sampleSnapshot(version: 1, count: 20))
    let device = directory.path("device")
    let refused = try CalldirProcess.run(["device", "load", "--device", device, "--max-entries", "10", "--json", blob])
    #expect(refused.status == 1, "\(refused.standardError)")
    #expect(refused.standardOutput.contains("maximumEntriesExceeded"), "\(refused.standardOutput)")
    let loaded = try CalldirProcess.run(["device", "load", "--device", device, "--memory-budget", "64M", "--json", blob])
    #expect(loaded.status == 0, "\(loaded.standardError)")
    let first = try #require(try extensions(loaded.standardOutput).first)
    #expect(first["blocking"] as? Int == 20)
  }
}
