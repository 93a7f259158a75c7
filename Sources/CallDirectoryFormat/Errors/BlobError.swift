import CalldirSystem

/// Errors thrown while writing, reading or verifying a call directory blob.
///
/// Every public reading and writing API of the module throws this type
/// (`throws(BlobError)`), so callers switch on it without casting. Every
/// decoding path reports bad input through it; readers never trap on a
/// damaged or hostile file.
public enum BlobError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The file does not start with the `CDIR` magic.
  case badMagic
  /// The format version is not one this reader understands.
  case unsupportedVersion(UInt16)
  /// The blob kind byte is neither full (1) nor delta (2).
  case unsupportedKind(UInt8)
  /// The data ends before the named section is complete.
  case truncated(section: BlobSection)
  /// A CRC-32C over the named section (or the header) does not match.
  case checksumMismatch(section: BlobSection)
  /// The data is structurally invalid; the message says where and why.
  case corrupt(String)
  /// An operation needs a blob of another kind.
  case wrongKind(expected: BlobKind, actual: BlobKind)
  /// A delta does not apply to the given base snapshot.
  case baseMismatch(String)
  /// A recomputed content digest differs from the recorded one.
  case digestMismatch(expected: ContentDigest, actual: ContentDigest)
  /// A number is outside `1...CXCallDirectoryPhoneNumberMax` (`Int64.max - 1`).
  case numberOutOfRange(section: BlobSection, number: Int64)
  /// A number is smaller than the one before it in the same list.
  case outOfOrder(section: BlobSection, previous: Int64, number: Int64)
  /// A number repeats the one before it in the same list.
  case duplicateEntry(section: BlobSection, number: Int64)
  /// A label id is not an index into the label dictionary.
  case unknownLabel(id: UInt32, labelCount: Int)
  /// The label dictionary holds the same label twice (compared byte-wise).
  case duplicateLabel(String)
  /// A label's UTF-8 encoding exceeds ``BlobLimits/maxLabelBytes``.
  case labelTooLong(byteCount: Int)
  /// The label dictionary exceeds the 32-bit offsets of the format.
  case labelDictionaryTooLarge
  /// A dataset name's UTF-8 encoding exceeds ``BlobLimits/maxDatasetBytes``.
  case datasetTooLong(byteCount: Int)
  /// A dataset name contains a NUL character, which the header's
  /// zero-padded dataset field cannot hold.
  case datasetContainsNUL
  /// Two blobs of different datasets were combined (a delta between them,
  /// or a delta on another dataset's snapshot).
  case datasetMismatch(expected: String, actual: String)
  /// The API was used in an order the format cannot express.
  case misuse(String)
  /// A file operation failed: what was done, to which path, and the
  /// ``Errno`` (``FileError/errno``), as the system layer reports it.
  case io(FileError)

  /// A lowercase, human-readable message.
  public var description: String {
    switch self {
    case .badMagic:
      return "bad magic: not a call directory blob"
    case .unsupportedVersion(let version):
      return "unsupported blob format version \(version)"
    case .unsupportedKind(let kind):
      return "unsupported blob kind \(kind)"
    case .truncated(let section):
      return "blob truncated in \(section) section"
    case .checksumMismatch(let section):
      return "checksum mismatch in \(section) section"
    case .corrupt(let message):
      return "corrupt blob: \(message)"
    case .wrongKind(let expected, let actual):
      return "expected a \(expected) blob but found a \(actual) blob"
    case .baseMismatch(let message):
      return "delta does not apply: \(message)"
    case .digestMismatch(let expected, let actual):
      return "content digest mismatch: expected \(expected), computed \(actual)"
    case .numberOutOfRange(let section, let number):
      return "number \(number) in \(section) is outside 1...\(Int64.max - 1)"
    case .outOfOrder(let section, let previous, let number):
      return "numbers out of order in \(section): \(number) after \(previous)"
    case .duplicateEntry(let section, let number):
      return "duplicate number \(number) in \(section)"
    case .unknownLabel(let id, let labelCount):
      return "unknown label id \(id) (dictionary has \(labelCount) labels)"
    case .duplicateLabel(let label):
      return "duplicate label \"\(label)\" in label dictionary"
    case .labelTooLong(let byteCount):
      return "label of \(byteCount) utf-8 bytes exceeds the limit of \(BlobLimits.maxLabelBytes)"
    case .labelDictionaryTooLarge:
      return "label dictionary exceeds 4 gib of text or 2^32-1 labels"
    case .datasetTooLong(let byteCount):
      return "dataset name of \(byteCount) utf-8 bytes exceeds the limit of \(BlobLimits.maxDatasetBytes)"
    case .datasetContainsNUL:
      return "dataset name contains a nul character"
    case .datasetMismatch(let expected, let actual):
      return "the blob is of dataset '\(actual)', not '\(expected)'"
    case .misuse(let message):
      return "invalid use: \(message)"
    case .io(let error):
      return error.description
    }
  }
}

extension BlobError {
  /// The ``Errno`` of an I/O failure, `nil` for any other error.
  public var errno: Errno? {
    if case .io(let error) = self { return error.errno }
    return nil
  }
}

/// Limits of the blob format (the same in versions 1 and 2, except that
/// only version 2 stores a dataset name), enforced by writers and readers.
public enum BlobLimits {
  /// The largest number a list may hold: `CXCallDirectoryPhoneNumberMax`.
  public static let maxNumber: Int64 = Int64.max - 1
  /// The largest label, in UTF-8 bytes.
  public static let maxLabelBytes = 4096
  /// The largest frame payload, in bytes.
  public static let maxFramePayload = 65_536
  /// The most entries in a bitmap or Elias–Fano block.
  public static let maxBlockEntries = 2048
  /// The widest bitmap block, in bits (numbers spanned).
  public static let maxBitmapSpan = 65_536
  /// The longest dataset name, in UTF-8 bytes (format version 2).
  public static let maxDatasetBytes = 64
}
