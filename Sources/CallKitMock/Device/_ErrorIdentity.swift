import Foundation

/// The domain, code and message of any error, as NSError bridging sees it:
/// what a record remembers and what crosses the process boundary.
func _identity(of error: any Error) -> _ExtensionRecord._StoredError {
  if let error = error as? CXErrorCodeCallDirectoryManagerError {
    return .init(domain: CXErrorCodeCallDirectoryManagerError.errorDomain, code: error.errorCode, message: error.description)
  }
  if let error = error as? ExtensionCancellationError {
    return .init(domain: error.domain, code: error.code, message: error.message)
  }
  let bridged = error as NSError
  return .init(domain: bridged.domain, code: bridged.code, message: String(describing: error))
}
