#if os(Linux)
  import CVectorCodec
#endif

/// Whether the format's hot loops may run in `CVectorCodec` (AVX-512):
/// the Elias–Fano decoder and encoder, the content digest's gap stream and
/// the block writer's scan. Each keeps its Swift loop for everywhere else,
/// and takes a `vectorized` flag so that tests hold both to one answer.
enum _VectorLoops {
  /// Linux on x86-64 CPUs that have the instructions, with the system
  /// saving their registers.
  #if os(Linux)
    static let available = cvectorcodec_available() == 1
  #else
    static let available = false
  #endif

  /// Elias–Fano blocks with fewer coded entries than this stay in Swift
  /// (the vector loops' set-up costs more than it saves).
  static let minimumBlockEntries = 16
}
