/// The dataset identifier of a format version 2 header (`blob-format.md` §3):
/// the dataset's name as UTF-8, zero-padded to ``size`` bytes; all zeros
/// when the blob names no dataset.
enum _DatasetField {
  /// The field's size in bytes, and the longest name it holds.
  static let size = BlobLimits.maxDatasetBytes
  /// Where the field starts in a version 2 header.
  static let offset = 104

  /// Throws unless `name` fits the field.
  /// - Throws: `BlobError.datasetTooLong` or `BlobError.datasetContainsNUL`.
  static func validate(_ name: String) throws(BlobError) {
    let count = name.utf8.count
    guard count <= size else { throw BlobError.datasetTooLong(byteCount: count) }
    guard !name.utf8.contains(0) else { throw BlobError.datasetContainsNUL }
  }

  /// Appends the field for a name checked with ``validate(_:)``.
  static func append(_ name: String, to out: inout [UInt8]) {
    let bytes = Array(name.utf8.prefix(size))
    out.append(contentsOf: bytes)
    out.append(contentsOf: repeatElement(0, count: size - bytes.count))
  }

  /// Decodes the field.
  /// - Parameter bytes: Exactly ``size`` bytes.
  /// - Throws: `BlobError.corrupt` for invalid UTF-8, or a nonzero byte
  ///   after the first zero byte (a name holding NUL, or dirty padding).
  static func decode(_ bytes: UnsafeRawBufferPointer) throws(BlobError) -> String {
    let length = bytes.firstIndex(of: 0) ?? bytes.count
    guard bytes[length...].allSatisfy({ $0 == 0 }) else {
      throw BlobError.corrupt("dataset identifier has nonzero bytes after its end")
    }
    let name = Array(bytes[..<length])
    guard let text = _LabelStore.decodeUTF8(name) else {
      throw BlobError.corrupt("dataset identifier is not valid utf-8")
    }
    return text
  }
}
