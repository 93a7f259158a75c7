import CallDirectoryFormat
import CallDirectorySync
import Foundation

/// The checks a downloaded blob passes before the app moves it where an
/// extension reads it.
enum FileCheck {
  /// Why a downloaded file is not the one expected.
  enum Mismatch: Error, CustomStringConvertible {
    case size(expected: Int64, actual: Int64)
    case sha256(expected: String, actual: String)
    case header(String)

    var description: String {
      switch self {
      case .size(let expected, let actual): "\(actual) bytes, expected \(expected)"
      case .sha256(let expected, let actual): "sha256 \(actual), expected \(expected)"
      case .header(let problem): problem
      }
    }
  }

  /// Reads the file once, in 1 MiB pieces, and checks its size and SHA-256
  /// against the manifest's.
  static func verify(_ url: URL, size: Int64, sha256: String, hashing: any SHA256Hashing) throws {
    let handle = try FileHandle(forReadingFrom: url)
    defer { try? handle.close() }
    var hasher = hashing.makeHasher()
    var total: Int64 = 0
    while let piece = try handle.read(upToCount: 1 << 20), !piece.isEmpty {
      total += Int64(piece.count)
      guard total <= size else { throw Mismatch.size(expected: size, actual: total) }
      piece.withUnsafeBytes { hasher.update($0) }
    }
    guard total == size else { throw Mismatch.size(expected: size, actual: total) }
    let digest = hex(hasher.finalize())
    guard digest == sha256 else { throw Mismatch.sha256(expected: sha256, actual: digest) }
  }

  /// The blob's header, checked against what the manifest says the file is
  /// (CallDirectorySync's rule: kind, versions and, when the blob records
  /// one, dataset).
  static func header(of url: URL, expecting content: StagedLoad.Content, manifest: Manifest) throws -> BlobHeader {
    let header = try BlobReader.readHeader(path: url.path)
    if let problem = SyncSession.headerProblem(header, content, manifest) { throw Mismatch.header(problem) }
    return header
  }

  /// Lowercase hexadecimal.
  private static func hex(_ bytes: [UInt8]) -> String {
    let digits = Array("0123456789abcdef".utf8)
    var text: [UInt8] = []
    text.reserveCapacity(bytes.count * 2)
    for byte in bytes {
      text.append(digits[Int(byte >> 4)])
      text.append(digits[Int(byte & 0x0F)])
    }
    return String(decoding: text, as: UTF8.self)
  }
}
