// A Call Directory "extension process" for CallKitMock's tests.
//
//   mockext range <first> <count>    complete load of <count> ascending blocking numbers
//   mockext labels <first> <count>   complete load of identification entries "label <n>"
//   mockext hog <MiB> <count>        touches <MiB> of memory, then loads like `range 1 <count>`
//   mockext crash                    adds a few entries, then aborts
//   mockext outoforder               adds 5 then 3, then completes
//   mockext cancel                   cancels with NSError(domain: "CallDirectoryHandler", code: 1)
//   mockext delta <remove> <add>     reads isIncremental, removes one number, adds one, completes
//   mockext silent                   never ends the request
//
// Every mode writes "expired=<Bool>" and any delegate failure to
// result.txt in the app-group container.

import CallKitMock
import Foundation

final class TestProvider: CXCallDirectoryProvider, CXCallDirectoryExtensionContextDelegate {
  let arguments: [String]
  var notes: [String] = []

  init(arguments: [String]) {
    self.arguments = arguments
  }

  private func integer(_ index: Int, _ fallback: Int64 = 0) -> Int64 {
    index < arguments.count ? Int64(arguments[index]) ?? fallback : fallback
  }

  override func beginRequest(with context: CXCallDirectoryExtensionContext) {
    context.delegate = self
    switch arguments.first ?? "" {
    case "range":
      for number in integer(1)..<(integer(1) + integer(2)) {
        context.addBlockingEntry(withNextSequentialPhoneNumber: number)
      }
    case "labels":
      for number in integer(1)..<(integer(1) + integer(2)) {
        context.addIdentificationEntry(withNextSequentialPhoneNumber: number, label: "label \(number)")
      }
    case "hog":
      let size = Int(integer(1)) << 20
      let hog = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 4096)
      for offset in stride(from: 0, to: size, by: 4096) {
        hog.storeBytes(of: UInt8(truncatingIfNeeded: offset >> 12), toByteOffset: offset, as: UInt8.self)
      }
      for number in 1...max(1, integer(2)) {
        context.addBlockingEntry(withNextSequentialPhoneNumber: number)
      }
      hog.deallocate()
    case "crash":
      for number in Int64(1)...10 { context.addBlockingEntry(withNextSequentialPhoneNumber: number) }
      abort()
    case "outoforder":
      context.addBlockingEntry(withNextSequentialPhoneNumber: 5)
      context.addBlockingEntry(withNextSequentialPhoneNumber: 3)
    case "cancel":
      context.cancelRequest(withError: NSError(domain: "CallDirectoryHandler", code: 1))
      return
    case "delta":
      notes.append("isIncremental=\(context.isIncremental)")
      context.removeBlockingEntry(withPhoneNumber: integer(1))
      context.addBlockingEntry(withNextSequentialPhoneNumber: integer(2))
    case "silent":
      return
    default:
      context.cancelRequest(withError: NSError(domain: "mockext", code: 64))
      return
    }
    context.completeRequest { expired in
      self.notes.append("expired=\(expired)")
      let url = context.simulatedAppGroupContainerURL.appendingPathComponent("result.txt")
      try? Data((self.notes.joined(separator: "\n") + "\n").utf8).write(to: url)
    }
  }

  func requestFailed(for extensionContext: CXCallDirectoryExtensionContext, withError error: any Error) {
    notes.append("requestFailed=\(error)")
  }
}

exit(CallDirectoryExtensionProcess.run { TestProvider(arguments: Array(CommandLine.arguments.dropFirst())) })
