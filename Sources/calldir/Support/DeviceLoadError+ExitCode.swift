import CallDirectoryFormat
import CallDirectoryProvider
import CallKitMock
import CalldirDevice
import CommandLineKit

extension DeviceSupport {
  /// Runs `body`, ending the command with ``mapped(_:downgradeAdvice:)``'s
  /// error when it fails.
  static func mapped<T>(
    downgradeAdvice: String = defaultDowngradeAdvice, _ body: () throws(DeviceLoadError) -> T
  ) throws -> T {
    do {
      return try body()
    } catch {
      throw mapped(error, downgradeAdvice: downgradeAdvice)
    }
  }

  /// What `device load` tells the user to do about an older blob.
  static let defaultDowngradeAdvice = "use --allow-downgrade to load it anyway"

  /// The error a `device` command ends with for a failed load, with its
  /// exit code: 65 for a blob that is unreadable or does not fit, 1 for a
  /// request the system refused (`currentlyLoading` included), 74 for the
  /// device's own I/O.
  ///
  /// - Parameter downgradeAdvice: What the refusal of an older blob tells
  ///   the user to do.
  static func mapped(
    _ error: DeviceLoadError, downgradeAdvice: String = defaultDowngradeAdvice
  ) -> any Error {
    switch error {
    case .unreadableBlob(let path, let problem):
      switch problem {
      case .blobReadFailed(_, let error):
        return MappedError(exitCode: ExitCodes.code(for: error), message: error.description)
      case .unreadableBlob(_, let error):
        if case .io = error { return MappedError(exitCode: ExitCodes.code(for: error), message: error.description) }
        return MappedError(exitCode: ExitCodes.code(for: error), message: "\(path): \(error)")
      default:
        return MappedError(exitCode: .dataError, message: "\(path): \(problem)")
      }
    case .downgrade:
      return MappedError(exitCode: .dataError, message: "\(error); \(downgradeAdvice)")
    case .doesNotFit:
      return MappedError(exitCode: .dataError, message: error.description)
    case .device(let error):
      return deviceFailure(error)
    case .currentlyLoading:
      return MappedError(exitCode: .failure, message: CXErrorCodeCallDirectoryManagerError.Code.currentlyLoading.description)
    case .providerStorage, .notDurable:
      return MappedError(exitCode: .ioError, message: error.description)
    case .requestFailed(let identifier, let error, let deviceError):
      return requestFailure(error, deviceError: deviceError, identifier: identifier)
    }
  }

  /// The error the command ends with when a request failed: the device's
  /// own failure (exit 74), the system's refusal (1), or the provider's.
  static func requestFailure(_ error: any Error, deviceError: SimulatedDeviceError?, identifier: String) -> any Error {
    if deviceError != nil, let error = error as? CXErrorCodeCallDirectoryManagerError {
      return MappedError(exitCode: .ioError, message: "\(identifier): \(error.reason ?? error.code.description)")
    }
    if let error = error as? CXErrorCodeCallDirectoryManagerError {
      return MappedError(exitCode: .failure, message: error.code.description)
    }
    if let provider = error as? CallDirectoryProviderError {
      return MappedError(exitCode: exitCode(providerCode: provider.errorCode), message: "\(identifier): \(provider)")
    }
    if let cancelled = error as? ExtensionCancellationError {
      let code = cancelled.domain == CallDirectoryProviderError.errorDomain ? exitCode(providerCode: cancelled.code) : .failure
      return MappedError(exitCode: code, message: "\(identifier): \(cancelled.message)")
    }
    return MappedError(exitCode: .failure, message: "\(identifier): \(error)")
  }

  /// The exit code for a provider refusal, by ``CallDirectoryProviderError/errorCode``.
  static func exitCode(providerCode: Int) -> ExitCode {
    switch providerCode {
    case 1, 2, 3, 4, 9, 10: .dataError  // no usable blob, unreadable, corrupt, digest mismatch, downgrade, bad state
    case 5: .tempFail  // the blob changed meanwhile
    default: .ioError  // state, data directory or blob I/O (6, 7, 8, 11, 12)
    }
  }

  /// A failed request's full text, including what the system saw.
  static func detail(_ error: any Error) -> String {
    if let error = error as? ExtensionCancellationError { return error.message }
    return String(describing: error)
  }
}
