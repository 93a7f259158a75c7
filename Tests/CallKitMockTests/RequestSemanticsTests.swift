import Foundation
import Testing

@testable import CallKitMock

@Suite struct RequestSemanticsTests {
  @Test func completeLoadStoresBothLists() throws {
    let fixture = try Fixture()
    let report = fixture.loadComplete(blocking: [10, 20, 30], identification: [(15, "spam"), (25, "🚫 démarchage")])
    #expect(report.error == nil)
    #expect(!report.wasIncremental)
    #expect(fixture.blocking == [10, 20, 30])
    #expect(fixture.identification == [.init(number: 15, label: "spam"), .init(number: 25, label: "🚫 démarchage")])
    #expect(report.blockingEntryCount == 3 && report.identificationEntryCount == 2)
    #expect(report.trace.first == .addBlocking(10))
    #expect(report.trace.last == .complete)
  }

  @Test func listsAreOrderedSeparately() throws {
    let fixture = try Fixture()
    // Saracroche's first version interleaved both lists per number.
    let report = fixture.load { context in
      for number: Int64 in [5, 6, 7] {
        context.addBlockingEntry(withNextSequentialPhoneNumber: number)
        context.addIdentificationEntry(withNextSequentialPhoneNumber: number, label: "n\(number)")
      }
      context.completeRequest()
    }
    #expect(report.error == nil)
    #expect(fixture.blocking == [5, 6, 7])
    #expect(fixture.identification.map(\.number) == [5, 6, 7])
  }

  struct OrderCase: CustomTestStringConvertible, Sendable {
    let name: String
    let blocking: [Int64]
    let identification: [Int64]
    let expected: CXErrorCodeCallDirectoryManagerError.Code
    var testDescription: String { name }
  }

  static let orderCases: [OrderCase] = [
    .init(name: "descending blocking", blocking: [7, 5], identification: [], expected: .entriesOutOfOrder),
    .init(name: "descending identification", blocking: [], identification: [9, 8], expected: .entriesOutOfOrder),
    .init(name: "repeated blocking", blocking: [5, 5], identification: [], expected: .duplicateEntries),
    .init(name: "repeated identification", blocking: [], identification: [4, 4], expected: .duplicateEntries),
    .init(name: "zero (Gogolook)", blocking: [0], identification: [], expected: .duplicateEntries),
    .init(name: "negative", blocking: [-3], identification: [], expected: .entriesOutOfOrder),
    .init(name: "above maximum", blocking: [1, Int64.max], identification: [], expected: .entriesOutOfOrder),
  ]

  @Test(arguments: orderCases)
  func invalidAddsFailTheWholeRequest(_ testCase: OrderCase) throws {
    let fixture = try Fixture()
    fixture.loadComplete(blocking: [1, 2], identification: [(3, "x")])
    let before = try #require(fixture.storeBytes)
    let delegate = DelegateRecorder()
    let expired = Box<Bool?>(nil)
    let report = fixture.load { context in
      context.delegate = delegate
      for number in testCase.blocking { context.addBlockingEntry(withNextSequentialPhoneNumber: number) }
      for number in testCase.identification {
        context.addIdentificationEntry(withNextSequentialPhoneNumber: number, label: "l")
      }
      context.completeRequest { expired.value = $0 }
    }
    #expect(code(report) == testCase.expected)
    #expect(delegate.failures == [testCase.expected])
    #expect(expired.value == true)
    #expect(fixture.storeBytes == before)
  }

  @Test func maximumNumberIsAccepted() throws {
    let fixture = try Fixture()
    let report = fixture.loadComplete(blocking: [1, CXCallDirectoryPhoneNumberMax])
    #expect(report.error == nil)
    #expect(fixture.blocking == [1, CXCallDirectoryPhoneNumberMax])
  }

  @Test func successfulCompletionIsNotExpired() throws {
    let fixture = try Fixture()
    let expired = Box<Bool?>(nil)
    fixture.load { context in
      context.addBlockingEntry(withNextSequentialPhoneNumber: 1)
      context.completeRequest { expired.value = $0 }
    }
    #expect(expired.value == false)
  }

  @Test func isIncrementalIsFalseBeforeTheFirstLoad() throws {
    let fixture = try Fixture()
    let seen = Box<[Bool]>([])
    fixture.load { context in
      seen.value.append(context.isIncremental)
      context.addBlockingEntry(withNextSequentialPhoneNumber: 1)
      context.completeRequest()
    }
    fixture.load { context in
      seen.value.append(context.isIncremental)
      context.completeRequest()
    }
    #expect(seen.value == [false, true])
  }

  @Test func completeRequestReplacesTheStore() throws {
    let fixture = try Fixture()
    fixture.loadComplete(blocking: [1, 2, 3], identification: [(4, "a")])
    // Not reading isIncremental makes the request complete.
    let report = fixture.loadComplete(blocking: [9])
    #expect(report.error == nil && !report.wasIncremental)
    #expect(fixture.blocking == [9])
    #expect(fixture.identification.isEmpty)
  }

  @Test func incrementalRequestAppliesRemovesThenAdds() throws {
    let fixture = try Fixture()
    fixture.loadComplete(blocking: [10, 20, 30], identification: [(10, "a"), (20, "b")])
    let report = fixture.load { context in
      guard context.isIncremental else { return context.completeRequest() }
      context.removeBlockingEntry(withPhoneNumber: 30)
      context.removeBlockingEntry(withPhoneNumber: 10)
      context.removeBlockingEntry(withPhoneNumber: 999)  // not present: no error
      context.removeIdentificationEntry(withPhoneNumber: 20)
      context.addBlockingEntry(withNextSequentialPhoneNumber: 5)
      context.addBlockingEntry(withNextSequentialPhoneNumber: 25)
      context.addIdentificationEntry(withNextSequentialPhoneNumber: 30, label: "c")
      context.completeRequest()
    }
    #expect(report.error == nil)
    #expect(report.wasIncremental)
    #expect(fixture.blocking == [5, 20, 25])
    #expect(fixture.identification == [.init(number: 10, label: "a"), .init(number: 30, label: "c")])
  }

  @Test func labelChangeIsRemovePlusAdd() throws {
    let fixture = try Fixture()
    fixture.loadComplete(identification: [(10, "old"), (20, "keep")])
    let report = fixture.load { context in
      _ = context.isIncremental
      context.removeIdentificationEntry(withPhoneNumber: 10)
      context.addIdentificationEntry(withNextSequentialPhoneNumber: 10, label: "new")
      context.completeRequest()
    }
    #expect(report.error == nil)
    #expect(fixture.identification == [.init(number: 10, label: "new"), .init(number: 20, label: "keep")])
  }

  @Test func reAddWithoutRemoveIsRejectedByDefault() throws {
    let fixture = try Fixture()
    fixture.loadComplete(identification: [(10, "old")])
    let before = try #require(fixture.storeBytes)
    let report = fixture.load { context in
      _ = context.isIncremental
      context.addIdentificationEntry(withNextSequentialPhoneNumber: 10, label: "new")
      context.completeRequest()
    }
    #expect(code(report) == .duplicateEntries)
    #expect(fixture.storeBytes == before)
  }

  @Test func reAddReplacesUnderReplacePolicy() throws {
    let fixture = try Fixture(settings: ExtensionSettings(incrementalReAddPolicy: .replace))
    fixture.loadComplete(blocking: [10], identification: [(10, "old")])
    let report = fixture.load { context in
      _ = context.isIncremental
      context.addBlockingEntry(withNextSequentialPhoneNumber: 10)
      context.addIdentificationEntry(withNextSequentialPhoneNumber: 10, label: "new")
      context.completeRequest()
    }
    #expect(report.error == nil)
    #expect(fixture.blocking == [10])
    #expect(fixture.identification == [.init(number: 10, label: "new")])
  }

  @Test func removeAfterAddCancelsTheAdd() throws {
    let fixture = try Fixture()
    fixture.loadComplete(blocking: [1])
    let report = fixture.load { context in
      _ = context.isIncremental
      context.addBlockingEntry(withNextSequentialPhoneNumber: 5)
      context.addBlockingEntry(withNextSequentialPhoneNumber: 6)
      context.removeBlockingEntry(withPhoneNumber: 5)
      context.completeRequest()
    }
    #expect(report.error == nil)
    #expect(fixture.blocking == [1, 6])
  }

  @Test func unsortedRemovesAreAccepted() throws {
    let fixture = try Fixture()
    fixture.loadComplete(blocking: Array(1...10))
    let report = fixture.load { context in
      _ = context.isIncremental
      for number: Int64 in [9, 2, 7, 2, 4] { context.removeBlockingEntry(withPhoneNumber: number) }
      context.completeRequest()
    }
    #expect(report.error == nil)
    #expect(fixture.blocking == [1, 3, 5, 6, 8, 10])
  }

  @Test func removeAllThenReload() throws {
    let fixture = try Fixture()
    fixture.loadComplete(blocking: [1, 2], identification: [(3, "x")])
    let report = fixture.load { context in
      _ = context.isIncremental
      context.removeAllBlockingEntries()
      context.addBlockingEntry(withNextSequentialPhoneNumber: 7)
      context.completeRequest()
    }
    #expect(report.error == nil)
    #expect(fixture.blocking == [7])
    #expect(fixture.identification == [.init(number: 3, label: "x")])

    let second = fixture.load { context in
      _ = context.isIncremental
      context.removeAllIdentificationEntries()
      context.completeRequest()
    }
    #expect(second.error == nil)
    #expect(fixture.blocking == [7])
    #expect(fixture.identification.isEmpty)
  }

  @Test func removeAllDropsEarlierAddsOfTheRequest() throws {
    let fixture = try Fixture()
    fixture.loadComplete(blocking: [1])
    let report = fixture.load { context in
      _ = context.isIncremental
      context.addBlockingEntry(withNextSequentialPhoneNumber: 4)
      context.removeAllBlockingEntries()
      context.addBlockingEntry(withNextSequentialPhoneNumber: 8)
      context.completeRequest()
    }
    #expect(report.error == nil)
    #expect(fixture.blocking == [8])
  }

  struct RemovalCase: CustomTestStringConvertible, Sendable {
    let name: String
    let readsIncremental: Bool
    let readsAfterAdd: Bool
    let call: @Sendable (CXCallDirectoryExtensionContext) -> Void
    var testDescription: String { name }
  }

  static let removalCases: [RemovalCase] = [
    .init(name: "remove blocking without reading", readsIncremental: false, readsAfterAdd: false) {
      $0.removeBlockingEntry(withPhoneNumber: 1)
    },
    .init(name: "remove identification without reading", readsIncremental: false, readsAfterAdd: false) {
      $0.removeIdentificationEntry(withPhoneNumber: 1)
    },
    .init(name: "remove all blocking without reading", readsIncremental: false, readsAfterAdd: false) {
      $0.removeAllBlockingEntries()
    },
    .init(name: "remove all identification without reading", readsIncremental: false, readsAfterAdd: false) {
      $0.removeAllIdentificationEntries()
    },
    .init(name: "read only after an add", readsIncremental: true, readsAfterAdd: true) {
      $0.removeBlockingEntry(withPhoneNumber: 1)
    },
  ]

  @Test(arguments: removalCases)
  func unconfirmedRemovalFails(_ testCase: RemovalCase) throws {
    let fixture = try Fixture()
    fixture.loadComplete(blocking: [1, 2])
    let before = try #require(fixture.storeBytes)
    let report = fixture.load { context in
      if testCase.readsAfterAdd { context.addBlockingEntry(withNextSequentialPhoneNumber: 3) }
      if testCase.readsIncremental { _ = context.isIncremental }
      testCase.call(context)
      context.completeRequest()
    }
    #expect(code(report) == .unexpectedIncrementalRemoval)
    #expect(fixture.storeBytes == before)
  }

  @Test func removalInFirstLoadFailsEvenAfterReading() throws {
    let fixture = try Fixture()
    let report = fixture.load { context in
      #expect(context.isIncremental == false)
      context.removeBlockingEntry(withPhoneNumber: 1)
      context.completeRequest()
    }
    #expect(code(report) == .unexpectedIncrementalRemoval)
    #expect(try fixture.device.status(forExtensionWithIdentifier: Fixture.identifier).hasStore == false)
  }

  @Test func maximumEntriesCountsBothListsAfterApplying() throws {
    // Four entries stay below the maximum of five; five reach it.
    let fixture = try Fixture(settings: ExtensionSettings(maximumEntryCount: 5))
    #expect(fixture.loadComplete(blocking: [1, 2], identification: [(1, "a"), (2, "b")]).error == nil)
    let before = try #require(fixture.storeBytes)

    let over = fixture.loadComplete(blocking: [1, 2, 3], identification: [(1, "a"), (2, "b")])
    #expect(code(over) == .maximumEntriesExceeded)
    #expect(fixture.storeBytes == before)

    // Incremental: one add beyond the store's four entries.
    let incremental = fixture.load { context in
      _ = context.isIncremental
      context.addBlockingEntry(withNextSequentialPhoneNumber: 9)
      context.completeRequest()
    }
    #expect(code(incremental) == .maximumEntriesExceeded)
    #expect(fixture.storeBytes == before)

    // Removing one first makes room.
    let balanced = fixture.load { context in
      _ = context.isIncremental
      context.removeBlockingEntry(withPhoneNumber: 1)
      context.addBlockingEntry(withNextSequentialPhoneNumber: 9)
      context.completeRequest()
    }
    #expect(balanced.error == nil)
    #expect(fixture.blocking == [2, 9])
  }

  @Test func cancelRequestFailsWithTheExtensionsError() throws {
    let fixture = try Fixture()
    fixture.loadComplete(blocking: [1])
    let before = try #require(fixture.storeBytes)
    let report = fixture.load { context in
      context.addBlockingEntry(withNextSequentialPhoneNumber: 2)
      context.cancelRequest(withError: NSError(domain: "CallDirectoryHandler", code: 2))
    }
    let error = try #require(report.error as? NSError)
    #expect(error.domain == "CallDirectoryHandler" && error.code == 2)
    #expect(fixture.storeBytes == before)
    let status = try fixture.device.status(forExtensionWithIdentifier: Fixture.identifier)
    #expect(status.lastError?.domain == "CallDirectoryHandler")
  }

  @Test func asynchronousCompletionFromAnotherThread() throws {
    let fixture = try Fixture()
    let report = fixture.load { context in
      Thread.detachNewThread {
        context.addBlockingEntry(withNextSequentialPhoneNumber: 42)
        context.completeRequest()
      }
    }
    #expect(report.error == nil)
    #expect(fixture.blocking == [42])
  }

  @Test func requestThatNeverEndsIsInterrupted() throws {
    let fixture = try Fixture(settings: ExtensionSettings(requestTimeout: 0.2))
    let late = Box<Bool?>(nil)
    let reported = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    let report = fixture.load { context in
      context.addBlockingEntry(withNextSequentialPhoneNumber: 1)
      Thread.detachNewThread {
        release.wait()
        context.completeRequest { late.value = $0 }
        reported.signal()
      }
    }
    #expect(code(report) == .loadingInterrupted)
    #expect(try fixture.device.status(forExtensionWithIdentifier: Fixture.identifier).hasStore == false)
    // Completing after the system gave up: the entries were not added.
    release.signal()
    #expect(reported.wait(timeout: .now() + 30) == .success)
    #expect(late.value == true)
  }

  @Test func injectedFailureLeavesTheStoreUnchanged() throws {
    let fixture = try Fixture()
    fixture.loadComplete(blocking: [1])
    let before = try #require(fixture.storeBytes)
    try fixture.device.injectFailure(.unknown, intoNextReloadOfExtensionWithIdentifier: Fixture.identifier)
    #expect(code(fixture.loadComplete(blocking: [2])) == .unknown)
    #expect(fixture.storeBytes == before)
    #expect(fixture.loadComplete(blocking: [2]).error == nil)
    #expect(fixture.blocking == [2])
  }

  @Test func callsAfterCompletionAreIgnored() throws {
    let fixture = try Fixture()
    let report = fixture.load { context in
      context.addBlockingEntry(withNextSequentialPhoneNumber: 1)
      context.completeRequest()
      context.addBlockingEntry(withNextSequentialPhoneNumber: 0)
      context.completeRequest { expired in #expect(expired) }
    }
    #expect(report.error == nil)
    #expect(fixture.blocking == [1])
  }

  @Test func largeIncrementalMergeStreams() throws {
    let fixture = try Fixture()
    let count: Int64 = 200_000
    let first = fixture.load { context in
      for index in 0..<count { context.addBlockingEntry(withNextSequentialPhoneNumber: 33_100_000_000 + index * 2) }
      for index in 0..<count / 4 {
        context.addIdentificationEntry(withNextSequentialPhoneNumber: 33_100_000_000 + index * 8, label: "l\(index % 7)")
      }
      context.completeRequest()
    }
    #expect(first.error == nil)
    #expect(first.blockingEntryCount == Int(count) && first.identificationEntryCount == Int(count / 4))
    let second = fixture.load { context in
      _ = context.isIncremental
      for index in stride(from: 0, to: count, by: 1_000) {
        context.removeBlockingEntry(withPhoneNumber: 33_100_000_000 + index * 2)
      }
      for index in 0..<count { context.addBlockingEntry(withNextSequentialPhoneNumber: 33_100_000_001 + index * 2) }
      context.completeRequest()
    }
    #expect(second.error == nil)
    #expect(second.blockingEntryCount == Int(2 * count - count / 1_000))
    let numbers = fixture.blocking
    #expect(numbers.count == second.blockingEntryCount)
    #expect(zip(numbers, numbers.dropFirst()).allSatisfy { $0 < $1 })
  }
}
