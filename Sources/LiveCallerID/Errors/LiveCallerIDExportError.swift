import CallDirectoryCompiler
import CallDirectoryStore
import CallDirectoryFormat
import CalldirSystem

/// Why `calldir export live-caller-id` did not export. Every case says
/// which sysexits status it is (``status``): the command maps nothing by
/// hand.
public enum LiveCallerIDExportError: Error, CustomStringConvertible {
  /// The store (catalog, lock, a published file) could not be used.
  case store(StoreError)
  /// The store has not published the version.
  case versionNotPublished(version: Int, store: String)
  /// The version's files were pruned.
  case versionPruned(version: Int, at: String)
  /// The version was built from a config without `liveCallerID`.
  case noSettings(version: Int)
  /// The settings the catalog recorded cannot be read.
  case settings(version: Int, ConfigError)
  /// The version's identity details file is missing, damaged or another
  /// version's.
  case identities(path: String, problem: String)
  /// A published blob could not be read.
  case blob(path: String, BlobError)
  /// `--output` lies in the store.
  case outputInsideStore(output: String, store: String)
  /// `--output` exists and is not a directory, or cannot be made.
  case cannotCreate(path: String, reason: String)
  /// A file of the export could not be read or written (a full disk, an
  /// I/O error).
  case file(FileError)
  /// A use case has more rows than `liveCallerID.maxEntries`.
  case tooManyRows(useCase: String, rows: Int, maxEntries: Int, detail: String)
  /// An identity's `CallIdentity` is too large for a PIR bucket.
  case valueTooLarge(number: Int64, bytes: Int, limit: Int)
  /// The `national` keyword form was asked for and the exporter has no
  /// national formatter (a library caller passed none).
  case nationalFormatUnavailable
  /// Something that cannot happen did.
  case internalError(String)

  /// The sysexits status of each case.
  public enum Status: Sendable {
    /// 65: what the store holds is not exportable as it is.
    case dataError
    /// 66: the version (or the catalog) is not there.
    case noInput
    /// 70.
    case software
    /// 73: the output cannot be made there.
    case cantCreate
    /// 74, or 73 when a file could not be created (``FileError``'s
    /// operation and errno say which, as for every command that writes).
    case file(FileError)
    /// Whatever the store error is (74 I/O, 75 locked, 65 damaged, 66 no catalog).
    case store(StoreError)
    /// Whatever reading the blob failed with.
    case blob(BlobError)
  }

  public var status: Status {
    switch self {
    case .store(let error): .store(error)
    case .versionNotPublished: .noInput
    case .versionPruned, .noSettings, .settings, .identities, .tooManyRows, .valueTooLarge: .dataError
    case .blob(_, let error): .blob(error)
    case .outputInsideStore, .cannotCreate: .cantCreate
    case .file(let error): .file(error)
    case .nationalFormatUnavailable, .internalError: .software
    }
  }

  public var description: String {
    switch self {
    case .store(let error): error.description
    case .versionNotPublished(let version, let store): "version \(version) is not published in \(store)"
    case .versionPruned(let version, let at):
      "version \(version) was pruned at \(at): its snapshot is gone; export a kept version"
    case .noSettings(let version):
      "version \(version) was built without Live Caller ID Lookup settings: add a \"liveCallerID\" object to the "
        + "config (at least \"useCase\", the extension's bundle identifier) and build again"
    case .settings(let version, let error):
      "the Live Caller ID Lookup settings recorded with version \(version) cannot be read: \(error)"
    case .identities(let path, let problem):
      "\(path) does not match the catalog: \(problem); run 'calldir repair' to check the store"
    case .blob(let path, let error): "\(path): \(error)"
    case .outputInsideStore(let output, let store):
      "\(output) is inside the store \(store); refusing to write an export among its files"
    case .cannotCreate(let path, let reason): "cannot create \(path): \(reason)"
    case .file(let error): error.description
    case .tooManyRows(let useCase, let rows, let maxEntries, let detail):
      "use case \(useCase) would have \(rows) rows, above liveCallerID.maxEntries \(maxEntries) (\(detail)); "
        + "nothing was written (raise maxEntries, or make the dataset smaller)"
    case .valueTooLarge(let number, let bytes, let limit):
      "the identity of +\(number) would take \(bytes) bytes, more than the \(limit) a Live Caller ID Lookup value "
        + "may have; nothing was written (use a smaller icon)"
    case .nationalFormatUnavailable:
      "liveCallerID.keywordForms asks for 'national', and the export was given no national formatter; "
        + "nothing was written"
    case .internalError(let message): "internal error: \(message)"
    }
  }
}
