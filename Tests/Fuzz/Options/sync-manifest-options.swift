/// The input layout of the sync-manifest harness: byte 0 is the length
/// (0...255) of a sync state document that follows, the rest is the
/// manifest.
struct SyncManifestInput: Equatable {
  var state: [UInt8]
  var manifest: [UInt8]

  init(state: [UInt8], manifest: [UInt8]) {
    self.state = state
    self.manifest = manifest
  }

  init(_ input: inout FuzzInput) {
    let length = Int(input.takeByte())
    state = input.take(length)
    manifest = input.rest
  }

  /// The input that decodes to this state and manifest (nil: a state past
  /// 255 bytes).
  var bytes: [UInt8]? { state.count <= 255 ? [UInt8(state.count)] + state + manifest : nil }
}
