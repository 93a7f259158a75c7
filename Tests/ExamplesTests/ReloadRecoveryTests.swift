import CallDirectoryProvider
import CallDirectorySync
import CallKitMock
import ExampleContainingApp
import Foundation
import Testing

/// What the example sync does after each `reloadExtension` error.
@Suite struct ReloadRecoveryTests {
  struct Case: CustomTestStringConvertible, Sendable {
    let code: Int
    let recovery: ReloadRecovery
    var testDescription: String { "code \(code)" }
  }

  static let callDirectoryCases: [Case] = [
    Case(code: 0, recovery: .retry),  // unknown
    Case(code: 1, recovery: .stop),  // noExtensionFound
    Case(code: 2, recovery: .retry),  // loadingInterrupted
    Case(code: 3, recovery: .reloadWithFullSnapshot),  // entriesOutOfOrder
    Case(code: 4, recovery: .reloadWithFullSnapshot),  // duplicateEntries
    Case(code: 5, recovery: .stop),  // maximumEntriesExceeded
    Case(code: 6, recovery: .waitForUser),  // extensionDisabled
    Case(code: 7, recovery: .retry),  // currentlyLoading
    Case(code: 8, recovery: .reloadWithFullSnapshot),  // unexpectedIncrementalRemoval
    Case(code: 11, recovery: .retry),  // undocumented, seen with a corrupted CallDirectory.db
    Case(code: 102, recovery: .retry),  // undocumented, seen in the field
  ]

  @Test(arguments: callDirectoryCases)
  func callDirectoryCodes(_ entry: Case) {
    let domain = CXErrorCodeCallDirectoryManagerError.errorDomain
    #expect(ReloadRecovery(domain: domain, code: entry.code) == entry.recovery)
    #expect(ReloadRecovery(callDirectoryCode: entry.code) == entry.recovery)
    let error = NSError(domain: domain, code: entry.code)
    #expect(ReloadRecovery(for: error) == entry.recovery)
  }

  @Test func theMocksErrorsBridgeToTheirDomainAndCode() {
    let error = CXErrorCodeCallDirectoryManagerError(.extensionDisabled)
    #expect(ReloadRecovery(for: error) == .waitForUser)
  }

  @Test func providerCodesAndOtherDomains() {
    #expect(ReloadRecovery(for: CallDirectoryProviderError.noUsableBlob("none")) == .reloadWithFullSnapshot)
    #expect(ReloadRecovery(providerCode: 3) == .reloadWithFullSnapshot)
    #expect(ReloadRecovery(providerCode: 9) == .stop)
    #expect(ReloadRecovery(providerCode: 12) == .retry)
    #expect(ReloadRecovery(domain: NSCocoaErrorDomain, code: 4) == .retry)
  }

  @Test func backoffDoublesUpToItsCap() {
    let policy = ReloadRetryPolicy(maximumAttempts: 6, initialDelay: 2, maximumDelay: 10)
    let seconds = (1...6).map { Double(policy.delayNanoseconds(afterAttempt: $0)) / 1e9 }
    #expect(seconds == [2, 4, 8, 10, 10, 10])
  }
}
