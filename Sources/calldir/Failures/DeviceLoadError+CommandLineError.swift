import CallDirectoryFormat
import CallDirectoryProvider
import CallKitMock
import CalldirDevice
import CommandLineKit

/// A failed load: 65 for a blob that is unreadable or does not fit, 1 for
/// a request the system refused (`currentlyLoading` included), 74 for the
/// device's own I/O, and for a provider's refusal its code's
/// (``CallDirectoryProviderError/errorCode``).
extension DeviceLoadError: CommandLineError {
  public var exitCode: ExitCode {
    switch self {
    case .unreadableBlob(_, .blobReadFailed(_, let error)), .unreadableBlob(_, .unreadableBlob(_, let error)):
      error.exitCode
    case .unreadableBlob, .downgrade, .doesNotFit: .dataError
    case .device(let error): error.exitCode
    case .currentlyLoading: .failure
    case .providerStorage, .notDurable: .ioError
    case .requestFailed(_, let error, let deviceError):
      switch error {
      case is CXErrorCodeCallDirectoryManagerError: deviceError != nil ? .ioError : .failure
      case let error as CallDirectoryProviderError: Self.exitCode(providerCode: error.errorCode)
      case let error as ExtensionCancellationError:
        error.domain == CallDirectoryProviderError.errorDomain ? Self.exitCode(providerCode: error.code) : .failure
      default: .failure
      }
    }
  }

  public var message: String {
    switch self {
    case .unreadableBlob(_, .blobReadFailed(_, let error)): error.description
    case .unreadableBlob(let path, .unreadableBlob(_, let error)):
      if case .io = error { error.description } else { "\(path): \(error)" }
    case .unreadableBlob(let path, let problem): "\(path): \(problem)"
    case .downgrade: "\(self); use --allow-downgrade to load it anyway"
    case .device(let error): error.message
    case .currentlyLoading: CXErrorCodeCallDirectoryManagerError.Code.currentlyLoading.description
    case .requestFailed(let identifier, let error, let deviceError):
      switch error {
      case let error as CXErrorCodeCallDirectoryManagerError:
        deviceError != nil ? "\(identifier): \(error.reason ?? error.code.description)" : error.code.description
      case let error as ExtensionCancellationError: "\(identifier): \(error.message)"
      default: "\(identifier): \(error)"
      }
    case .doesNotFit, .providerStorage, .notDurable: description
    }
  }

  /// The exit code for a provider refusal, by ``CallDirectoryProviderError/errorCode``.
  static func exitCode(providerCode: Int) -> ExitCode {
    switch providerCode {
    case 1, 2, 3, 4, 9, 10: .dataError  // no usable blob, unreadable, corrupt, digest mismatch, downgrade, bad state
    case 5: .tempFail  // the blob changed meanwhile
    default: .ioError  // state, data directory or blob I/O (6, 7, 8, 11, 12)
    }
  }
}

/// A failure to manage the simulated device itself: 74 for its storage, 66
/// for a device or extension that is not there, 75 for an extension busy
/// with another request, 70 for a misuse.
extension SimulatedDeviceError: CommandLineError {
  public var exitCode: ExitCode {
    switch self {
    case .storage: .ioError
    case .noSuchExtension, .noDevice: .noInput
    case .extensionBusy: .tempFail
    case .invalidIdentifier, .alreadyInstalled, .invalidSettings: .software
    }
  }

  public var message: String { description }
}
