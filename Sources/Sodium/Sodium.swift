import CSodium

/// libsodium, started once: every entry point calls ``ready()`` first.
enum _Sodium {
  /// `sodium_init()` (safe to call again; it is thread-safe).
  static let isReady: Bool = sodium_init() >= 0

  static func ready() -> Bool { isReady }
}
