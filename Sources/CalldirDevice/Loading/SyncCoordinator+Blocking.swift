import CallDirectorySync
import Dispatch

extension SyncCoordinator where Reloader == DeviceSyncReloader {
  /// Runs the sync (``SyncCoordinator/run()``) from synchronous code and
  /// waits for it: `calldir device sync`, whose simulated device and
  /// sources block. The run goes on a task of its own; the calling thread
  /// waits for its result and touches nothing meanwhile.
  public func runToCompletion() throws(SyncRunError<DeviceLoadError>) -> SyncRun<ExtensionLoadResult> {
    let handoff = _SyncHandoff(coordinator: self)
    let done = DispatchSemaphore(value: 0)
    Task.detached {
      await handoff.run()
      done.signal()
    }
    done.wait()
    guard let result = handoff.result else { throw .cancelled }
    return try result.get()
  }
}

/// The coordinator and its result, handed to the task that runs it and
/// back: only one thread uses it at a time (the caller waits on a
/// semaphore while the task runs), which is why it may be sent.
private final class _SyncHandoff: @unchecked Sendable {
  let coordinator: SyncCoordinator<DeviceSyncReloader>
  var result: Result<SyncRun<ExtensionLoadResult>, SyncRunError<DeviceLoadError>>?

  init(coordinator: SyncCoordinator<DeviceSyncReloader>) {
    self.coordinator = coordinator
  }

  func run() async {
    do {
      result = .success(try await coordinator.run())
    } catch {
      result = .failure(error)
    }
  }
}
