import CallDirectoryFormat
import CalldirSystem

/// Why an input could not be validated at all (as opposed to the
/// ``Violation``s found in a readable input).
public enum ValidationError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The input cannot be opened or read: it is missing, a directory, a
  /// symbolic link loop, unreadable, or a read failed part way. The
  /// ``FileError`` names the path, the operation and the ``Errno``.
  case cannotRead(FileError)
  /// A blob arrived on a pipe, FIFO or terminal and is larger than
  /// ``ValidationOptions/maxSpooledBlobBytes``: a blob is read at random
  /// offsets, so one that is not a regular file is copied to a temporary
  /// file first, up to that bound.
  case blobTooLargeToSpool(name: String, limit: Int)
  /// The temporary file a blob from a pipe is copied to cannot be made or
  /// written (``ValidationOptions/spoolDirectory`` missing or read-only, a
  /// full disk).
  case cannotSpool(FileError)
  /// The input starts with the `CDIR` magic but is not a valid blob:
  /// corrupt, truncated, a checksum or digest mismatch.
  case invalidBlob(path: String, BlobError)

  /// Whether the input is missing or not a readable file (sysexits
  /// `EX_NOINPUT`): `ENOENT`, `ENOTDIR`, `EISDIR`, `ELOOP`, `EACCES`.
  public var isMissingInput: Bool {
    if case .cannotRead(let error) = self { return error.errno.isMissingInput }
    return false
  }

  /// A lowercase, one-line message.
  public var description: String {
    switch self {
    case .cannotRead(let error):
      return error.description
    case .blobTooLargeToSpool(let name, let limit):
      return "\(name): a blob that is not a regular file is copied to a temporary file first, "
        + "and this one exceeds \(limit) bytes; pass it as a regular file"
    case .cannotSpool(let error):
      return "cannot copy a blob that is not a regular file to a temporary file: \(error)"
    case .invalidBlob(let path, let error):
      return "\(path): \(error)"
    }
  }
}

extension ValidationError {
  /// A blob's error: an I/O failure is ``cannotRead(_:)``, anything else
  /// ``invalidBlob(path:_:)``.
  init(_ error: BlobError, path: String) {
    if case .io(let file) = error {
      self = .cannotRead(file)
    } else {
      self = .invalidBlob(path: path, error)
    }
  }
}
