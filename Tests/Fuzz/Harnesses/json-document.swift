import CallDirectoryCompiler
import CallDirectorySources
import CalldirSystem

/// Fuzzes the streaming JSON tokenizer and the `json` source reader.
///
/// The tokenizer, refilled `chunkSize` bytes at a time, must agree with
/// `JSONParser` on the same document: a document the parser accepts it
/// accepts too, with the same values (numbers compared by value); one the
/// parser refuses it refuses at the same line and column for the same
/// reason (but for what only the parser checks: duplicate keys, numbers
/// past `Double`). The reader (`SourceFormatRegistry.standard["json"]`)
/// must count its events in its summary, give only records with a number,
/// and stop only with a `SourceError`.
///
/// Input: the option bytes `JSONDocumentOptions` decodes, then the document.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  var input = FuzzInput(data, size)
  let options = JSONDocumentOptions(&input)
  let document = input.rest

  // The tokenizer against the parser.
  var parsed: Result<JSONValue, JSONParseError>
  do {
    parsed = .success(try JSONParser(maxDepth: options.maxDepth).parse(document))
  } catch {
    parsed = .failure(error)
  }
  var start = 0
  if document.starts(with: [0xEF, 0xBB, 0xBF]) { start = 3 }
  let window = JSONMemoryWindow(Array(document[start...]), chunkSize: options.chunkSize)
  let tokenizer = JSONTokenizer(window: window, maxDepth: options.maxDepth)
  var streamed: Result<JSONNode?, JSONParseError>
  do {
    let value = try tokenizer.nextValue()
    while try tokenizer.next() != nil {}
    streamed = .success(value)
  } catch let error as JSONParseError {
    streamed = .failure(error)
  } catch {
    fuzzCheck(false, "the tokenizer threw \(error)")
    return 0
  }
  switch (parsed, streamed) {
  case (.success(let value), .success(let node?)):
    fuzzCheck(same(node, value), "the tokenizer read \(node.compactText), the parser \(value.serialized())")
  case (.success(let value), _):
    fuzzCheck(false, "the tokenizer refused \(value.serialized()): \(streamed)")
  case (.failure(let error), _):
    switch error.reason {
    case .duplicateKey, .numberOutOfRange: break
    default:
      // Lines and columns count from after a byte-order mark in both.
      if case .failure(let other) = streamed {
        fuzzCheck(other == error, "the parser refused at \(error), the tokenizer at \(other)")
      } else {
        fuzzCheck(false, "the tokenizer accepted what the parser refused at \(error)")
      }
    }
  }

  // The reader.
  guard let format = SourceFormatRegistry.standard["json"],
    let reader = try? format.makeReader(input: .bytes(document), options: options.sourceOptions)
  else {
    fuzzCheck(false, "the json format refuses \(options.sourceOptions)")
    return 0
  }
  var seen = SourceSummary()
  do {
    let summary = try reader.read { event in
      switch event {
      case .record(let record):
        _ = record.makeRecord()
        _ = record.reportedText
        fuzzCheck(record.numberBytes.count > 0, "a json record without a number")
        fuzzCheck(record.line >= 1, "a json record at line \(record.line)")
        seen.records += 1
      case .range(let range):
        _ = range.range.count
        seen.ranges += 1
      case .issue(let issue):
        _ = issue.description
        seen.issues += 1
      }
    }
    fuzzCheck(
      (summary.records, summary.ranges, summary.issues) == (seen.records, seen.ranges, seen.issues),
      "the json summary \(summary) does not count its events \(seen)")
  } catch let error as SourceError {
    _ = error.description
  } catch {
    fuzzCheck(false, "the json reader threw \(error)")
  }
  return 0
}

/// Whether the tokenizer's node holds the parser's value.
private func same(_ node: JSONNode, _ value: JSONValue) -> Bool {
  switch (node.value, value) {
  case (.null, .null): return true
  case (.bool(let a), .bool(let b)): return a == b
  case (.string(let a), .string(let b)): return a == b
  case (.number(let text), .int(let number)): return Int64(text) == number
  case (.number(let text), .double(let number)): return Double(text) == number
  case (.array(let elements), .array(let values)):
    return elements.count == values.count && zip(elements, values).allSatisfy { same($0, $1) }
  case (.object(let members), .object(let pairs)):
    return members.count == pairs.count
      && zip(members, pairs).allSatisfy { $0.key == $1.key && same($0.value, $1.value) }
  default: return false
  }
}
