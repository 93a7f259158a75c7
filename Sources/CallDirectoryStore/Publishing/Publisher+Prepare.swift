import CallDirectoryCompiler
import CallDirectoryFormat
import CalldirSystem
import Sodium

/// What a build stands on before it reads a source, the first stage of
/// ``Publisher/build()``: the config, the signing key, the Live Caller ID
/// settings and icons, the open store (its lock held until the build
/// returns), the latest version and the version to publish.
struct PreparedBuild {
  let config: BuildConfig
  let key: Ed25519.KeyPair?
  let liveCallerID: LiveCallerIDRecording?
  let opened: Publisher.OpenStore
  let compiler: SnapshotCompiler
  /// The latest version and the sources it read.
  let previous: (record: SnapshotRecord, sources: [SourceRecordRow])?
  let guards: BuildGuards
  /// The sources whose files are gone (``Publisher/absentSources(of:previous:)``).
  let absent: Set<Int>
  /// The version this build publishes.
  let version: Int
  /// Problems met while opening the store that do not stop the build.
  let warnings: [String]

  var catalog: Catalog? { opened.catalog }
  var latest: SnapshotRecord? { opened.latest }
}

extension Publisher {
  /// Loads the config, the key and the icons and opens the store, while
  /// the compiler is made on another core; refuses a config whose dataset
  /// is not the one the store published.
  func prepare() throws(BuildError) -> PreparedBuild {
    var warnings: [String] = []
    // The standard compiler's numbering plan takes milliseconds to parse:
    // it is made on another core while the config loads and the store opens
    // (which mostly waits for the disk when the catalog is new).
    var madeCompiler: SnapshotCompiler?
    var setUp: Swift.Result<
      (config: BuildConfig, key: Ed25519.KeyPair?, liveCallerID: LiveCallerIDRecording?, opened: OpenStore), BuildError
    >?
    Parallel.run(background: { madeCompiler = makeCompiler() }) {
      setUp = Swift.Result { () throws(BuildError) in
        let config: BuildConfig
        do throws(ConfigError) {
          config = try BuildConfig.load(contentsOf: configPath, checkFiles: false)
        } catch {
          throw .config(error)
        }
        // The key and the dates are checked before the store is opened (or created).
        let key = try (options.signingKey ?? config.signingKey).map { path throws(BuildError) in
          do throws(SigningKeyError) {
            return try SigningKey.load(path)
          } catch {
            throw .signingKey(error)
          }
        }
        _ = try manifestExpiry(config: config)
        // The icons are read and checked before the store is opened too.
        let liveCallerID: LiveCallerIDRecording?
        do throws(ConfigError) {
          liveCallerID = try LiveCallerIDRecording(config: config)
        } catch {
          throw .config(error)
        }
        return (config, key, liveCallerID, try openStore(warnings: &warnings))
      }
    }
    guard let setUp, let compiler = madeCompiler else {
      throw .store(.catalog("internal error: the build did not set up"))
    }
    let (config, key, liveCallerID, opened) = try setUp.get()
    let previous = try opened.latest.map { record throws(BuildError) in
      (record: record, sources: try storeCall { () throws(StoreError) in
        try opened.catalog.map { catalog throws(StoreError) in try catalog.sources(ofVersion: record.version) } ?? []
      })
    }
    let guards = BuildGuards(config: config, previous: previous)
    let absent = try absentSources(of: config, previous: previous?.sources ?? [])
    if let latest = opened.latest, !latest.dataset.isEmpty, latest.dataset != config.dataset {
      throw .store(.datasetChanged(store: store.root, published: latest.dataset, configured: config.dataset))
    }
    return PreparedBuild(
      config: config, key: key, liveCallerID: liveCallerID, opened: opened, compiler: compiler, previous: previous,
      guards: guards, absent: absent, version: opened.highestVersion + 1, warnings: warnings)
  }

  // MARK: - The store

  /// The lock (a real build's), the catalog, its latest version and the
  /// highest version number ever used.
  struct OpenStore {
    var lock: StoreLock?
    var catalog: Catalog?
    var latest: SnapshotRecord?
    var highestVersion = 0
  }

  /// A real build creates the store, takes its lock, opens (or creates) the
  /// catalog, puts in place the files of a version whose build died after
  /// its catalog transaction, and removes what builds that died before it
  /// left; a dry run only makes its own directory and reads the catalog, if
  /// there is one. Either refuses a store holding published files its
  /// catalog does not know.
  func openStore(warnings: inout [String]) throws(BuildError) -> OpenStore {
    try storeCall { () throws(StoreError) in
      if options.dryRun {
        try createDirectory(store.dryRunDirectory)
        let catalog: Catalog
        do throws(StoreError) {
          catalog = try Catalog.openForReading(store)
        } catch {
          guard case .noCatalog = error else { throw error }
          let onDisk = store.highestPublishedVersion()
          if onDisk > 0 { throw StoreError.catalogMissing(store: store.root, highestVersion: onDisk) }
          return OpenStore()
        }
        let opened = OpenStore(catalog: catalog, latest: try catalog.latest(), highestVersion: try catalog.highestVersion())
        try checkKnown(opened)
        return opened
      }
      for directory in [
        store.root, store.snapshotsDirectory, store.deltasDirectory, store.rejectsDirectory, store.refusedDirectory,
      ] {
        try createDirectory(directory)
      }
      let lock = try StoreLock(path: store.lock, wait: options.wait)
      // A store with published files and no catalog is refused before a
      // catalog is created, so that the store stays as it was.
      // (A catalog whose status cannot be read is an I/O error, not a missing one.)
      let hadCatalog: Bool
      do throws(FileError) {
        hadCatalog = (try FileSystem.statusIfPresent(store.catalog)?.size ?? 0) > 0
      } catch {
        throw StoreError.file(error)
      }
      if !hadCatalog, store.highestPublishedVersion() > 0 {
        throw StoreError.catalogMissing(store: store.root, highestVersion: store.highestPublishedVersion())
      }
      let catalog = try Catalog(path: store.catalog)
      var opened = OpenStore(lock: lock, catalog: catalog, latest: try catalog.latest())
      opened.highestVersion = try catalog.highestVersion()
      if let latest = opened.latest { warnings += try putInPlace(latest, catalog: catalog) }
      if opened.highestVersion == 0, store.highestPublishedVersion() > 0 {
        throw StoreError.catalogMissing(store: store.root, highestVersion: store.highestPublishedVersion())
      }
      try checkKnown(opened)
      removePendingFiles()
      return opened
    }
  }

  /// Throws when the store holds published files of a version above every
  /// version the catalog knows.
  func checkKnown(_ opened: OpenStore) throws(StoreError) {
    let onDisk = store.highestPublishedVersion()
    guard onDisk > opened.highestVersion else { return }
    if opened.highestVersion == 0 { throw .catalogMissing(store: store.root, highestVersion: onDisk) }
    throw .catalogBehind(store: store.root, known: opened.highestVersion, onDisk: onDisk)
  }

  /// Renames the pending files of `record` (a recorded version) that are
  /// not at their published names yet; a blob goes in place only when its
  /// checksum is the catalog's. Returns a warning per file it could not place.
  func putInPlace(_ record: SnapshotRecord, catalog: Catalog) throws(StoreError) -> [String] {
    var files: [(name: String, checksum: String?)] = [(record.path, record.fileChecksum), (record.rejectsPath, nil)]
    if let conflicts = record.conflictsPath { files.append((conflicts, nil)) }
    if let identities = record.identitiesPath { files.append((identities, record.identitiesChecksum)) }
    files += try catalog.shards(ofVersion: record.version).map { ($0.path, $0.fileChecksum) }
    files += try catalog.deltas(toVersion: record.version).map { ($0.path, $0.fileChecksum) }
    files += try catalog.shardDeltas(toVersion: record.version).map { ($0.path, $0.fileChecksum) }
    var warnings: [String] = []
    for file in files where !FileSystem.exists(store.path(file.name)) {
      let pendingPath = store.path(StoreLayout.pendingName(for: file.name))
      guard FileSystem.exists(pendingPath) else {
        warnings.append("\(store.path(file.name)) of version \(record.version) is missing")
        continue
      }
      // A pending file that cannot be read is an I/O error (thrown), not
      // a damaged file.
      if let checksum = file.checksum, try FileFacts.of(pendingPath).checksum != checksum {
        warnings.append("\(pendingPath) does not match the catalog's checksum; left where it is")
        continue
      }
      try rename(pendingPath, to: store.path(file.name))
    }
    return warnings
  }

  /// Removes the dot files (pending, temporary and spilled files) that a
  /// build which died before its catalog transaction left. Published files
  /// are never touched.
  func removePendingFiles() {
    for directory in [store.snapshotsDirectory, store.deltasDirectory, store.rejectsDirectory, store.iconsDirectory] {
      for name in (try? FileSystem.contentsOfDirectory(directory)) ?? [] where name.hasPrefix(".") {
        try? FileSystem.removeFile(directory + "/" + name)
      }
    }
  }

  func createDirectory(_ path: String) throws(StoreError) {
    do {
      try FileSystem.createDirectory(path)
    } catch {
      throw .file(error)
    }
  }

  /// The sources whose files are gone although the previous version read
  /// numbers from them: the build goes on without them (and a guard
  /// refuses it unless `--force`). Any other missing file is an error.
  func absentSources(of config: BuildConfig, previous: [SourceRecordRow]) throws(BuildError) -> Set<Int> {
    var absent: Set<Int> = []
    for spec in config.sources {
      let status: FileStatus?
      do {
        status = try FileSystem.statusIfPresent(spec.path)
      } catch {
        throw .compile(.source(.file(error)))
      }
      // A named pipe or a device cannot be read twice (checksum, then
      // numbers) and may never end: only regular files are sources.
      if let kind = status?.kind, kind != .regular {
        throw .config(.notAFile(keyPath: "\(spec.keyPath).path", path: spec.path, kind: kind.description))
      }
      guard status == nil else { continue }
      let gaveNumbers = previous.contains {
        $0.path == spec.path && $0.list == spec.list.rawValue && ($0.contribution?.numbers ?? $0.accepted) > 0
      }
      guard gaveNumbers else { throw .config(.fileNotFound(keyPath: "\(spec.keyPath).path", path: spec.path)) }
      absent.insert(spec.index)
    }
    return absent
  }
}
