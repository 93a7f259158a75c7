import CommandLineKit
import PhoneNumbers

/// The `--region` option of the commands that read numbers.
enum RegionArgument {
  /// The region `code` names, nil for `ZZ` (none).
  /// - Throws: a usage error for an unknown code, suggesting the one meant
  ///   when there is a clear match (`ch` → `CH`, `UK` → `GB`).
  static func resolve(_ code: String, plan: NumberingPlan = .standard) throws -> RegionMetadata? {
    guard code != "ZZ" else { return nil }
    if let region = plan.region(code) { return region }
    var message = "unknown region '\(code)' (expected an ISO 3166 code such as US or GB, or ZZ)"
    if let suggestion = plan.suggestedRegionCode(for: code) { message += "; did you mean '\(suggestion)'?" }
    throw UsageError.invalid(message)
  }
}
