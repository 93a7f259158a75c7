// The principal class of a Call Directory extension that serves calldir
// blobs (docs/guides/ios-app.md, "The Call Directory extension").
//
// Copy this file into each Call Directory extension target of the app and
// link the `CallDirectoryProvider` product. Every extension target runs the
// same code; its Info.plist says which shard of the dataset it serves:
//
//     <key>CalldirAppGroup</key>        <string>group.com.example.blocker</string>
//     <key>CalldirExtensionIndex</key>  <integer>1</integer>
//
// and NSExtension › NSExtensionPrincipalClass names this class
// (`$(PRODUCT_MODULE_NAME).CallDirectoryHandler`).
//
// On iOS it uses CallKit; elsewhere CallKitMock, which has CallKit's names,
// so that this package builds and tests the very same file.

#if canImport(CallKit) && !os(macOS)
  import CallKit
#else
  import CallKitMock
#endif
import CallDirectoryProvider
import Foundation
#if canImport(os)
  import os
#endif

// The context already has every method the loader calls, under CallKit's
// names. (In an app target, where neither CallKit nor calldir is your own
// module, Swift 6 asks for `@retroactive` here:
// `extension CXCallDirectoryExtensionContext: @retroactive CallDirectoryRequestContext {}`.)
extension CXCallDirectoryExtensionContext: CallDirectoryRequestContext {}

// The loader cancels requests with a `CallDirectoryProviderError`; with this
// conformance it crosses to the app as NSError domain `CallDirectoryProvider`
// with the error's stable code (1…12), which the app's sync understands.
// (Also `@retroactive` in an app target.)
extension CallDirectoryProviderError: CustomNSError {}

/// Serves each Call Directory request from the calldir blobs the app placed
/// in this extension's part of the App Group container.
///
/// The system creates one handler per request and calls
/// ``beginRequest(with:)`` once. All of the work (reading `isIncremental`
/// first, choosing the blob, streaming it in CallKit's order, ending the
/// request with `completeRequest` or `cancelRequest(withError:)`, recording
/// what was loaded) is ``CallDirectoryLoader``'s; this class only finds the
/// blobs and gives each batch of entry calls its own autorelease pool.
public final class CallDirectoryHandler: CXCallDirectoryProvider {
  /// The Info.plist key holding the App Group identifier.
  public static let appGroupKey = "CalldirAppGroup"
  /// The Info.plist key holding the extension's index in the manifest (1, 2, …).
  public static let extensionIndexKey = "CalldirExtensionIndex"

  /// Where this extension's blobs and state are, or why that is unknown.
  private let location: Result<ProviderLayout, CallDirectoryHandlerError>
  /// The loader's tuning knobs.
  private let options: CallDirectoryLoader.Options

  /// The initializer the system calls: the App Group and the extension's
  /// index come from the extension's Info.plist.
  override public init() {
    location = Self.layout(from: Bundle.main)
    options = CallDirectoryLoader.Options()
    super.init()
  }

  /// A handler over an explicit container (tests, previews, tools).
  ///
  /// - Parameters:
  ///   - containerPath: The App Group container directory.
  ///   - extensionIndex: The extension's index in the manifest (1, 2, …).
  ///   - options: The loader's tuning knobs.
  public init(containerPath: String, extensionIndex: Int, options: CallDirectoryLoader.Options = .init()) {
    location = .success(ProviderLayout(containerPath: containerPath, extensionIndex: extensionIndex))
    self.options = options
    super.init()
  }

  /// Serves the request and ends it, synchronously.
  ///
  /// The loader reads `isIncremental` before any other call, then either
  /// adds a full snapshot (a complete request), applies a delta on the
  /// snapshot the system holds (removes, then adds), or resets with
  /// `removeAll…` and adds a full snapshot; anything that goes wrong before
  /// `completeRequest` cancels the request, so the system keeps what it had.
  override public func beginRequest(with context: CXCallDirectoryExtensionContext) {
    context.delegate = self
    let layout: ProviderLayout
    switch location {
    case .success(let found):
      layout = found
    case .failure(let problem):
      Self.log.error("cannot serve the request: \(problem.description)")
      context.cancelRequest(withError: problem)
      return
    }
    let loader = CallDirectoryLoader(
      layout: layout, options: options, batchScope: { batch in autoreleasepool(invoking: batch) })
    loader.serve(context) { report in Self.log.report(report) }
  }

  /// The layout an extension's Info.plist describes.
  static func layout(from bundle: Bundle) -> Result<ProviderLayout, CallDirectoryHandlerError> {
    guard let group = bundle.object(forInfoDictionaryKey: appGroupKey) as? String, !group.isEmpty else {
      return .failure(.missingInfoKey(appGroupKey))
    }
    guard let index = bundle.object(forInfoDictionaryKey: extensionIndexKey) as? Int, index >= 1 else {
      return .failure(.missingInfoKey(extensionIndexKey))
    }
    #if canImport(Darwin)
      guard let container = FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: group) else {
        return .failure(.noAppGroupContainer(group))
      }
      return .success(ProviderLayout(containerPath: container.path, extensionIndex: index))
    #else
      return .failure(.noAppGroupContainer(group))
    #endif
  }

  /// Where the handler logs (the unified log on Apple platforms).
  static let log = HandlerLog()
}

extension CallDirectoryHandler: CXCallDirectoryExtensionContextDelegate {
  /// The system dropped the request after `completeRequest` (an order,
  /// duplicate, size or removal error, `CXErrorCodeCallDirectoryManagerError`);
  /// the app's `reloadExtension` reports the same error, and the loader has
  /// already put its state back to what the system still holds.
  public func requestFailed(for extensionContext: CXCallDirectoryExtensionContext, withError error: any Error) {
    let bridged = error as NSError
    Self.log.error("the system dropped the request: \(bridged.domain) \(bridged.code)")
  }
}

/// Why the handler could not start serving a request; the request is
/// cancelled with it, so the system keeps the entries it has.
public enum CallDirectoryHandlerError: Error, Hashable, Sendable, CustomStringConvertible, CustomNSError {
  /// The extension's Info.plist lacks the key, or its value is unusable.
  case missingInfoKey(String)
  /// The App Group container cannot be found: the App Groups capability or
  /// its identifier is not the app's.
  case noAppGroupContainer(String)

  /// The error domain, `CallDirectoryHandler`.
  public static var errorDomain: String { "CallDirectoryHandler" }

  /// 1 for ``missingInfoKey(_:)``, 2 for ``noAppGroupContainer(_:)``.
  public var errorCode: Int {
    switch self {
    case .missingInfoKey: 1
    case .noAppGroupContainer: 2
    }
  }

  /// A lowercase, one-line message.
  public var description: String {
    switch self {
    case .missingInfoKey(let key): "the extension's Info.plist has no usable '\(key)'"
    case .noAppGroupContainer(let group): "no App Group container for '\(group)'"
    }
  }
}

/// The handler's log: the unified log (`os.Logger`, iOS 14) where it
/// exists, nothing elsewhere.
struct HandlerLog: Sendable {
  /// Logs a failure.
  func error(_ message: String) {
    #if canImport(os)
      Logger(subsystem: "calldir", category: "CallDirectoryHandler").error("\(message, privacy: .public)")
    #endif
  }

  /// Logs how a request ended.
  func report(_ report: LoadReport) {
    #if canImport(os)
      let logger = Logger(subsystem: "calldir", category: "CallDirectoryHandler")
      let kind = report.isIncremental ? "incremental" : "complete"
      let strategy = report.plan.map { $0.strategy.rawValue } ?? "none"
      let counts = report.counts
      let summary = "\(kind) request, \(strategy): blocking +\(counts.blockingAdds) -\(counts.blockingRemoves), "
        + "identification +\(counts.identificationAdds) -\(counts.identificationRemoves), \(report.outcome)"
      logger.info("\(summary, privacy: .public)")
      if let stateError = report.stateError {
        logger.error("the outcome could not be recorded: \(stateError.description, privacy: .public)")
      }
    #endif
  }
}

#if !canImport(ObjectiveC)
  /// Runs `body`. Without the Objective-C runtime nothing is autoreleased,
  /// so there is no pool to drain; on Apple platforms the real
  /// `autoreleasepool(invoking:)` runs instead.
  func autoreleasepool<Result>(invoking body: () throws -> Result) rethrows -> Result {
    try body()
  }
#endif
