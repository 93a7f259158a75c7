import CalldirSystem
import Foundation

/// The exclusive right to run an extension's requests, held from
/// ``SimulatedDevice/reserveExtension(withIdentifier:)`` until
/// ``release()`` (or until the value goes away, or the process ends).
///
/// While it is held, every other reload of the extension, in this process
/// or another, fails with
/// ``CXErrorCodeCallDirectoryManagerError/Code/currentlyLoading``, and the
/// extension cannot be uninstalled. An app that prepares data for a reload
/// (writes blobs into the extension's container, installs or reconfigures
/// it) reserves first, so that two updates never mix:
///
///     let reservation = try device.reserveExtension(withIdentifier: identifier)
///     defer { reservation.release() }
///     try placeBlob(into: container)
///     let report = reservation.reloadExtension()
///
/// The extension need not be installed when it is reserved.
public final class ExtensionReservation: Sendable {
  /// The reserved extension's identifier.
  public let identifier: String
  private let device: SimulatedDevice
  private let lock: Locked<_FileLock?>

  init(identifier: String, device: SimulatedDevice, lock: _FileLock) {
    self.identifier = identifier
    self.device = device
    self.lock = Locked(lock)
  }

  /// Whether the reservation is still held.
  public var isHeld: Bool {
    lock.withLock { $0 != nil }
  }

  /// Runs one request for the extension, exactly as
  /// ``SimulatedDevice/reloadExtension(withIdentifier:)`` does, under this
  /// reservation. After ``release()`` it fails with
  /// ``CXErrorCodeCallDirectoryManagerError/Code/currentlyLoading``.
  public func reloadExtension() -> ReloadReport {
    let start = Date()
    // Holding the mutex for the whole request keeps release() from
    // dropping the lock under it.
    return lock.withLock { held in
      guard held != nil else {
        return device._failedReload(
          identifier, startedAt: start,
          CXErrorCodeCallDirectoryManagerError(.currentlyLoading, reason: "the reservation was released"))
      }
      return device._reload(identifier, startedAt: start)
    }
  }

  /// Gives the reservation up; further calls do nothing.
  public func release() {
    lock.withLock { $0 = nil }
  }
}

extension SimulatedDevice {
  /// Reserves an extension's requests for the caller (see
  /// ``ExtensionReservation``), without waiting.
  ///
  /// - Throws: ``SimulatedDeviceError/extensionBusy(_:)`` when a request for
  ///   it runs or someone else holds the reservation,
  ///   ``SimulatedDeviceError/invalidIdentifier(_:)``,
  ///   ``SimulatedDeviceError/storage(_:)``.
  public func reserveExtension(withIdentifier identifier: String) throws(SimulatedDeviceError) -> ExtensionReservation {
    try Self.validate(identifier)
    // A lock just released can look held for a moment: a child process
    // another thread is spawning holds a copy of every descriptor between
    // fork and exec (close-on-exec closes it only at exec). A request runs
    // far longer than that, so a few quick retries tell the two apart.
    for attempt in 0..<Self.reservationAttempts {
      let lock = try storage { () throws(_DeviceStorageError) in
        try _io { () throws(FileError) in
          try FileSystem.createDirectory(locksPath)
          return try _FileLock.tryAcquire(loadLockPath(identifier))
        }
      }
      if let lock { return ExtensionReservation(identifier: identifier, device: self, lock: lock) }
      if attempt + 1 < Self.reservationAttempts { usleep(Self.reservationRetryMicroseconds) }
    }
    throw .extensionBusy(identifier)
  }

  /// Tries before a held reservation is reported (see above).
  static let reservationAttempts = 10
  /// The wait between them.
  static let reservationRetryMicroseconds: UInt32 = 5_000
}
