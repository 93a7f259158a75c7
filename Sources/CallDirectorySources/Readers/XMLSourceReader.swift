import CLibXML2
import CallDirectoryFormat
import CalldirSystem

/// Reads `xml` sources through libxml2's streaming reader: every element the
/// ``records`` pattern matches is one record, and every node its ``number``
/// XPath selects in it is a number, labelled with the text its ``label``
/// XPath selects.
///
///     <phonebooks><phonebook name="Telefonbuch">
///       <contact>
///         <person><realName>Spam GmbH</realName></person>
///         <telephony><number type="work">+4930123456</number>
///                    <number type="mobile">0171 2345678</number></telephony>
///       </contact>
///     </phonebook></phonebooks>
///
/// with `records: //contact`, `number: telephony/number` and
/// `label: person/realName` gives two records labelled `Spam GmbH`.
///
/// # Rules
///
/// - The document streams: memory is held by the record being read (its
///   element is expanded, its XPaths evaluated, then freed), never by the
///   file. ``records`` is therefore one of libxml2's streamable patterns
///   (``recordPattern(_:)``); ``number`` and ``label`` are any XPath 1.0
///   expression, evaluated with the record element as context node.
/// - A `number` that selects several nodes gives one record per node, all
///   with the record's label; a string (`concat(…)`) gives one. A node's
///   text (its string value: entities and character references decoded) is
///   trimmed; an empty one is no record (FRITZ!Box writes empty slots).
/// - A record's line is that of the element holding the number (the
///   selected element, an attribute's or text node's element).
/// - The label is the first selected node with non-empty text.
/// - A number that starts with `**` (`**610`: what a FRITZ!Box or another
///   phone system dials to reach one of its own extensions) is an issue,
///   `an internal number`.
/// - The encoding comes from the document (byte-order mark, XML
///   declaration: UTF-8, UTF-16, ISO-8859-1, …), unless ``encoding`` names
///   one.
///
/// # Refusals (``SourceError/invalidDocument(path:line:reason:)``)
///
/// A document that is not well-formed (libxml2's message and line); one
/// that declares an external entity or references an entity it does not
/// declare (nothing outside the file is ever read, and no network is
/// touched: `XML_PARSE_NONET`, never `NOENT`, `DTDLOAD`, `DTDATTR` or
/// `XINCLUDE`); entity expansion beyond ``maximumEntityExpansion``; a
/// record element larger than ``maximumRecordBytes``.
public struct XMLSourceReader: SourceReader {
  /// Where the bytes come from.
  public var input: SourceInput
  /// The streamable pattern that selects record elements (`//contact`).
  public var records: String
  /// The XPath, relative to a record, of its numbers (`telephony/number`).
  public var number: String
  /// The XPath, relative to a record, of its label (`person/realName`).
  public var label: String?
  /// The document's encoding when it does not say (no declaration);
  /// nil: what the document declares, else UTF-8.
  public var encoding: String?
  package var _chunkSize = 1 << 16

  /// The most bytes of the file one record element may span.
  public static let maximumRecordBytes = 1 << 20
  /// The most bytes entity references may add to one record's text, and to
  /// a whole document's (there: this, or the document's own size if it is
  /// larger). One entity's replacement text is held to it too.
  public static let maximumEntityExpansion = 1 << 20

  /// Creates a reader, checking the three expressions.
  ///
  /// - Throws: ``SourceOptionError`` for `records` that is not a
  ///   streamable pattern and for `number` or `label` that is not an XPath
  ///   libxml2 compiles and evaluates.
  public init(
    input: SourceInput, records: String, number: String, label: String? = nil, encoding: String? = nil
  ) throws(SourceOptionError) {
    self.input = input
    self.records = records
    self.number = number
    self.label = label
    self.encoding = encoding
    _xmlPrepare()
    xmlFreePattern(try Self.recordPattern(records))
    let probe = try _XPathProbe()
    try probe.check(number, key: "number")
    if let label { try probe.check(label, key: "label") }
  }

  /// `text` compiled as a streamable pattern (free it with
  /// `xmlFreePattern`).
  ///
  /// - Throws: ``SourceOptionError`` on key `records` when libxml2's
  ///   pattern compiler refuses it or cannot stream it.
  static func recordPattern(_ text: String) throws(SourceOptionError) -> OpaquePointer {
    let forms =
      "records must be a streamable pattern: a path of element names from the root "
      + "(/phonebooks/phonebook/contact), or one under a '//' step (//contact, //phonebook/contact), "
      + "'*' for any element, alternatives joined by '|'; no predicates, functions, attributes or other axes"
    guard !text.isEmpty, !text.utf8.contains(0), !text.contains("@"), !text.contains("::") else {
      throw SourceOptionError(key: "records", reason: "'\(text)' is not a pattern; \(forms)")
    }
    guard let pattern = text.withCString({ xmlPatterncompile(UnsafeRawPointer($0).assumingMemoryBound(to: xmlChar.self), nil, 0, nil) })
    else {
      throw SourceOptionError(key: "records", reason: "libxml2 cannot compile '\(text)' as a pattern; \(forms)")
    }
    guard xmlPatternStreamable(pattern) == 1 else {
      xmlFreePattern(pattern)
      throw SourceOptionError(key: "records", reason: "'\(text)' cannot be matched while streaming; \(forms)")
    }
    return pattern
  }

  /// Reads the source; see ``SourceReader/read(_:)``.
  public func read(_ body: (SourceEvent) throws -> Void) throws -> SourceSummary {
    _xmlPrepare()
    let state = try openInput()
    let path = state.input.name
    let pattern: OpaquePointer
    do {
      pattern = try Self.recordPattern(records)
    } catch {
      throw SourceError.invalidDocument(path: path, line: nil, reason: "records: \(error.reason)")
    }
    defer { xmlFreePattern(pattern) }
    let reader = try textReader(state: state, path: path)
    defer { xmlFreeTextReader(reader) }
    let evaluator = try _XPathEvaluator(number: number, label: label, state: state, path: path)
    var summary = SourceSummary()
    let status = try readRecords(
      reader, matching: pattern, state: state, evaluator: evaluator, path: path, summary: &summary, body)
    try state.throwRefusal(path: path)
    if status != 0 {
      throw SourceError.invalidDocument(
        path: path, line: Int(xmlTextReaderGetParserLineNumber(reader)), reason: "malformed xml")
    }
    // The parser's line is the one after the last line break: a file that
    // ends in one has one line less.
    summary.physicalLines = Int(xmlTextReaderGetParserLineNumber(reader)) - (state.endsInLineBreak ? 1 : 0)
    summary.bytes = state.input.bytesRead
    summary.checksum = state.crc.value
    return summary
  }

  /// The read state over the source's bytes.
  private func openInput() throws(SourceError) -> _XMLReadState {
    do {
      switch input {
      case .file(let path): return _XMLReadState(try ChunkedInput(.path(path), chunkSize: _chunkSize))
      case .bytes(let bytes): return _XMLReadState(try ChunkedInput(.bytes(bytes), chunkSize: _chunkSize))
      }
    } catch {
      throw SourceError.file(error)
    }
  }

  /// libxml2's streaming reader over `state`'s bytes, its errors reported
  /// to `state`; the caller frees it.
  private func textReader(state: _XMLReadState, path: String) throws(SourceError) -> OpaquePointer {
    let context = Unmanaged.passUnretained(state).toOpaque()
    let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_BIG_LINES.rawValue)
    guard
      let reader = path.withCString({ url in
        encoding.withOptionalCString { encodingName in
          xmlReaderForIO(_xmlRead, nil, context, url, encodingName, options)
        }
      })
    else {
      if let error = state.readError { throw SourceError.file(error) }
      throw SourceError.invalidDocument(path: path, line: nil, reason: "libxml2 cannot start reading the document")
    }
    xmlTextReaderSetStructuredErrorHandler(reader, _xmlReaderError, context)
    return reader
  }

  /// Walks the document's elements, expands each one `pattern` matches
  /// and hands it to `evaluator`, skipping its subtree; returns the
  /// reader's last status (0 at the end of the document).
  private func readRecords(
    _ reader: OpaquePointer, matching pattern: OpaquePointer, state: _XMLReadState, evaluator: _XPathEvaluator,
    path: String, summary: inout SourceSummary, _ body: (SourceEvent) throws -> Void
  ) throws -> Int32 {
    var checkedDeclarations = false
    var status = xmlTextReaderRead(reader)
    while status == 1 {
      try state.throwRefusal(path: path)
      guard xmlTextReaderNodeType(reader) == Int32(XML_READER_TYPE_ELEMENT.rawValue),
        let node = xmlTextReaderCurrentNode(reader)
      else {
        status = xmlTextReaderRead(reader)
        continue
      }
      if !checkedDeclarations {
        checkedDeclarations = true
        try state.checkDeclarations(of: node.pointee.doc, path: path)
      }
      guard xmlPatternMatch(pattern, node) == 1 else {
        status = xmlTextReaderRead(reader)
        continue
      }
      let line = _xmlLine(node)
      state.recordStart = state.fed
      let expanded = xmlTextReaderExpand(reader)
      state.recordStart = nil
      if state.recordTooLarge {
        throw SourceError.invalidDocument(
          path: path, line: line,
          reason: "record element <\(_xmlName(node))> is larger than \(Self.maximumRecordBytes) bytes "
            + "(select smaller elements with 'records')")
      }
      try state.throwRefusal(path: path)
      guard let record = expanded else { break }
      try state.chargeEntities(in: record, path: path, line: line)
      try evaluator.evaluate(record: record, line: line, summary: &summary, body)
      status = xmlTextReaderNext(reader)
    }
    return status
  }
}

// MARK: - libxml2 set-up

/// libxml2's global set-up, done once: `xmlInitParser` (so readers on
/// several threads never race to initialize it), and an external entity
/// loader that loads nothing (a second lock on the door the parse options
/// already keep shut).
private let _xmlSetUp: Void = {
  xmlInitParser()
  xmlSetExternalEntityLoader(_xmlRefuseExternalEntity)
}()

/// libxml2 set up, and its generic messages silenced on this thread (the
/// structured handlers of each reader and XPath context get the rest).
func _xmlPrepare() {
  _ = _xmlSetUp
  calldir_xmlSilenceGenericErrors()
}

private let _xmlRefuseExternalEntity: xmlExternalEntityLoader = { _, _, _ in nil }

// MARK: - Input and errors

/// One read's input, checksum, record bound and the first refusal libxml2
/// or the checks reported; the read and error callbacks' context.
private final class _XMLReadState {
  let input: ChunkedInput
  var crc = CRC32C()
  /// Bytes handed to libxml2 so far.
  var fed = 0
  private var offset = 0
  /// ``fed`` when the current record's expansion began (nil outside one).
  var recordStart: Int?
  var recordTooLarge = false
  /// Whether the last byte handed to libxml2 was a line feed.
  var endsInLineBreak = false
  var readError: FileError?
  /// The first error that stops the document: its line (nil: none) and reason.
  var refusal: (line: Int?, reason: String)?
  /// Replacement text sizes by entity name (``checkDeclarations``).
  private var entitySizes: [String: Int] = [:]
  private var documentExpansion = 0

  init(_ input: ChunkedInput) {
    self.input = input
    input.onRead = { [unowned self] bytes in self.crc.update(bytes) }
  }

  /// Copies up to `count` bytes of the file into libxml2's buffer.
  func read(into buffer: UnsafeMutablePointer<CChar>, count: Int) -> Int32 {
    if let recordStart, fed - recordStart > XMLSourceReader.maximumRecordBytes {
      recordTooLarge = true
      return -1
    }
    if offset == input.end {
      if input.isEOF { return 0 }
      do {
        try input.refill(keepingFrom: input.end)
      } catch {
        readError = error
        return -1
      }
      offset = 0
      if input.end == 0 { return 0 }
    }
    let n = min(count, input.end - offset, 1 << 20)
    UnsafeMutableRawPointer(buffer).copyMemory(from: input.base + offset, byteCount: n)
    endsInLineBreak = input.base[offset + n - 1] == 0x0A
    offset += n
    fed += n
    return Int32(n)
  }

  /// Keeps the first error libxml2 reports that makes the document
  /// unusable: any error, and the warnings of an entity it cannot expand.
  func note(_ error: xmlError) {
    guard refusal == nil else { return }
    let code = xmlParserErrors(rawValue: UInt32(bitPattern: error.code))
    let undeclared = code == XML_WAR_UNDECLARED_ENTITY || code == XML_ERR_UNDECLARED_ENTITY
    guard error.level.rawValue >= XML_ERR_ERROR.rawValue || undeclared else { return }
    var message = error.message.map { String(cString: $0) } ?? "malformed xml"
    while let last = message.last, last.isWhitespace { message.removeLast() }
    if undeclared {
      message += " (an entity must be declared in the document itself: no external DTD is read)"
    } else if code == XML_ERR_ENTITY_LOOP {
      message += " (entity expansion is limited)"
    }
    refusal = (error.line > 0 ? Int(error.line) : nil, message)
  }

  func throwRefusal(path: String) throws(SourceError) {
    if let readError { throw .file(readError) }
    if let refusal { throw .invalidDocument(path: path, line: refusal.line, reason: refusal.reason) }
  }

  /// Refuses a document type that declares an external entity (general or
  /// parameter, SYSTEM or PUBLIC), and an entity whose replacement text,
  /// its references expanded, is longer than the bound; keeps the sizes.
  func checkDeclarations(of document: xmlDocPtr?, path: String) throws(SourceError) {
    guard let document, let subset = document.pointee.intSubset else { return }
    var entities: [xmlEntityPtr] = []
    withUnsafeMutablePointer(to: &entities) { list in
      for table in [subset.pointee.entities, subset.pointee.pentities] {
        guard let table else { continue }
        xmlHashScan(OpaquePointer(table), _xmlCollectEntity, list)
      }
    }
    entities.sort { _xmlString($0.pointee.name) < _xmlString($1.pointee.name) }
    for entity in entities {
      let type = entity.pointee.etype
      let isExternal =
        entity.pointee.SystemID != nil || entity.pointee.ExternalID != nil
        || (type != XML_INTERNAL_GENERAL_ENTITY && type != XML_INTERNAL_PARAMETER_ENTITY
          && type != XML_INTERNAL_PREDEFINED_ENTITY)
      if isExternal {
        let system = entity.pointee.SystemID.map { " SYSTEM \"\(_xmlString($0))\"" } ?? ""
        let kind = type == XML_EXTERNAL_PARAMETER_ENTITY ? "parameter entity '%" : "entity '"
        throw .invalidDocument(
          path: path, line: nil,
          reason: "the document type declares the external \(kind)\(_xmlString(entity.pointee.name))'\(system): "
            + "nothing outside the file is read")
      }
    }
    var visiting: Set<String> = []
    for entity in entities where entity.pointee.etype == XML_INTERNAL_GENERAL_ENTITY {
      let name = _xmlString(entity.pointee.name)
      if size(of: name, document: document, visiting: &visiting) > XMLSourceReader.maximumEntityExpansion {
        throw .invalidDocument(
          path: path, line: nil,
          reason: "entity '\(name)' expands to more than \(XMLSourceReader.maximumEntityExpansion) bytes "
            + "(entity expansion is limited)")
      }
    }
  }

  /// The length of an entity's replacement text with every reference in it
  /// expanded, stopping just past the bound (a loop counts as past it).
  private func size(of name: String, document: xmlDocPtr, visiting: inout Set<String>) -> Int {
    if let known = entitySizes[name] { return known }
    let limit = XMLSourceReader.maximumEntityExpansion + 1
    guard
      let entity = name.withCString({
        xmlGetDocEntity(document, UnsafeRawPointer($0).assumingMemoryBound(to: xmlChar.self))
      }),
      entity.pointee.etype == XML_INTERNAL_GENERAL_ENTITY, let content = entity.pointee.content
    else { return name.utf8.count + 2 }
    guard visiting.insert(name).inserted else { return limit }
    defer { visiting.remove(name) }
    let count = Int(entity.pointee.length)
    var total = 0
    var index = 0
    while index < count, total < limit {
      guard content[index] == 0x26 else {  // '&'
        total += 1
        index += 1
        continue
      }
      var end = index + 1
      while end < count, content[end] != 0x3B { end += 1 }  // ';'
      if index + 1 < count, content[index + 1] == 0x23 {  // '&#…;': one character
        total += 4
      } else {
        let reference = String(decoding: UnsafeBufferPointer(start: content + index + 1, count: end - index - 1), as: UTF8.self)
        total += ["lt", "gt", "amp", "apos", "quot"].contains(reference) ? 1 : size(of: reference, document: document, visiting: &visiting)
      }
      index = end + 1
    }
    let result = min(total, limit)
    entitySizes[name] = result
    return result
  }

  /// Adds up the replacement text of every entity reference in a record
  /// (elements, attributes), before any XPath can expand them: at most
  /// ``XMLSourceReader/maximumEntityExpansion`` bytes for the record, and
  /// for the document that or the bytes read, whichever is larger.
  func chargeEntities(in record: xmlNodePtr, path: String, line: Int) throws(SourceError) {
    var recordTotal = 0
    var visiting: Set<String> = []
    var stack: [xmlNodePtr] = [record]
    while let node = stack.popLast() {
      if node != record, let next = node.pointee.next { stack.append(next) }
      if node.pointee.type == XML_ENTITY_REF_NODE {
        if let document = node.pointee.doc {
          recordTotal += size(of: _xmlString(node.pointee.name), document: document, visiting: &visiting)
        }
        if recordTotal > XMLSourceReader.maximumEntityExpansion { break }
        continue
      }
      if node.pointee.type == XML_ELEMENT_NODE {
        var attribute = node.pointee.properties
        while let current = attribute {
          if let children = current.pointee.children { stack.append(children) }
          attribute = current.pointee.next
        }
      }
      if let child = node.pointee.children { stack.append(child) }
    }
    documentExpansion += recordTotal
    if recordTotal > XMLSourceReader.maximumEntityExpansion
      || documentExpansion > max(XMLSourceReader.maximumEntityExpansion, fed)
    {
      throw .invalidDocument(
        path: path, line: line,
        reason: "entity references expand to more than "
          + "\(recordTotal > XMLSourceReader.maximumEntityExpansion ? "\(XMLSourceReader.maximumEntityExpansion) bytes in this record" : "the document's own size")"
          + " (entity expansion is limited)")
    }
  }
}

private let _xmlRead: xmlInputReadCallback = { context, buffer, count in
  guard let context, let buffer, count > 0 else { return count == 0 ? 0 : -1 }
  return Unmanaged<_XMLReadState>.fromOpaque(context).takeUnretainedValue().read(into: buffer, count: Int(count))
}

private let _xmlReaderError: xmlStructuredErrorFunc = { context, error in
  guard let context, let error else { return }
  Unmanaged<_XMLReadState>.fromOpaque(context).takeUnretainedValue().note(error.pointee)
}

private let _xmlCollectEntity: xmlHashScanner = { payload, data, _ in
  guard let payload, let data else { return }
  data.assumingMemoryBound(to: [xmlEntityPtr].self).pointee.append(payload.assumingMemoryBound(to: xmlEntity.self))
}

// MARK: - XPath

/// Compiles and evaluates the `number` and `label` XPaths against records.
private final class _XPathEvaluator {
  private let context: xmlXPathContextPtr
  private let numberPath: OpaquePointer
  private let labelPath: OpaquePointer?
  private let number: String
  private let label: String?
  private let path: String
  private let errors = _XPathErrors()

  init(number: String, label: String?, state: _XMLReadState, path: String) throws(SourceError) {
    self.path = path
    guard let context = xmlXPathNewContext(nil) else {
      throw .invalidDocument(path: path, line: nil, reason: "libxml2 cannot create an xpath context")
    }
    self.context = context
    self.number = number
    self.label = label
    errors.install(on: context)
    guard let compiled = _xmlCompile(number, context) else {
      xmlXPathFreeContext(context)
      throw .invalidDocument(path: path, line: nil, reason: "number: \(errors.message ?? "invalid xpath")")
    }
    numberPath = compiled
    if let label {
      guard let compiled = _xmlCompile(label, context) else {
        xmlXPathFreeCompExpr(numberPath)
        xmlXPathFreeContext(context)
        throw .invalidDocument(path: path, line: nil, reason: "label: \(errors.message ?? "invalid xpath")")
      }
      labelPath = compiled
    } else {
      labelPath = nil
    }
  }

  deinit {
    xmlXPathFreeCompExpr(numberPath)
    if let labelPath { xmlXPathFreeCompExpr(labelPath) }
    xmlXPathFreeContext(context)
  }

  /// Delivers the record's numbers, labelled.
  func evaluate(
    record: xmlNodePtr, line: Int, summary: inout SourceSummary, _ body: (SourceEvent) throws -> Void
  ) throws {
    var labelText: [UInt8] = []
    if let labelPath {
      for value in try values(labelPath, key: "label", expression: label ?? "", record: record, line: line)
      where !value.text.isEmpty {
        labelText = value.text
        break
      }
    }
    for value in try values(numberPath, key: "number", expression: number, record: record, line: line)
    where !value.text.isEmpty {
      if value.text.starts(with: [0x2A, 0x2A]) {
        // `**610`: what a phone system (a FRITZ!Box) dials to reach one
        // of its own extensions, never a caller's number.
        summary.issues += 1
        try body(
          .issue(
            SourceIssue(
              line: value.line, reason: "an internal number ('**' dials an extension of the phone system)",
              text: value.shown.withUnsafeBufferPointer { _LineText.escaped($0) })))
        continue
      }
      summary.records += 1
      try value.text.withUnsafeBufferPointer { numberBytes in
        try labelText.withUnsafeBufferPointer { labelBytes in
          try value.shown.withUnsafeBufferPointer { textBytes in
            try body(
              .record(
                RawRecord(
                  line: value.line, numberBytes: numberBytes, labelBytes: labelBytes.isEmpty ? nil : labelBytes,
                  textBytes: textBytes)))
          }
        }
      }
    }
  }

  /// One selected value: its trimmed text, its element's line, and the
  /// element as written (for the rejects report).
  struct Value {
    var text: [UInt8]
    var line: Int
    var shown: [UInt8]
  }

  private func values(
    _ compiled: OpaquePointer, key: String, expression: String, record: xmlNodePtr, line: Int
  ) throws(SourceError) -> [Value] {
    context.pointee.doc = record.pointee.doc
    context.pointee.node = record
    errors.message = nil
    guard let result = xmlXPathCompiledEval(compiled, context) else {
      throw .invalidDocument(
        path: path, line: line,
        reason: "\(key) '\(expression)': \(errors.message ?? "cannot be evaluated")")
    }
    defer { xmlXPathFreeObject(result) }
    guard result.pointee.type == XPATH_NODESET else {
      guard let text = xmlXPathCastToString(result) else { return [] }
      defer { calldir_xmlFree(text) }
      return [Value(text: _xmlTrimmed(text), line: line, shown: _xmlShown(record))]
    }
    guard let set = result.pointee.nodesetval, set.pointee.nodeNr > 0, let nodes = set.pointee.nodeTab else { return [] }
    var values: [Value] = []
    for index in 0..<Int(set.pointee.nodeNr) {
      guard let node = nodes[index] else { continue }
      var holder = node
      if node.pointee.type != XML_ELEMENT_NODE, let parent = node.pointee.parent, parent.pointee.type == XML_ELEMENT_NODE {
        holder = parent
      }
      guard let content = xmlNodeGetContent(node) else { continue }
      defer { calldir_xmlFree(content) }
      values.append(Value(text: _xmlTrimmed(content), line: _xmlLine(holder), shown: _xmlShown(holder)))
    }
    return values
  }
}

/// The message of the first XPath error, from a context's handler.
private final class _XPathErrors {
  var message: String?

  func install(on context: xmlXPathContextPtr) {
    context.pointee.error = _xpathError
    context.pointee.userData = Unmanaged.passUnretained(self).toOpaque()
  }
}

private let _xpathError: xmlStructuredErrorFunc = { context, error in
  guard let context, let error else { return }
  let errors = Unmanaged<_XPathErrors>.fromOpaque(context).takeUnretainedValue()
  guard errors.message == nil else { return }
  // libxml2's XPath errors carry their code, not their message.
  let index = Int(error.pointee.code) - Int(XML_XPATH_EXPRESSION_OK.rawValue)
  var message =
    error.pointee.message.map { String(cString: $0) }
    ?? (_xpathErrorMessages.indices.contains(index) ? _xpathErrorMessages[index] : "invalid xpath")
  while let last = message.last, last.isWhitespace { message.removeLast() }
  if error.pointee.int1 > 0 { message += " at character \(error.pointee.int1 + 1)" }
  errors.message = _lowercasingFirst(message)
}

/// libxml2's messages for its XPath error codes, from
/// `XML_XPATH_EXPRESSION_OK` on (xpath.c's `xmlXPathErrorMessages`).
private let _xpathErrorMessages = [
  "Ok", "Number encoding", "Unfinished literal", "Start of literal", "Expected $ for variable reference",
  "Undefined variable", "Invalid predicate", "Invalid expression", "Missing closing curly brace",
  "Unregistered function", "Invalid operand", "Invalid type", "Invalid number of arguments", "Invalid context size",
  "Invalid context position", "Memory allocation error", "Syntax error", "Resource error", "Sub resource error",
  "Undefined namespace prefix", "Encoding error", "Char out of XML range", "Invalid or incomplete context",
  "Stack usage error", "Forbidden variable",
]

private func _xmlCompile(_ expression: String, _ context: xmlXPathContextPtr) -> OpaquePointer? {
  guard !expression.utf8.contains(0) else { return nil }
  return expression.withCString {
    xmlXPathCtxtCompile(context, UnsafeRawPointer($0).assumingMemoryBound(to: xmlChar.self))
  }
}

/// Checks `number` and `label` when a config is read: each must compile,
/// and evaluate on a small document (an unknown function or variable is
/// only found then).
private final class _XPathProbe {
  private let document: xmlDocPtr
  private let context: xmlXPathContextPtr
  private let errors = _XPathErrors()

  init() throws(SourceOptionError) {
    guard let document = xmlNewDoc(nil), let context = xmlXPathNewContext(document) else {
      throw SourceOptionError(key: "number", reason: "libxml2 cannot create an xpath context")
    }
    let root = xmlNewDocNode(document, nil, _xmlLiteral("record"), nil)
    xmlDocSetRootElement(document, root)
    self.document = document
    self.context = context
    context.pointee.node = root
    errors.install(on: context)
  }

  deinit {
    xmlXPathFreeContext(context)
    xmlFreeDoc(document)
  }

  func check(_ expression: String, key: String) throws(SourceOptionError) {
    errors.message = nil
    guard !expression.isEmpty else { throw SourceOptionError(key: key, reason: "must not be empty") }
    guard let compiled = _xmlCompile(expression, context) else {
      throw SourceOptionError(key: key, reason: "invalid xpath '\(expression)': \(errors.message ?? "libxml2 cannot compile it")")
    }
    defer { xmlXPathFreeCompExpr(compiled) }
    guard let result = xmlXPathCompiledEval(compiled, context) else {
      throw SourceOptionError(
        key: key, reason: "invalid xpath '\(expression)': \(errors.message ?? "libxml2 cannot evaluate it")")
    }
    xmlXPathFreeObject(result)
  }
}

// MARK: - Helpers

/// A node's line: an element's own (past 65,535 too, with
/// `XML_PARSE_BIG_LINES`), else its element's.
private func _xmlLine(_ node: xmlNodePtr) -> Int {
  let line = xmlGetLineNo(node)
  return line > 0 ? Int(line) : 0
}

private func _xmlName(_ node: xmlNodePtr) -> String { _xmlString(node.pointee.name) }

private func _xmlString(_ text: UnsafePointer<xmlChar>?) -> String {
  guard let text else { return "" }
  return String(cString: UnsafeRawPointer(text).assumingMemoryBound(to: CChar.self))
}

private func _xmlLiteral(_ text: StaticString) -> UnsafePointer<xmlChar> {
  UnsafeRawPointer(text.utf8Start).assumingMemoryBound(to: xmlChar.self)
}

/// `text` without the XML white space (space, tab, CR, LF) at its ends.
private func _xmlTrimmed(_ text: UnsafePointer<xmlChar>) -> [UInt8] {
  let count = Int(xmlStrlen(text))
  var lower = 0
  var upper = count
  func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
  while lower < upper, isSpace(text[lower]) { lower += 1 }
  while upper > lower, isSpace(text[upper - 1]) { upper -= 1 }
  return Array(UnsafeBufferPointer(start: text + lower, count: upper - lower))
}

/// The element as written (its start, up to the report's 120 characters),
/// for the rejects report.
private func _xmlShown(_ node: xmlNodePtr) -> [UInt8] {
  guard let buffer = xmlBufferCreate() else { return [] }
  defer { xmlBufferFree(buffer) }
  _ = xmlNodeDump(buffer, node.pointee.doc, node, 0, 0)
  guard let content = xmlBufferContent(buffer) else { return [] }
  let count = Int(xmlBufferLength(buffer))
  return Array(UnsafeBufferPointer(start: content, count: min(count, 4 * _LineText.maximumCharacters)))
}

extension Optional where Wrapped == String {
  fileprivate func withOptionalCString<R>(_ body: (UnsafePointer<CChar>?) -> R) -> R {
    switch self {
    case .some(let text): return text.withCString { body($0) }
    case .none: return body(nil)
    }
  }
}
extension XMLSourceReader: _ChunkSizeAdjustable {}
