/// The value of an identity row: Live Caller ID Lookup's `CallIdentity`
/// (Apple's `live-caller-id-lookup-example`, `CallIdentity.proto`, proto3):
///
///     enum ImageFormat { IMAGE_FORMAT_UNSPECIFIED = 0; IMAGE_FORMAT_HEIC = 1; }
///     enum IdentityCategory { IDENTITY_CATEGORY_UNSPECIFIED = 0; …_PERSON = 1; …_BUSINESS = 2; }
///     message Icon { ImageFormat format = 1; bytes image = 2; }
///     message CallIdentity { string name = 1; Icon icon = 2; uint32 cache_expiry_minutes = 3;
///                            IdentityCategory category = 4; }
///
/// Encoded as swift-protobuf encodes it: fields in number order, scalars
/// equal to their default left out, the icon written whenever present.
public struct CallIdentity: Sendable, Hashable {
  /// `Icon`.
  public struct Icon: Sendable, Hashable {
    /// `ImageFormat` (HEIC is 1).
    public var format: UInt32
    public var image: [UInt8]

    /// HEIC's `ImageFormat`.
    public static let heic: UInt32 = 1

    public init(format: UInt32 = heic, image: [UInt8]) {
      self.format = format
      self.image = image
    }
  }

  public var name: String
  public var icon: Icon?
  public var cacheExpiryMinutes: UInt32
  /// `IdentityCategory`: 0 unspecified, 1 person, 2 business (a newer
  /// value read from elsewhere is kept as it is).
  public var category: UInt32

  public init(name: String, icon: Icon? = nil, cacheExpiryMinutes: UInt32 = 0, category: UInt32 = 0) {
    self.name = name
    self.icon = icon
    self.cacheExpiryMinutes = cacheExpiryMinutes
    self.category = category
  }

  /// The serialized message.
  public func encoded() -> [UInt8] {
    var writer = ProtobufWriter(capacity: name.utf8.count + (icon?.image.count ?? 0) + 16)
    writer.appendBytes(field: 1, name.utf8)
    if let icon {
      var message = ProtobufWriter(capacity: icon.image.count + 8)
      message.appendVarint(field: 1, UInt64(icon.format))
      message.appendBytes(field: 2, icon.image)
      writer.appendMessage(field: 2, message.bytes)
    }
    writer.appendVarint(field: 3, UInt64(cacheExpiryMinutes))
    writer.appendVarint(field: 4, UInt64(category))
    return writer.bytes
  }

  /// Reads a serialized `CallIdentity`: fields in any order, unknown ones
  /// skipped, a scalar given twice keeps its last value, an icon given
  /// twice is merged (as protobuf merges embedded messages).
  /// - Throws: ``ProtobufError``.
  public init(decoding bytes: [UInt8]) throws(ProtobufError) {
    self.init(name: "")
    var reader = ProtobufReader(bytes)
    while let field = try reader.next() {
      switch (field.number, field.value) {
      case (1, .lengthDelimited(let range)):
        guard let text = String(validating: bytes[range], as: UTF8.self) else {
          throw .invalidUTF8(message: "CallIdentity", field: 1)
        }
        name = text
      case (2, .lengthDelimited(let range)):
        var merged = icon ?? Icon(format: 0, image: [])
        var inner = ProtobufReader(bytes, range: range)
        while let iconField = try inner.next() {
          switch (iconField.number, iconField.value) {
          case (1, .varint(let value)): merged.format = UInt32(truncatingIfNeeded: value)
          case (2, .lengthDelimited(let payload)): merged.image = Array(bytes[payload])
          case (1, _), (2, _): throw .wrongWireType(message: "Icon", field: iconField.number)
          default: continue
          }
        }
        icon = merged
      case (3, .varint(let value)): cacheExpiryMinutes = UInt32(truncatingIfNeeded: value)
      case (4, .varint(let value)): category = UInt32(truncatingIfNeeded: value)
      case (1, _), (2, _), (3, _), (4, _): throw .wrongWireType(message: "CallIdentity", field: field.number)
      default: continue
      }
    }
  }
}
