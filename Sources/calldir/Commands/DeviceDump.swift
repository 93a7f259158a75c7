import CallKitMock
import CommandLineKit
import Foundation

extension Calldir.Device {
  /// `calldir device dump`: every entry the device holds.
  struct Dump: RunnableCommand {
    static let configuration = CommandConfiguration(
      name: "dump",
      abstract: "Print every entry a simulated device holds, as TSV.",
      discussion: """
        Same layout as `calldir inspect --entries` of a full snapshot: every \
        `block<TAB>number` line, then every `identify<TAB>number<TAB>label` line, each \
        ascending across all extensions (merged in constant memory; a number held by two \
        extensions is printed once per extension).
        """,
      arguments: [
        .option("device", valueName: "dir", isRequired: true, help: "The simulated device's directory.")
      ]
    )

    let devicePath: String

    init(arguments: ParsedArguments) throws {
      devicePath = try arguments.requiredString("device")
    }

    func run(context: CommandContext) throws {
      let device = try DeviceSupport.openExisting(devicePath)
      let identifiers = try DeviceSupport.extensions(of: device)
      let pumps = identifiers.map { _EntryPump(device: device, identifier: $0) }
      defer { pumps.forEach { $0.cancel() } }
      pumps.forEach { $0.start() }
      let output = context.standardOutput
      // A reader that goes away (`dump | head`) ends the merge quietly; the
      // deferred cancel then stops the producer threads.
      do {
        try _merge(pumps.map(\.blocking), number: { $0 }, while: output.isWritable) { number in
          output.write("block\t")
          output.write(String(number))
          output.write("\n")
        }
        try _merge(pumps.map(\.identification), number: \.number, while: output.isWritable) { entry in
          output.write("identify\t")
          output.write(String(entry.number))
          output.write("\t")
          output.write(entry.label)
          output.write("\n")
        }
      } catch {
        throw DeviceSupport.mapped(error)
      }
    }
  }
}

/// Merges ascending streams into one ascending stream (ties keep stream order).
private func _merge<Element: Sendable>(
  _ streams: [_ChunkQueue<Element>], number: (Element) -> Int64, while keepGoing: @autoclosure () -> Bool,
  _ emit: (Element) -> Void
) throws {
  guard keepGoing() else { return }
  var cursors = streams.map { _Cursor(queue: $0) }
  for index in cursors.indices { try cursors[index].load() }
  while keepGoing() {
    var best: Int?
    for index in cursors.indices {
      guard let head = cursors[index].head else { continue }
      if let current = best, let other = cursors[current].head, number(other) <= number(head) { continue }
      best = index
    }
    guard let chosen = best, let element = cursors[chosen].head else { return }
    emit(element)
    try cursors[chosen].advance()
  }
}

/// A read position in a chunk queue.
private struct _Cursor<Element: Sendable> {
  let queue: _ChunkQueue<Element>
  var chunk: [Element] = []
  var index = 0

  init(queue: _ChunkQueue<Element>) { self.queue = queue }

  var head: Element? { index < chunk.count ? chunk[index] : nil }

  mutating func load() throws {
    chunk = try queue.pop() ?? []
    index = 0
  }

  mutating func advance() throws {
    index += 1
    if index == chunk.count { try load() }
  }
}

/// Reads one extension's store on a thread of its own into two bounded
/// queues (blocking numbers, identification entries), so that several
/// stores can be merged by pulling, in constant memory.
private final class _EntryPump: @unchecked Sendable {
  let blocking = _ChunkQueue<Int64>()
  let identification = _ChunkQueue<IdentificationEntry>()
  private let device: SimulatedDevice
  private let identifier: String
  private static let chunkSize = 4096

  init(device: SimulatedDevice, identifier: String) {
    self.device = device
    self.identifier = identifier
  }

  func start() {
    let thread = Thread { [self] in self.produce() }
    thread.stackSize = 1 << 20
    thread.start()
  }

  func cancel() {
    blocking.cancel()
    identification.cancel()
  }

  private func produce() {
    var numbers: [Int64] = []
    var entries: [IdentificationEntry] = []
    numbers.reserveCapacity(Self.chunkSize)
    do {
      try device.forEachEntry(
        inExtensionWithIdentifier: identifier,
        blocking: { number in
          numbers.append(number)
          if numbers.count == Self.chunkSize {
            try self.blocking.push(numbers)
            numbers.removeAll(keepingCapacity: true)
          }
        },
        identification: { entry in
          if !self.blocking.isFinished {
            if !numbers.isEmpty { try self.blocking.push(numbers) }
            numbers = []
            self.blocking.finish(nil)
          }
          entries.append(entry)
          if entries.count == Self.chunkSize {
            try self.identification.push(entries)
            entries.removeAll(keepingCapacity: true)
          }
        })
      if !self.blocking.isFinished, !numbers.isEmpty { try blocking.push(numbers) }
      if !entries.isEmpty { try identification.push(entries) }
      blocking.finish(nil)
      identification.finish(nil)
    } catch {
      blocking.finish(error)
      identification.finish(error)
    }
  }
}

/// A bounded single-producer, single-consumer queue of chunks.
private final class _ChunkQueue<Element: Sendable>: @unchecked Sendable {
  private let condition = NSCondition()
  private var chunks: [[Element]] = []
  private var finished = false
  private var cancelled = false
  private var failure: (any Error)?
  private static var capacity: Int { 4 }

  private struct Cancelled: Error {}

  var isFinished: Bool {
    condition.lock()
    defer { condition.unlock() }
    return finished
  }

  /// Blocks while the queue is full; throws once the consumer cancelled.
  func push(_ chunk: [Element]) throws {
    condition.lock()
    defer { condition.unlock() }
    while chunks.count >= Self.capacity && !cancelled { condition.wait() }
    if cancelled { throw Cancelled() }
    chunks.append(chunk)
    condition.broadcast()
  }

  /// Marks the end of the stream, with the producer's error if any.
  func finish(_ error: (any Error)?) {
    condition.lock()
    defer { condition.unlock() }
    if !finished {
      finished = true
      failure = error
    }
    condition.broadcast()
  }

  /// Stops the producer (and makes ``pop()`` return `nil` once empty).
  func cancel() {
    condition.lock()
    defer { condition.unlock() }
    cancelled = true
    condition.broadcast()
  }

  /// The next chunk, or `nil` at the end.
  /// - Throws: The producer's error, once the chunks before it were taken.
  func pop() throws -> [Element]? {
    condition.lock()
    defer { condition.unlock() }
    while chunks.isEmpty && !finished && !cancelled { condition.wait() }
    if !chunks.isEmpty {
      condition.broadcast()
      return chunks.removeFirst()
    }
    if let failure, !(failure is Cancelled) { throw failure }
    return nil
  }
}
