import CalldirSystem
import Sodium

/// One shard's rows as its input file holds them: sorted by keyword bytes
/// (so the same rows always give the same bytes), national keywords two
/// numbers share left out, and a padding row when nothing else is left.
struct ShardRows {
  let useCase: UseCaseKind
  let shard: Int
  /// The rows kept, in keyword order.
  private(set) var rows: [ScratchRow] = []
  /// Their keywords, one after another; row `i`'s is `keywords[starts[i]..<starts[i + 1]]`.
  private(set) var keywords: [UInt8] = []
  private(set) var starts: [Int] = [0]
  /// The padding row's keyword, when the shard would otherwise be empty.
  private(set) var padding: [UInt8]?
  /// Rows kept per form.
  private(set) var e164Rows = 0
  private(set) var nationalRows = 0
  /// Numbers whose national keyword another number of the use case shares:
  /// neither gets that row.
  private(set) var sharedNational = 0

  /// Every row the input holds, padding included.
  var rowCount: Int { rows.count + (padding == nil ? 0 : 1) }

  /// Sorts `scratch` by keyword, leaves out shared national keywords, pads
  /// an empty shard.
  init(useCase: UseCaseKind, shard: Int, shardCount: Int, scratch: [ScratchRow]) throws(LiveCallerIDExportError) {
    self.useCase = useCase
    self.shard = shard
    var flat: [UInt8] = []
    var offsets: [Int] = [0]
    flat.reserveCapacity(scratch.count * 13)
    offsets.reserveCapacity(scratch.count + 1)
    for row in scratch {
      switch row.form {
      case .e164:
        Keyword.appendE164(row.number, to: &flat)
      case .national:
        flat += row.nationalDigits
      }
      offsets.append(flat.count)
    }
    var order = Array(scratch.indices)
    flat.withUnsafeBufferPointer { bytes in
      func compare(_ left: Int, _ right: Int) -> Bool {
        let a = UnsafeBufferPointer(rebasing: bytes[offsets[left]..<offsets[left + 1]])
        let b = UnsafeBufferPointer(rebasing: bytes[offsets[right]..<offsets[right + 1]])
        return a.lexicographicallyPrecedes(b)
      }
      order.sort(by: compare)
    }
    var index = 0
    while index < order.count {
      let first = order[index]
      let keyword = flat[offsets[first]..<offsets[first + 1]]
      var end = index + 1
      while end < order.count, flat[offsets[order[end]]..<offsets[order[end] + 1]].elementsEqual(keyword) { end += 1 }
      if end - index > 1 {
        // Numbers are unique in a use case, so only a national form can
        // repeat: two numbers of different countries with one national
        // text. A phone could not tell which caller it is.
        guard order[index..<end].allSatisfy({ scratch[$0].form == .national }) else {
          throw .internalError("keyword \(String(decoding: keyword, as: UTF8.self)) appears twice in \(useCase.rawValue)")
        }
        sharedNational += end - index
      } else {
        let row = scratch[first]
        rows.append(row)
        keywords += keyword
        starts.append(keywords.count)
        if row.form == .e164 { e164Rows += 1 } else { nationalRows += 1 }
      }
      index = end
    }
    if rows.isEmpty { padding = Self.paddingKeyword(shard: shard, shardCount: shardCount) }
  }

  /// The first `pad-<shard>-<n>` (n = 0, 1, …) that hashes into `shard`:
  /// it starts with neither `+` nor a digit, so no phone ever asks for it.
  static func paddingKeyword(shard: Int, shardCount: Int) -> [UInt8] {
    var attempt = 0
    while true {
      let keyword = Array("pad-\(shard)-\(attempt)".utf8)
      if KeywordSharding.shard(of: keyword, shardCount: shardCount) == shard { return keyword }
      attempt += 1
    }
  }

  /// The keyword of kept row `index`.
  func keyword(_ index: Int) -> ArraySlice<UInt8> { keywords[starts[index]..<starts[index + 1]] }

  /// What encoding the shard gave.
  struct Encoded {
    var bytes = 0
    var sha256: [UInt8] = []
    var load = CuckooSizing.ShardLoad()
  }

  /// Encodes the shard's `KeywordDatabase`, handing it to `sink` piece by
  /// piece; the value of each row comes from `value`, the padding row's is
  /// `paddingValue`.
  func encode(
    value: (ScratchRow) throws(LiveCallerIDExportError) -> [UInt8], paddingValue: [UInt8],
    into sink: (UnsafeRawBufferPointer) throws(LiveCallerIDExportError) -> Void
  ) throws(LiveCallerIDExportError) -> Encoded {
    var encoded = Encoded()
    var hasher = SodiumSHA256()
    var buffer: [UInt8] = []
    buffer.reserveCapacity(1 << 16)
    func emit() throws(LiveCallerIDExportError) {
      var failure: LiveCallerIDExportError?
      buffer.withUnsafeBytes { raw in
        hasher.update(raw)
        do throws(LiveCallerIDExportError) {
          try sink(raw)
        } catch {
          failure = error
        }
      }
      if let failure { throw failure }
      encoded.bytes += buffer.count
      buffer.removeAll(keepingCapacity: true)
    }
    for index in rows.indices {
      let rowValue = try value(rows[index])
      encoded.load.add(valueSize: rowValue.count)
      KeywordDatabase.appendRow(keyword: keyword(index), value: rowValue, to: &buffer)
      if buffer.count >= 1 << 16 { try emit() }
    }
    if let padding {
      encoded.load.add(valueSize: paddingValue.count)
      KeywordDatabase.appendRow(keyword: padding, value: paddingValue, to: &buffer)
    }
    try emit()
    encoded.sha256 = hasher.finalize()
    return encoded
  }
}
