import CallDirectoryCompiler
import CalldirSystem

/// The second stage of ``Publisher/build()``: the compiled snapshot, its
/// rejects and conflicts reports (complete, under temporary names) and the
/// guards' checks of the sources.
struct CompiledBuild {
  let snapshot: CompiledSnapshot
  let rejects: RejectLog
  let conflicts: ConflictLog
  /// The checks of the guards that weigh the sources (the list guards
  /// weigh the written blob: ``GuardedBuild``).
  let checks: [GuardCheck]
  /// When the compile ended (the build's timings).
  let compiledAt: MonotonicInstant
}

extension Publisher {
  /// Compiles the config's sources, with the reports in temporary files
  /// (pending until the version is recorded); warns of filter values that
  /// no row holds.
  func compile(
    _ prepared: PreparedBuild, pending: inout PendingFiles, warnings: inout [String]
  ) throws(BuildError) -> CompiledBuild {
    let config = prepared.config
    let reportDirectory = options.dryRun ? store.dryRunDirectory : store.rejectsDirectory
    let rejects: RejectLog
    let conflicts: ConflictLog
    let snapshot: CompiledSnapshot
    do {
      rejects = try RejectLog(directory: reportDirectory)
      pending.add(rejects.path)
      conflicts = try ConflictLog(
        directory: reportDirectory,
        paths: Dictionary(config.sources.map { ($0.index, $0.writtenPath) }, uniquingKeysWith: { first, _ in first }))
      pending.add(conflicts.path)
      snapshot = try prepared.compiler.compile(config, rejects: rejects, conflicts: conflicts, absent: prepared.absent)
      try rejects.finish()
      try conflicts.finish()
    } catch {
      throw .compile(error)
    }
    let compiledAt = MonotonicInstant.now()
    let checks = prepared.guards.sourceChecks(snapshot.sources)
    for source in snapshot.sources {
      for (column, values) in source.summary.unmatchedFilterValues.sorted(by: { $0.key < $1.key }) {
        let listed = values.map { "'\($0)'" }.joined(separator: ", ")
        warnings.append(
          "\(source.spec.keyPath) (\(source.spec.writtenPath)): no row holds \(listed) in column '\(column)' "
            + "(a value of 'where' or 'operators' mistyped?)")
      }
    }
    return CompiledBuild(
      snapshot: snapshot, rejects: rejects, conflicts: conflicts, checks: checks, compiledAt: compiledAt)
  }
}
