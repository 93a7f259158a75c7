import CallDirectoryFormat
import CallDirectoryProvider

/// An in-memory `CallDirectoryEntrySink` that traps on any call CallKit
/// would refuse, and on any call out of the loader's documented order.
///
/// CallKit's rules: each list's adds come strictly ascending, numbers lie in
/// `1...CXCallDirectoryPhoneNumberMax` (`BlobLimits.maxNumber`, as the
/// blob writers require), labels are at
/// most `BlobLimits.maxLabelBytes` long, and a remove of any kind comes only
/// in an incremental request. The loader's own order: a list's removes come
/// before its adds.
final class OrderCheckingSink: CallDirectoryEntrySink {
  let isIncremental: Bool
  private(set) var counts = EntryCallCounts()
  private var lastBlocking: Int64?
  private var lastIdentification: Int64?

  init(isIncremental: Bool) {
    self.isIncremental = isIncremental
  }

  func addBlockingEntry(withNextSequentialPhoneNumber phoneNumber: Int64) {
    checkAdd(phoneNumber, after: lastBlocking, list: "blocking")
    lastBlocking = phoneNumber
    counts.blockingAdds += 1
  }

  func addIdentificationEntry(withNextSequentialPhoneNumber phoneNumber: Int64, label: String) {
    checkAdd(phoneNumber, after: lastIdentification, list: "identification")
    fuzzCheck(label.utf8.count <= BlobLimits.maxLabelBytes, "label of \(label.utf8.count) bytes for \(phoneNumber)")
    lastIdentification = phoneNumber
    counts.identificationAdds += 1
  }

  func removeBlockingEntry(withPhoneNumber phoneNumber: Int64) {
    checkRemove("removeBlockingEntry", addsBefore: lastBlocking)
    counts.blockingRemoves += 1
  }

  func removeIdentificationEntry(withPhoneNumber phoneNumber: Int64) {
    checkRemove("removeIdentificationEntry", addsBefore: lastIdentification)
    counts.identificationRemoves += 1
  }

  func removeAllBlockingEntries() {
    checkRemove("removeAllBlockingEntries", addsBefore: lastBlocking)
    counts.removedAll = true
  }

  func removeAllIdentificationEntries() {
    checkRemove("removeAllIdentificationEntries", addsBefore: lastIdentification)
    counts.removedAll = true
  }

  private func checkAdd(_ number: Int64, after last: Int64?, list: String) {
    fuzzCheck(number >= 1 && number <= BlobLimits.maxNumber, "\(list) add of \(number), outside 1...max")
    if let last { fuzzCheck(number > last, "\(list) add of \(number) after \(last)") }
  }

  private func checkRemove(_ call: String, addsBefore last: Int64?) {
    fuzzCheck(isIncremental, "\(call) in a request that is not incremental")
    fuzzCheck(last == nil, "\(call) after an add to the same list")
  }
}
