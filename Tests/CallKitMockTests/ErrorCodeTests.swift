import Foundation
import Testing

@testable import CallKitMock

@Suite struct ErrorCodeTests {
  @Test func rawValuesMatchCallKit() {
    let expected: [(CXErrorCodeCallDirectoryManagerError.Code, Int, String)] = [
      (.unknown, 0, "unknown (0)"),
      (.noExtensionFound, 1, "noExtensionFound (1)"),
      (.loadingInterrupted, 2, "loadingInterrupted (2)"),
      (.entriesOutOfOrder, 3, "entriesOutOfOrder (3)"),
      (.duplicateEntries, 4, "duplicateEntries (4)"),
      (.maximumEntriesExceeded, 5, "maximumEntriesExceeded (5)"),
      (.extensionDisabled, 6, "extensionDisabled (6)"),
      (.currentlyLoading, 7, "currentlyLoading (7)"),
      (.unexpectedIncrementalRemoval, 8, "unexpectedIncrementalRemoval (8)"),
    ]
    #expect(CXErrorCodeCallDirectoryManagerError.Code.allCases.count == expected.count)
    for (code, raw, text) in expected {
      #expect(code.rawValue == raw)
      #expect(code.description == text)
      #expect(CXErrorCodeCallDirectoryManagerError(code).description == text)
    }
  }

  @Test func bridgesToCallKitDomain() {
    let error = CXErrorCodeCallDirectoryManagerError(.duplicateEntries, reason: "blocking entry 0 repeats")
    let bridged = error as NSError
    #expect(bridged.domain == "com.apple.CallKit.error.calldirectorymanager")
    #expect(bridged.code == 4)
    #expect(error.description == "duplicateEntries (4): blocking entry 0 repeats")
    #expect(error == CXErrorCodeCallDirectoryManagerError(.duplicateEntries))
  }

  @Test func unknownRawCodesMapToUnknown() {
    #expect(CXErrorCodeCallDirectoryManagerError(rawCode: 102).code == .unknown)
    #expect(CXErrorCodeCallDirectoryManagerError(rawCode: 7).code == .currentlyLoading)
  }

  @Test func patternMatchesCodes() {
    let error: any Error = CXErrorCodeCallDirectoryManagerError(.entriesOutOfOrder)
    switch error {
    case CXErrorCodeCallDirectoryManagerError.entriesOutOfOrder: break
    default: Issue.record("pattern did not match")
    }
  }

  @Test func phoneNumberMaximum() {
    #expect(CXCallDirectoryPhoneNumberMax == Int64.max - 1)
  }
}
