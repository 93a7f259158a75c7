import CalldirSystem
import CallDirectoryCompiler
import CallDirectoryStore
import CommandLineKit

extension ListChanges: JSONEncodable {
  /// `{"blocking": {"added", "removed"}, "identification": {"added", "removed"}}`,
  /// as `build --json` and `report --json` print a version's changes.
  public var json: JSONValue {
    [
      "blocking": ["added": .int(Int64(blockingAdded)), "removed": .int(Int64(blockingRemoved))],
      "identification": ["added": .int(Int64(identificationAdded)), "removed": .int(Int64(identificationRemoved))],
    ]
  }
}
