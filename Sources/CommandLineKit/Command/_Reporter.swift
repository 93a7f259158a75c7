#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Writes the final outcome of a run: error messages and the flush of standard output.
struct _Reporter {
  let standardOutput: any OutputSink
  let standardError: any OutputSink

  /// Flushes standard output and returns `code`, or reports a failed write.
  func finish(_ code: ExitCode) -> ExitCode {
    do {
      try standardOutput.flush()
    } catch {
      standardError.write("error: " + error.message + "\n")
      return error.exitCode
    }
    try? standardError.flush()
    return code
  }

  /// Reports `error` as the outcome of running the command at `path`.
  func fail(_ error: any Error, path: [any Command.Type]) -> ExitCode {
    try? standardOutput.flush()
    let code: ExitCode
    switch error {
    case let exit as ExitCode:
      code = exit
    case let located as _LocatedUsageError:
      reportUsage(located.error.message, path: located.path)
      code = .usage
    case let error as any CommandLineError:
      if error.exitCode == .usage {
        reportUsage(error.message, path: path)
      } else {
        standardError.write("error: " + error.message + "\n")
      }
      code = error.exitCode
    default:
      standardError.write("error: " + Self.describe(error) + "\n")
      code = .software
    }
    try? standardError.flush()
    return code
  }

  private func reportUsage(_ message: String, path: [any Command.Type]) {
    standardError.write(
      "error: \(message)\n"
        + "usage: \(_HelpGenerator.usage(path))\n"
        + "  See '\(_HelpGenerator.commandName(path)) --help' for more information.\n")
  }

  private static func describe(_ error: any Error) -> String {
    if let localized = error as? any LocalizedError, let description = localized.errorDescription {
      return description
    }
    return String(describing: error)
  }
}
