/// Stops the fuzzer with a message when a harness's own check fails: that
/// is a finding, as much as a crash inside the library.
func fuzzCheck(_ condition: Bool, _ message: @autoclosure () -> String) {
  if !condition { fatalError("fuzz check failed: \(message())") }
}
