import CalldirSystem

/// One row as the first pass leaves it for its shard: the number, its form
/// (and national digits), and for an identity the label and profile whose
/// `CallIdentity` is built when the shard is.
struct ScratchRow: Sendable, Hashable {
  enum Form: UInt8 {
    case e164 = 0
    case national = 1
  }

  var number: Int64
  var form: Form
  /// The keyword's bytes for the national form (empty for e164, whose
  /// keyword is `+` and the number).
  var nationalDigits: [UInt8] = []
  var label: UInt32 = 0
  var profile: UInt32 = 0

  /// Appends the row's encoding: form byte, varint number, for national
  /// the digits' count and digits, for identity varint label and profile.
  func append(to bytes: inout [UInt8], identity: Bool) {
    bytes.append(form.rawValue)
    Varint.append(UInt64(bitPattern: number), to: &bytes)
    if form == .national {
      bytes.append(UInt8(truncatingIfNeeded: nationalDigits.count))
      bytes += nationalDigits
    }
    if identity {
      Varint.append(UInt64(label), to: &bytes)
      Varint.append(UInt64(profile), to: &bytes)
    }
  }

  /// Every row of a scratch file, in the order written.
  static func decodeAll(_ bytes: [UInt8], identity: Bool) throws(LiveCallerIDExportError) -> [ScratchRow] {
    var rows: [ScratchRow] = []
    var failed = false
    bytes.withUnsafeBytes { buffer in
      var position = 0
      while position < buffer.count {
        guard let form = Form(rawValue: buffer[position]) else {
          failed = true
          return
        }
        position += 1
        guard let number = Varint.read(buffer, at: &position) else {
          failed = true
          return
        }
        var row = ScratchRow(number: Int64(bitPattern: number), form: form)
        if form == .national {
          guard position < buffer.count else {
            failed = true
            return
          }
          let count = Int(buffer[position])
          position += 1
          guard count <= buffer.count - position else {
            failed = true
            return
          }
          row.nationalDigits = Array(buffer[position..<(position + count)])
          position += count
        }
        if identity {
          guard let label = Varint.read(buffer, at: &position), let profile = Varint.read(buffer, at: &position),
            label <= UInt64(UInt32.max), profile <= UInt64(UInt32.max)
          else {
            failed = true
            return
          }
          row.label = UInt32(label)
          row.profile = UInt32(profile)
        }
        rows.append(row)
      }
    }
    if failed { throw .internalError("a scratch file of the export does not read back as it was written") }
    return rows
  }
}

/// The first pass's output: each use case's rows appended to one scratch
/// file per shard (`SCRATCH/block-3.rows`), through buffers that hold at
/// most ``budget`` bytes together. A buffer that fills is appended to its
/// file (opened, written, closed: thousands of shards need no thousands of
/// open files).
final class ScratchSpill {
  let directory: String
  let useCase: UseCaseKind
  let shardCount: Int
  private var buffers: [[UInt8]]
  private let bufferLimit: Int
  /// Rows written per shard.
  private(set) var rowCounts: [Int]

  /// The bytes every spill of an export buffers together.
  static let budget = 32 << 20
  /// The most bytes one row takes: form, number, national digits, label, profile.
  static let maxRowBytes = 1 + 10 + 1 + 255 + 5 + 5

  init(directory: String, useCase: UseCaseKind, shardCount: Int, budgetShare: Int) {
    self.directory = directory
    self.useCase = useCase
    self.shardCount = shardCount
    buffers = Array(repeating: [], count: shardCount)
    rowCounts = Array(repeating: 0, count: shardCount)
    bufferLimit = max(4096, budgetShare / max(1, shardCount))
  }

  /// The scratch file of `shard`.
  func path(shard: Int) -> String { "\(directory)/\(useCase.rawValue)-\(shard).rows" }

  /// Adds `row` to `shard`.
  func add(_ row: ScratchRow, shard: Int) throws(LiveCallerIDExportError) {
    // Room for the limit and one more row, once: an array left to grow
    // would double past it.
    if buffers[shard].capacity == 0 { buffers[shard].reserveCapacity(bufferLimit + Self.maxRowBytes) }
    row.append(to: &buffers[shard], identity: useCase == .identity)
    rowCounts[shard] += 1
    if buffers[shard].count >= bufferLimit { try flush(shard: shard) }
  }

  /// Appends every buffer to its file.
  func finish() throws(LiveCallerIDExportError) {
    for shard in 0..<shardCount where !buffers[shard].isEmpty { try flush(shard: shard) }
  }

  private func flush(shard: Int) throws(LiveCallerIDExportError) {
    let path = path(shard: shard)
    do {
      let file = try FileDescriptor.open(path, .writeOnly, options: [.create, .append])
      try file.closeAfter { () throws(FileError) in
        var failure: Errno?
        buffers[shard].withUnsafeBytes { raw in
          do throws(Errno) {
            try file.writeAll(raw)
          } catch {
            failure = error
          }
        }
        if let failure { throw FileError(operation: "write", path: path, errno: failure) }
      }
    } catch {
      throw .file(error)
    }
    buffers[shard].removeAll(keepingCapacity: true)
  }

  /// The rows spilled for `shard`, read back.
  func rows(shard: Int) throws(LiveCallerIDExportError) -> [ScratchRow] {
    guard rowCounts[shard] > 0 else { return [] }
    let bytes: [UInt8]
    do {
      bytes = try FileSystem.contents(of: path(shard: shard), limit: Int.max >> 2)
    } catch {
      throw .file(error)
    }
    let rows = try ScratchRow.decodeAll(bytes, identity: useCase == .identity)
    guard rows.count == rowCounts[shard] else {
      throw .internalError("scratch file \(path(shard: shard)) holds \(rows.count) rows, not \(rowCounts[shard])")
    }
    return rows
  }
}
