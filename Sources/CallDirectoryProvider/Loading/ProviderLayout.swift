/// Where the provider finds its blobs and keeps its state inside the
/// app-group container the app shares with the extension.
///
///     <container>/CallDirectory/Data/        the blobs (full snapshots, deltas)
///     <container>/CallDirectory/state.json   the provider state
///
/// The app writes blobs into ``dataDirectory`` (atomically: temporary name
/// starting with `.`, then `rename`) and calls `reloadExtension`. File names
/// do not matter; headers say what each blob is. Names starting with `.`
/// are ignored.
public struct ProviderLayout: Hashable, Sendable {
  /// The directory holding the blobs.
  public var dataDirectory: String
  /// The provider state file.
  public var statePath: String

  /// The default layout inside an app-group container.
  ///
  /// - Parameter containerPath: The container directory (on iOS, the path of
  ///   `FileManager.containerURL(forSecurityApplicationGroupIdentifier:)`).
  public init(containerPath: String) {
    let root = (containerPath.hasSuffix("/") ? String(containerPath.dropLast()) : containerPath) + "/CallDirectory"
    self.init(dataDirectory: root + "/Data", statePath: root + "/state.json")
  }

  /// A layout with explicit paths.
  public init(dataDirectory: String, statePath: String) {
    self.dataDirectory = dataDirectory
    self.statePath = statePath
  }
}
