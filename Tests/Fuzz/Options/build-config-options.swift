/// The build-config harness takes no option bytes: the whole input is the
/// config text.
struct BuildConfigInput: Equatable {
  var text: [UInt8]

  init(text: [UInt8]) { self.text = text }

  init(_ input: inout FuzzInput) { text = input.rest }

  var bytes: [UInt8] { text }
}
