import CalldirSystem

/// One number as a source wrote it, with its optional label and origin.
///
/// Readers never normalize: `number` is the raw text of the record with
/// surrounding whitespace and comments removed, exactly as it appears in the
/// source (for example `+359 88 320 6437` or `(555) 123-4567`).
public struct SourceRecord: Sendable, Hashable {
  /// The raw number text, trimmed, as written in the source.
  public var number: String
  /// The label (caller name) given by the source, or `nil` when there is none.
  public var label: String?
  /// The 1-based physical line where the record starts.
  public var line: Int
  /// The raw text of the range's last number when the record is an
  /// inclusive range from `number` to it (delimited `rangeStart`/`rangeEnd`).
  public var rangeEnd: String?
  /// The region the record's national numbers are read in, when the
  /// source gives one per row (`regionColumn`); nil: the source's region.
  public var region: String?
  /// The date of the report, when the source has a `dateColumn`.
  public var day: CalendarDay?
  /// For a wildcard block (`0621 123XXX` with `"wildcard": "X"`), how many
  /// trailing digits its wildcards stood for: `number` and `rangeEnd` are
  /// then the block's first and last number. 0 otherwise.
  public var wildcardDigits: Int

  /// Creates a record.
  public init(
    number: String, label: String? = nil, line: Int, rangeEnd: String? = nil, region: String? = nil,
    day: CalendarDay? = nil, wildcardDigits: Int = 0
  ) {
    self.wildcardDigits = wildcardDigits
    self.number = number
    self.label = label
    self.line = line
    self.rangeEnd = rangeEnd
    self.region = region
    self.day = day
  }
}

/// A borrowed view of one record, valid only inside the reader's callback.
///
/// `RawRecord` lets the compiler look at a record without allocating: the
/// byte views point into the reader's buffer and are **invalid once the
/// callback returns**. Both views are valid UTF-8 (readers reject lines that
/// are not). Use ``number`` / ``label`` or ``makeRecord()`` to copy.
public struct RawRecord {
  /// The 1-based physical line where the record starts.
  public let line: Int
  /// The UTF-8 bytes of the raw, trimmed number text.
  public let numberBytes: UnsafeBufferPointer<UInt8>
  /// The UTF-8 bytes of the trimmed label, or `nil` when there is none or it
  /// is empty.
  public let labelBytes: UnsafeBufferPointer<UInt8>?
  /// The bytes of the whole record as read (its line or lines, without the
  /// final line ending; any bytes, not only UTF-8), for the rejects report;
  /// `nil` when the reader keeps none, and then the number is shown.
  public let textBytes: UnsafeBufferPointer<UInt8>?
  /// The UTF-8 bytes of the range's last number, trimmed, when the record
  /// is an inclusive range from ``numberBytes`` to it.
  public let rangeEndBytes: UnsafeBufferPointer<UInt8>?
  /// The region for this record's national numbers (two uppercase
  /// letters), when the source gives one per row; nil: the source's.
  public let region: String?
  /// The date of the report, when the source has a `dateColumn`.
  public let day: CalendarDay?
  /// For a wildcard block (``CellRules``), how many trailing digits its
  /// wildcards stood for: ``numberBytes`` and ``rangeEndBytes`` are then
  /// the block's first and last number. 0 otherwise.
  public let wildcardDigits: Int

  /// Creates a view; the buffers must stay valid while the view is used.
  public init(
    line: Int,
    numberBytes: UnsafeBufferPointer<UInt8>,
    labelBytes: UnsafeBufferPointer<UInt8>? = nil,
    textBytes: UnsafeBufferPointer<UInt8>? = nil,
    rangeEndBytes: UnsafeBufferPointer<UInt8>? = nil,
    region: String? = nil,
    day: CalendarDay? = nil,
    wildcardDigits: Int = 0
  ) {
    self.wildcardDigits = wildcardDigits
    self.line = line
    self.numberBytes = numberBytes
    self.labelBytes = labelBytes
    self.textBytes = textBytes
    self.rangeEndBytes = rangeEndBytes
    self.region = region
    self.day = day
  }

  /// The same record with other number texts (a rewritten prefix, a
  /// piece of a cell).
  func replacing(
    numberBytes: UnsafeBufferPointer<UInt8>, rangeEndBytes: UnsafeBufferPointer<UInt8>?, wildcardDigits: Int? = nil
  ) -> RawRecord {
    RawRecord(
      line: line, numberBytes: numberBytes, labelBytes: labelBytes, textBytes: textBytes,
      rangeEndBytes: rangeEndBytes, region: region, day: day, wildcardDigits: wildcardDigits ?? self.wildcardDigits)
  }

  /// The record's text as the rejects report shows it (escaped, at most
  /// 120 characters).
  public var reportedText: String {
    _LineText.escaped(textBytes ?? numberBytes)
  }

  /// The number text, copied into a `String`.
  public var number: String {
    String(decoding: numberBytes, as: UTF8.self)
  }

  /// The label text, copied into a `String`, or `nil`.
  public var label: String? {
    labelBytes.map { String(decoding: $0, as: UTF8.self) }
  }

  /// Copies the view into an owned ``SourceRecord``.
  public func makeRecord() -> SourceRecord {
    SourceRecord(
      number: number, label: label, line: line,
      rangeEnd: rangeEndBytes.map { String(decoding: $0, as: UTF8.self) }, region: region, day: day,
      wildcardDigits: wildcardDigits)
  }
}

@available(*, unavailable)
extension RawRecord: Sendable {}
