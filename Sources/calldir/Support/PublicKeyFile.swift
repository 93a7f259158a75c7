import CallDirectorySync
import CalldirSystem
import CommandLineKit

/// A public key file as `calldir keygen` writes `PREFIX.pub`: one line, the
/// base64 of the 32-byte raw Ed25519 public key.
enum PublicKeyFile {
  /// The key's size in bytes.
  static let keyBytes = 32

  /// Reads the key at `path`.
  ///
  /// - Throws: The read's ``FileError`` (66 when the file is missing, 74
  ///   when it cannot be read), or a 65 ``CommandFailure`` when it is not
  ///   one line of base64 of 32 bytes.
  static func read(_ path: String) throws -> [UInt8] {
    var text: [UInt8]
    do {
      text = try FileSystem.contents(of: path, limit: 4096, requiringRegularFile: true)
    } catch {
      guard error.errno == .fileTooLarge else { throw error }
      throw CommandFailure(.dataError, "\(path) is not a public key: it is larger than 4096 bytes")
    }
    if text.last == 0x0A { text.removeLast() }
    if text.last == 0x0D { text.removeLast() }
    guard let key = Base64.decode(text), key.count == keyBytes else {
      throw CommandFailure(
        .dataError,
        "\(path) is not a public key: expected one line of base64 of a \(keyBytes)-byte ed25519 public key")
    }
    return key
  }
}
