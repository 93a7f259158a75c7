import CallDirectoryCompiler
import CallDirectoryFormat
import CalldirSystem

/// What a build records with a version of a config that has
/// `liveCallerID`, so that `calldir export live-caller-id` reads everything
/// from the store: the settings (as their canonical JSON), each
/// identification entry's category and icon (``IdentityDetails``, a file
/// beside the snapshot) and the icons themselves (`STORE/icons/`).
///
/// A build whose Call Directory entries are unchanged but whose settings,
/// categories or icons changed publishes a new version all the same (its
/// deltas are empty), so that the next export sees the change.
struct LiveCallerIDRecording {
  let settings: LiveCallerIDSettings
  /// ``LiveCallerIDSettings/json``'s text, as the catalog records it.
  let settingsText: String
  /// Each identify source's profile, by config index.
  private let profiles: [Int: IdentityDetails.Profile]
  /// The icons the sources name, by SHA-256.
  let icons: [IdentityIcon]

  /// The recording of `config`, nil when it has no `liveCallerID`; reads
  /// and checks every identify source's icon.
  /// - Throws: ``ConfigError`` at `sources[N].icon` for an icon that is
  ///   missing, unreadable, too large or not HEIC.
  init?(config: BuildConfig) throws(ConfigError) {
    guard let settings = config.liveCallerID else { return nil }
    self.settings = settings
    settingsText = settings.json.serialized()
    var profiles: [Int: IdentityDetails.Profile] = [:]
    var icons: [[UInt8]: IdentityIcon] = [:]
    for spec in config.sources where spec.list == .identify {
      var profile = IdentityDetails.Profile(category: spec.category)
      if let path = spec.icon {
        let icon = try IdentityIcon.load(path: path, keyPath: "\(spec.keyPath).icon")
        icons[icon.sha256] = icon
        profile.icon = icon.sha256
      }
      profiles[spec.index] = profile
    }
    self.profiles = profiles
    self.icons = icons.values.sorted { $0.sha256.lexicographicallyPrecedes($1.sha256) }
  }

  /// The details of a version's identification entries: held, or, when
  /// the entries spilled past the build's memory limit, streamed from them.
  enum Details {
    case held(IdentityDetails)
    case streamed(StreamedIdentityDetails)

    /// ``IdentityDetails/digest``: what the build compares to tell an
    /// unchanged version.
    var digest: String {
      switch self {
      case .held(let details): details.digest
      case .streamed(let details): details.digest
      }
    }

    /// Writes the file to `path` (a pending name): whole, its sync left to
    /// `deferredSyncs`. Returns the file's facts.
    func write(to path: String, deferringSyncsTo deferredSyncs: FileSystem.DeferredSyncs) throws(StoreError) -> FileFacts {
      switch self {
      case .held(let details): try LiveCallerIDRecording.write(details, to: path, deferringSyncsTo: deferredSyncs)
      case .streamed(let details): try details.write(to: path, deferringSyncsTo: deferredSyncs)
      }
    }
  }

  /// The details of `snapshot`'s identification entries; those of spilled
  /// entries are read from them (``StreamedIdentityDetails``).
  /// - Throws: ``StoreError/file(_:)`` when spilled entries cannot be read.
  func details(of snapshot: CompiledSnapshot, version: Int, digest: ContentDigest) throws(StoreError) -> Details {
    let profiles = self.profiles
    let profileOfSource = { (source: Int) in profiles[source] ?? IdentityDetails.Profile(category: .unspecified) }
    guard let spilled = snapshot.spilledIdentification else {
      return .held(IdentityDetails.of(
        sources: snapshot.identificationSources, profileOfSource: profileOfSource, version: version,
        snapshotDigest: digest))
    }
    let sources: StreamedIdentityDetails.WinningSources = { (body) throws(StoreError) in
      do {
        let cursor = try spilled.cursor()
        while cursor.number != nil {
          try body(cursor.source)
          try cursor.advance()
        }
      } catch let error as StoreError {
        throw error
      } catch CompileError.spill(let failure) {
        throw .file(failure)
      } catch {
        throw .file(FileError(operation: "read", path: spilled.entriesPath, errno: .ioError, detail: "\(error)"))
      }
    }
    return .streamed(try StreamedIdentityDetails(
      sources: sources, profileOfSource: profileOfSource, version: version, snapshotDigest: digest))
  }

  /// Writes `details` to `path` (a pending name): whole, its sync left to
  /// `deferredSyncs`. Returns the file's facts.
  static func write(
    _ details: IdentityDetails, to path: String, deferringSyncsTo deferredSyncs: FileSystem.DeferredSyncs
  ) throws(StoreError) -> FileFacts {
    do {
      let file = try AtomicFile(destination: path)
      try file.writer.write(details.encoded())
      try file.commit(deferringSyncsTo: deferredSyncs)
    } catch {
      throw .file(error)
    }
    return try FileFacts.of(path)
  }

  /// Puts every icon in the store (each under its SHA-256, written whole
  /// and synced), before the catalog records a version that needs them.
  func keepIcons(in store: StoreLayout) throws(StoreError) {
    for icon in icons { try icon.keep(in: store) }
  }
}
