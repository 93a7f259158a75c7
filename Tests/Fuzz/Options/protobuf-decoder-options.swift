/// The option byte of the protobuf-decoder harness (byte 0; the rest is the
/// message): its low bit picks the message.
struct ProtobufDecoderOptions: Equatable {
  enum Message: UInt8, CaseIterable {
    case keywordDatabase, callIdentity
  }

  var message: Message

  init(message: Message) { self.message = message }

  init(_ input: inout FuzzInput) {
    message = input.takeByte() & 1 == 0 ? .keywordDatabase : .callIdentity
  }

  var bytes: [UInt8] { [message.rawValue] }
}
