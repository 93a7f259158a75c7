/// A failure found while merging.
enum _MergeError: Error {
  case duplicate(list: String, number: Int64)
  case tooManyEntries(UInt64)
  case storage(_DeviceStorageError)

  /// The request's error; a storage failure is the system's own.
  var managerError: CXErrorCodeCallDirectoryManagerError {
    switch self {
    case .duplicate(let list, let number):
      CXErrorCodeCallDirectoryManagerError(.duplicateEntries, reason: "\(list) entry \(number) is already in the store")
    case .tooManyEntries(let maximum):
      CXErrorCodeCallDirectoryManagerError(
        .maximumEntriesExceeded, reason: "cannot add entries since it would exceed maximum allowed entries (\(maximum))")
    case .storage(let error):
      CXErrorCodeCallDirectoryManagerError(.unknown, reason: "cannot write the store: \(error)")
    }
  }
}

/// Reports a storage failure inside a merge as a ``_MergeError``.
@inline(__always)
func _merging<T>(_ body: () throws(_DeviceStorageError) -> T) throws(_MergeError) -> T {
  do {
    return try body()
  } catch {
    throw .storage(error)
  }
}

/// Merges one list: the old entries (ascending), minus the request's removes,
/// plus its adds (ascending), in one pass.
///
/// An add is dropped when a later remove of the same number cancels it (a
/// remove records how many adds preceded it). An add of a number that stays
/// in the store is a duplicate under ``IncrementalReAddPolicy/reject`` and
/// replaces the stored entry under ``IncrementalReAddPolicy/replace``.
///
/// - Complexity: O(old + removes + adds), constant memory for sorted removes.
func _mergeList(
  old nextOld: () throws(_MergeError) -> _Entry?,
  removes: _RemoveLookup,
  adds: _AddReader,
  policy: IncrementalReAddPolicy,
  list: String,
  emit: (_Entry) throws(_MergeError) -> Void
) throws(_MergeError) {
  var old = try nextOld()
  var add = try _merging { () throws(_DeviceStorageError) in try adds.next() }
  var addIndex: Int64 = 0
  while old != nil || add != nil {
    if let current = old, add.map({ current.number < $0.number }) ?? true {
      if try _merging({ () throws(_DeviceStorageError) in try removes.lookup(current.number) }) == nil {
        try emit(current)
      }
      old = try nextOld()
    } else if let current = add {
      let removedAfter = try _merging { () throws(_DeviceStorageError) in try removes.lookup(current.number) }
      let isCancelled = (removedAfter ?? -1) > addIndex
      if let stored = old, stored.number == current.number {
        if !isCancelled && removedAfter == nil && policy == .reject {
          throw .duplicate(list: list, number: current.number)
        }
        old = try nextOld()
      }
      if !isCancelled { try emit(current) }
      add = try _merging { () throws(_DeviceStorageError) in try adds.next() }
      addIndex += 1
    }
  }
}
