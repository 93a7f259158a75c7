import Testing

@testable import PhoneNumbers

/// The pieces of `DigitAutomaton`'s subset construction, each on its own.
@Suite struct DigitAutomatonConstructionTests {
  @Test func combinedProgramRelocatesEachPatternsTargets() throws {
    let first = try DigitPattern("1(2|3)")
    let second = try DigitPattern("4?5")
    let combined = DigitAutomaton.CombinedProgram([first, second])
    #expect(combined.starts == [0, first.program.count])
    #expect(combined.count == first.program.count + second.program.count)
    #expect(combined.tags == Array(repeating: 1, count: first.program.count) + Array(repeating: 2, count: second.program.count))
    #expect(Array(combined.instructions.prefix(first.program.count)) == first.program)
    let offset = first.program.count
    for (pc, instruction) in second.program.enumerated() {
      switch instruction {
      case .split(let a, let b): #expect(combined.instructions[offset + pc] == .split(a + offset, b + offset))
      case .jump(let target): #expect(combined.instructions[offset + pc] == .jump(target + offset))
      default: #expect(combined.instructions[offset + pc] == instruction)
      }
    }
    #expect(combined.words == 1)
  }

  /// Ids in order of arrival, each set once, through several doublings of
  /// the slot table (64 slots at first).
  @Test func stateTableInternsEachSetOnce() {
    var table = DigitAutomaton.DigitStateTable(words: 2)
    func state(_ index: Int) -> [UInt64] { [UInt64(index) &* 0x9E37_79B9, UInt64(index % 7)] }
    for index in 0..<1_000 {
      let (id, inserted) = state(index).withUnsafeBufferPointer { table.intern($0) }
      #expect(id == Int32(index) && inserted)
    }
    #expect(table.count == 1_000)
    for index in stride(from: 999, through: 0, by: -37) {
      let (id, inserted) = state(index).withUnsafeBufferPointer { table.intern($0) }
      #expect(id == Int32(index) && !inserted)
    }
    #expect(Array(table.bits[(2 * 500)..<(2 * 501)]) == state(500))
  }

  /// Sets one bit apart are two states, filed under two hashes.
  @Test func stateTableTellsNeighbouringSetsApart() {
    var table = DigitAutomaton.DigitStateTable(words: 1)
    let zero = [UInt64(0)].withUnsafeBufferPointer { table.intern($0) }
    let one = [UInt64(1)].withUnsafeBufferPointer { table.intern($0) }
    #expect(zero.id == 0 && one.id == 1 && one.inserted)
    #expect([UInt64(0)].withUnsafeBufferPointer { DigitAutomaton.DigitStateTable.hash($0) }
      != [UInt64(1)].withUnsafeBufferPointer { DigitAutomaton.DigitStateTable.hash($0) })
  }

  /// The construction stops at the state limit: nil, where one more state
  /// is enough.
  @Test func constructionHonoursTheStateLimit() throws {
    let pattern = try DigitPattern("\\d{3}5\\d{2}")
    let automaton = try #require(DigitAutomaton(pattern))
    #expect(DigitAutomaton(pattern, stateLimit: automaton.stateCount) != nil)
    #expect(DigitAutomaton(pattern, stateLimit: automaton.stateCount - 2) == nil)
  }
}
