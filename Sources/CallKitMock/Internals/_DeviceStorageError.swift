import CalldirSystem

/// A failure of the simulated device's own files: an I/O error, or a file
/// that does not hold what the device wrote.
enum _DeviceStorageError: Error, CustomStringConvertible {
  /// A file operation failed.
  case file(FileError)
  /// The file exists but is not valid.
  case corrupt(path: String, reason: String)

  /// `cannot write …: no space left on device`, `… is corrupt: bad magic`.
  var description: String {
    switch self {
    case .file(let error): error.description
    case .corrupt(let path, let reason): "\(path) is corrupt: \(reason)"
    }
  }

  /// The public form.
  var deviceError: SimulatedDeviceError { .storage(description) }
}

/// Runs file operations, reporting their failure as a device storage error.
@inline(__always)
func _io<T>(_ body: () throws(FileError) -> T) throws(_DeviceStorageError) -> T {
  do {
    return try body()
  } catch {
    throw .file(error)
  }
}
