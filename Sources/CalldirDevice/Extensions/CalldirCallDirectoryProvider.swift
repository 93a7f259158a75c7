import CallDirectoryProvider
import CallKitMock
import Foundation

/// The provider calldir's extensions run (in the process the simulated
/// system spawns, `calldir device _extension`): CallDirectoryProvider's
/// loader over the extension's app-group container.
public final class CalldirCallDirectoryProvider: CXCallDirectoryProvider {
  public let options: CallDirectoryLoader.Options

  public init(options: CallDirectoryLoader.Options = CallDirectoryLoader.Options()) {
    self.options = options
  }

  public override func beginRequest(with context: CXCallDirectoryExtensionContext) {
    let layout = ProviderLayout(containerPath: context.simulatedAppGroupContainerURL.path)
    CallDirectoryLoader(layout: layout, options: options).serve(context)
  }
}

// CallKitMock's context has CallKit's method names, so it conforms as is.
extension CXCallDirectoryExtensionContext: CallDirectoryEntrySink {}
extension CXCallDirectoryExtensionContext: CallDirectoryRequestContext {}

// Stable domain and code when a provider error crosses the process boundary.
extension CallDirectoryProviderError: CustomNSError {}
