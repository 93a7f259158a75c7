import CICUShim

/// Converts text in a legacy character set (ISO-8859-1, Windows-1252, …) to
/// UTF-8, piece by piece, through ICU's converters.
///
/// State carries over between calls to ``convert(_:into:flush:)``, so the
/// input may be cut anywhere, even inside a multibyte sequence:
///
///     let transcoder = try TextTranscoder(encoding: "latin1")
///     let step = transcoder.convert(piece, into: buffer, flush: isLast)
///
/// Bytes the character set does not map become U+FFFD (or the character
/// set's substitution character); conversion never traps on bad input.
///
/// The corresponding ICU calls are `ucnv_open` and `ucnv_convertEx`.
public final class TextTranscoder {
  /// What one call to ``convert(_:into:flush:)`` did.
  public struct Step: Sendable, Hashable {
    /// Input bytes consumed.
    public var consumed: Int
    /// UTF-8 bytes written.
    public var produced: Int
    /// Whether the output filled up before the input was consumed: call
    /// again with the rest of the input and more room.
    public var needsMoreRoom: Bool
  }

  /// The encoding name as given.
  public let encoding: String
  private let handle: OpaquePointer

  /// Opens a converter from `encoding` to UTF-8.
  ///
  /// - Parameter encoding: An ICU converter name or alias, matched
  ///   case-insensitively (`ISO-8859-1`, `latin1`, `Windows-1252`,
  ///   `cp1252`, `UTF-8`, …).
  /// - Throws: ``TranscodingError/unknownEncoding(_:)``.
  public init(encoding: String) throws(TranscodingError) {
    guard !encoding.isEmpty, encoding.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
      throw .unknownEncoding(encoding)
    }
    var status: Int32 = 0
    guard let handle = cd_transcoder_open(encoding, &status) else {
      throw .unknownEncoding(encoding)
    }
    self.encoding = encoding
    self.handle = handle
  }

  deinit {
    cd_transcoder_close(handle)
  }

  /// Whether ICU knows `encoding`.
  public static func isKnown(_ encoding: String) -> Bool {
    (try? TextTranscoder(encoding: encoding)) != nil
  }

  /// Converts the next piece of input.
  ///
  /// - Parameters:
  ///   - input: The next bytes in the source encoding.
  ///   - output: Where UTF-8 goes.
  ///   - flush: Whether `input` is the last piece.
  /// - Returns: The counts; `needsMoreRoom` when `output` filled first.
  /// - Throws: ``TranscodingError/conversionFailed(status:)`` on an ICU
  ///   failure, such as input that ends inside a sequence when flushing.
  public func convert(
    _ input: UnsafeBufferPointer<UInt8>, into output: UnsafeMutableBufferPointer<UInt8>, flush: Bool
  ) throws(TranscodingError) -> Step {
    var consumed: Int32 = 0
    var produced: Int32 = 0
    let inputCount = Int32(clamping: input.count)
    let outputCount = Int32(clamping: output.count)
    let status = cd_transcoder_convert(
      handle, input.baseAddress, inputCount, &consumed, output.baseAddress, outputCount, &produced,
      flush ? 1 : 0)
    if status == CD_ICU_BUFFER_OVERFLOW {
      return Step(consumed: Int(consumed), produced: Int(produced), needsMoreRoom: true)
    }
    if status > 0 { throw .conversionFailed(status: status) }
    return Step(consumed: Int(consumed), produced: Int(produced), needsMoreRoom: false)
  }
}

@available(*, unavailable)
extension TextTranscoder: Sendable {}

/// Why text could not be converted, lowercase.
public enum TranscodingError: Error, Hashable, CustomStringConvertible {
  /// ICU has no converter by that name.
  case unknownEncoding(String)
  /// ICU failed with this status (e.g. the input ended inside a sequence).
  case conversionFailed(status: Int32)

  /// A lowercase message.
  public var description: String {
    switch self {
    case .unknownEncoding(let name): "unknown encoding '\(name)'"
    case .conversionFailed(let status): "encoding conversion failed (icu status \(status))"
    }
  }
}
