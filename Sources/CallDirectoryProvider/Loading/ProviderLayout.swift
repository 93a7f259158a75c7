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

  /// The layout of one of several Call Directory extensions sharing one
  /// app-group container, one per manifest `extensions[i]`:
  ///
  ///     <container>/CallDirectory/Extension-<index>/Data/        its blobs
  ///     <container>/CallDirectory/Extension-<index>/state.json   its provider state
  ///
  /// The app and every extension compute the same paths from the index, so
  /// each extension reads only its own shard.
  ///
  /// - Parameters:
  ///   - containerPath: The app-group container directory.
  ///   - extensionIndex: The extension's index in the manifest (1, 2, …).
  public init(containerPath: String, extensionIndex: Int) {
    let container = containerPath.hasSuffix("/") ? String(containerPath.dropLast()) : containerPath
    let root = container + "/CallDirectory/Extension-\(extensionIndex)"
    self.init(dataDirectory: root + "/Data", statePath: root + "/state.json")
  }

  /// A layout with explicit paths.
  public init(dataDirectory: String, statePath: String) {
    self.dataDirectory = dataDirectory
    self.statePath = statePath
  }
}
