import CallDirectoryCompiler
import CallDirectoryFormat
import CalldirSystem
import Sodium

/// An identify source's `icon`: a HEIC image that Live Caller ID Lookup
/// shows with the callers the source names. The build keeps a copy in the
/// store under its SHA-256 (`STORE/icons/<sha256>.heic`), so the export
/// reads it from there, never from the config's path.
public struct IdentityIcon: Sendable, Hashable {
  /// The HEIC bytes.
  public let bytes: [UInt8]
  /// Their SHA-256 (libsodium).
  public let sha256: [UInt8]

  /// The most bytes an icon may have: a `CallIdentity` must stay under
  /// 65,535 bytes with the name beside it.
  public static let maxBytes = 64_000

  /// The icon in `bytes`, checked.
  /// - Throws: A reason (lowercase) when it is empty, too large or not HEIC.
  public init(bytes: [UInt8]) throws(IdentityIconError) {
    guard !bytes.isEmpty else { throw .empty }
    guard bytes.count <= Self.maxBytes else { throw .tooLarge(bytes.count) }
    guard Self.isHEIC(bytes) else { throw .notHEIC }
    self.bytes = bytes
    sha256 = SodiumSHA256.hash(bytes)
  }

  /// Reads the icon file at `path` (the config's `icon`, resolved).
  /// - Throws: ``ConfigError`` at `keyPath`: missing (exit 66 like a
  ///   missing source), unreadable, or not a HEIC file of at most
  ///   ``maxBytes`` bytes.
  static func load(path: String, keyPath: String) throws(ConfigError) -> IdentityIcon {
    let status: FileStatus
    do {
      status = try FileSystem.status(path)
    } catch where error.errno.isMissingInput {
      throw .fileNotFound(keyPath: keyPath, path: path)
    } catch {
      throw .unreadable(error)
    }
    guard status.kind == .regular else { throw .notAFile(keyPath: keyPath, path: path, kind: status.kind.description) }
    let bytes: [UInt8]
    do {
      bytes = try FileSystem.contents(of: path, limit: maxBytes, requiringRegularFile: true)
    } catch where error.errno == .fileTooLarge {
      throw .invalidValue(keyPath: keyPath, reason: "\(path) is larger than \(maxBytes) bytes (\(status.size))")
    } catch {
      throw .unreadable(error)
    }
    do {
      return try IdentityIcon(bytes: bytes)
    } catch {
      throw .invalidValue(keyPath: keyPath, reason: "\(path): \(error)")
    }
  }

  /// The brands of an ISO base media file (`ftyp`) that make it HEIF/HEIC.
  static let brands: Set<String> = ["heic", "heix", "hevc", "hevx", "heim", "heis", "hevm", "hevs", "mif1", "msf1"]

  /// Whether `bytes` start with an `ftyp` box whose major brand or one of
  /// whose compatible brands is a HEIF one.
  static func isHEIC(_ bytes: [UInt8]) -> Bool {
    guard bytes.count >= 16, String(decoding: bytes[4..<8], as: UTF8.self) == "ftyp" else { return false }
    let size = bytes[0..<4].reduce(0) { $0 << 8 | Int($1) }
    guard size >= 16, size <= bytes.count else { return false }
    var offsets = [8]
    offsets += Swift.stride(from: 16, to: size - 3, by: 4).map { $0 }
    return offsets.contains { brands.contains(String(decoding: bytes[$0..<($0 + 4)], as: UTF8.self)) }
  }

  /// The icon's name in a store: `icons/<sha256>.heic`.
  public var storeName: String { Self.storeName(sha256: sha256) }

  /// `icons/<sha256 hex>.heic`.
  public static func storeName(sha256: [UInt8]) -> String {
    "icons/" + (ContentDigest(bytes: sha256)?.hex ?? "") + ".heic"
  }

  /// The icon a store keeps under `sha256`, checked against it.
  /// - Throws: ``StoreError/fileMismatch(path:problem:)`` when it is
  ///   missing, damaged or replaced; ``StoreError/file(_:)`` when it
  ///   cannot be read.
  public static func stored(sha256: [UInt8], in store: StoreLayout) throws(StoreError) -> IdentityIcon {
    let path = store.path(storeName(sha256: sha256))
    let bytes: [UInt8]
    do {
      bytes = try FileSystem.contents(of: path, limit: maxBytes, requiringRegularFile: true)
    } catch where error.errno.isMissingInput && error.errno != .permissionDenied {
      throw .fileMismatch(path: path, problem: "it is missing (\(error.errno))")
    } catch where error.errno == .fileTooLarge {
      throw .fileMismatch(path: path, problem: "it is larger than an icon may be")
    } catch {
      throw .file(error)
    }
    guard let icon = try? IdentityIcon(bytes: bytes), icon.sha256 == sha256 else {
      throw .fileMismatch(path: path, problem: "its bytes do not hash to its name")
    }
    return icon
  }

  /// Puts the icon in `store` (`icons/<sha256>.heic`) unless it is there
  /// whole: written under a temporary name, synced, renamed. A file of that
  /// name whose bytes are not the icon's (damaged) is replaced.
  func keep(in store: StoreLayout) throws(StoreError) {
    if (try? Self.stored(sha256: sha256, in: store)) != nil { return }
    do {
      try FileSystem.createDirectory(store.iconsDirectory)
      try AtomicFile.write(bytes, to: store.path(storeName))
    } catch {
      throw .file(error)
    }
  }
}

/// Why an icon file cannot be used.
public enum IdentityIconError: Error, Hashable, CustomStringConvertible {
  case empty
  case tooLarge(Int)
  case notHEIC

  public var description: String {
    switch self {
    case .empty: "the icon is empty"
    case .tooLarge(let bytes): "the icon has \(bytes) bytes, more than \(IdentityIcon.maxBytes)"
    case .notHEIC: "not a HEIC image (no 'ftyp' box with a HEIF brand such as 'heic' or 'mif1')"
    }
  }
}
