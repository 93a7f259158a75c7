/// One call an extension made on its context, as the simulated system saw it.
///
/// ``ReloadReport/trace`` lists the first operations of a request, and the
/// child-process protocol carries these records from the extension process
/// to the system process.
public enum CallDirectoryOperation: Hashable, Sendable {
  /// The extension read `isIncremental`; the associated value is what it got.
  case readIncremental(Bool)
  /// `addBlockingEntry(withNextSequentialPhoneNumber:)`.
  case addBlocking(CXCallDirectoryPhoneNumber)
  /// `addIdentificationEntry(withNextSequentialPhoneNumber:label:)`.
  case addIdentification(CXCallDirectoryPhoneNumber, label: String)
  /// `removeBlockingEntry(withPhoneNumber:)`.
  case removeBlocking(CXCallDirectoryPhoneNumber)
  /// `removeIdentificationEntry(withPhoneNumber:)`.
  case removeIdentification(CXCallDirectoryPhoneNumber)
  /// `removeAllBlockingEntries()`.
  case removeAllBlocking
  /// `removeAllIdentificationEntries()`.
  case removeAllIdentification
  /// `completeRequest(completionHandler:)`.
  case complete
  /// `cancelRequest(withError:)`, with the error's domain and code.
  case cancel(domain: String, code: Int)
}
