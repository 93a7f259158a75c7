/// A phone number as Call Directory sees it: a country calling code followed
/// by the national significant number, as one integer (for example
/// `33612345678`).
///
/// Mirrors CallKit's `CXCallDirectoryPhoneNumber` (iOS 10+).
public typealias CXCallDirectoryPhoneNumber = Int64

/// The largest phone number Call Directory accepts, `Int64.max - 1`.
///
/// Mirrors `CXCallDirectoryPhoneNumberMax` (`INT64_MAX - 1` in
/// `CXCallDirectory.h`). The simulated system reports a number above it as
/// ``CXErrorCodeCallDirectoryManagerError/Code/entriesOutOfOrder``.
public let CXCallDirectoryPhoneNumberMax: CXCallDirectoryPhoneNumber = Int64.max - 1
