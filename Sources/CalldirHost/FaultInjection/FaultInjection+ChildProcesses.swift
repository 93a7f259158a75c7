import CalldirSystem

extension FaultInjection {
  /// The variable that holds a child process's own rules (a test sets it
  /// for the parent; the parent passes it on as the child's `CALLDIR_FAULTS`).
  public static let childRulesVariable = "CALLDIR_CHILD_FAULTS"
  /// The variable that holds where a child process writes its call counts.
  public static let childCountsVariable = "CALLDIR_CHILD_FAULT_COUNTS"

  /// The environment to give a child process: this process's rules and
  /// counts path removed (occurrences count per process, so the same
  /// rules in the child would fire twice and the counts would be
  /// overwritten), and ``childRulesVariable`` and ``childCountsVariable``,
  /// when set, passed on as the child's own `CALLDIR_FAULTS` and
  /// `CALLDIR_FAULT_COUNTS`.
  ///
  /// A build without fault injection (``FaultInjection/isCompiledIn``
  /// false) removes all four: its own
  /// ``FaultInjection/installFromEnvironment()`` has said already that
  /// they are ignored, and the child, the same build, would say it again.
  ///
  ///     CALLDIR_CHILD_FAULTS=write:2:ENOSPC calldir device load …   # the extension's 2nd write fails
  public static func environmentForChildProcess(_ environment: [String: String]) -> [String: String] {
    var child = environment
    child["CALLDIR_FAULTS"] = nil
    child["CALLDIR_FAULT_COUNTS"] = nil
    let rules = child.removeValue(forKey: childRulesVariable)
    let counts = child.removeValue(forKey: childCountsVariable)
    guard isCompiledIn else { return child }
    if let rules { child["CALLDIR_FAULTS"] = rules }
    if let counts { child["CALLDIR_FAULT_COUNTS"] = counts }
    return child
  }
}
