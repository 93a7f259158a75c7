#if os(Linux)
  import Synchronization
#endif

/// A region's general-pattern automaton, compiled when first asked for:
/// compiling every region's costs milliseconds at start-up, and a run
/// needs a few regions' at most (those its national numbers are read in).
///
/// On Darwin, where the atomics need newer systems than calldir supports,
/// the automaton is compiled at once.
final class LazyGeneralAutomaton: Sendable {
  private let pattern: DigitPattern?
  #if os(Linux)
    /// 1 once the tables below are set (and never written again).
    private let state = Atomic<Int>(0)
    private let lock = Mutex<Void>(())
  #endif
  nonisolated(unsafe) private var automaton: DigitAutomaton?
  nonisolated(unsafe) private var transitions: UnsafePointer<Int32>?
  nonisolated(unsafe) private var accepting: UnsafePointer<Bool>?

  init(_ pattern: DigitPattern?) {
    self.pattern = pattern
    #if !os(Linux)
      compile()
    #endif
  }

  /// Whether `digits` match the whole pattern (false without a pattern).
  @inline(__always)
  func fullMatch(_ digits: UnsafeBufferPointer<UInt8>) -> Bool {
    #if os(Linux)
      if state.load(ordering: .acquiring) == 0 { compileOnce() }
    #endif
    if let transitions, let accepting {
      return DigitAutomaton.fullMatch(digits, transitions: transitions, accepting: accepting)
    }
    // No automaton could be built: the pattern matches itself.
    return pattern?.fullMatch(digits) ?? false
  }

  /// How many leading digits of `digits` show that no digit string
  /// starting with them matches the whole pattern (0 without a pattern),
  /// or nil when some may (or no automaton could be built).
  func digitsRulingOutMatch(_ digits: UnsafeBufferPointer<UInt8>) -> Int? {
    guard pattern != nil else { return 0 }
    #if os(Linux)
      if state.load(ordering: .acquiring) == 0 { compileOnce() }
    #endif
    guard let transitions else { return nil }
    var current = 0
    for (index, digit) in digits.enumerated() {
      let next = transitions[current &* 10 &+ Int(digit % 10)]
      if next < 0 { return index &+ 1 }
      current = Int(next)
    }
    return nil
  }

  #if os(Linux)
    @inline(never)
    private func compileOnce() {
      lock.withLock { _ in
        guard state.load(ordering: .relaxed) == 0 else { return }
        compile()
        state.store(1, ordering: .releasing)
      }
    }
  #endif

  private func compile() {
    automaton = pattern.flatMap { DigitAutomaton($0) }
    transitions = automaton.map { UnsafePointer($0.transitionTable) }
    accepting = automaton.map { UnsafePointer($0.acceptingTable) }
  }
}
