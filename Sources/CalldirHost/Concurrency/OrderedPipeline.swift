import CalldirSystem
import Dispatch

/// Runs jobs on worker threads while the calling thread fills the next ones,
/// and hands the finished jobs back in the order they were filled.
///
/// A ring of `window` reusable jobs: each job starts as soon as it is
/// submitted; when every job of the ring is in flight, the oldest is waited
/// for and folded before its slot is filled again. `fold` must take what it
/// needs and reset the job.
///
///     let pipeline = OrderedPipeline(window: 4, makeJob: { Job() }, work: { $0.run() })
///     while let input = next() {
///       try pipeline.nextJob(fold: take).load(input)
///       pipeline.submit()
///     }
///     try pipeline.finish(fold: take)
public final class OrderedPipeline<Job: AnyObject & Sendable> {
  private let jobs: [Job]
  private let done: [DispatchSemaphore]
  private let work: @Sendable (Job) -> Void
  /// The slot to fill next.
  private var head = 0
  /// How many jobs run (or wait to be folded), oldest at `head - inFlight`.
  private var inFlight = 0

  /// Creates `window` jobs with `makeJob`; each submitted job runs `work` on a worker thread.
  public init(window: Int, makeJob: () -> Job, work: @escaping @Sendable (Job) -> Void) {
    let window = max(1, window)
    jobs = (0..<window).map { _ in makeJob() }
    done = (0..<window).map { _ in DispatchSemaphore(value: 0) }
    self.work = work
  }

  deinit {
    // Never leave a worker writing into a job that is going away.
    while inFlight > 0 {
      done[oldest].wait()
      inFlight -= 1
    }
  }

  private var oldest: Int { (head - inFlight + jobs.count) % jobs.count }

  /// The job to fill next; first folds the oldest job when every slot is taken.
  public func nextJob<E: Error>(fold: (Job) throws(E) -> Void) throws(E) -> Job {
    if inFlight == jobs.count { try foldOldest(fold: fold) }
    return jobs[head]
  }

  /// Starts the job from ``nextJob(fold:)``.
  public func submit() {
    let job = jobs[head]
    let done = self.done[head]
    let work = self.work
    DispatchQueue.global().async {
      work(job)
      done.signal()
    }
    head = (head + 1) % jobs.count
    inFlight += 1
  }

  /// Waits for every job in flight and folds them in order.
  public func finish<E: Error>(fold: (Job) throws(E) -> Void) throws(E) {
    while inFlight > 0 { try foldOldest(fold: fold) }
  }

  private func foldOldest<E: Error>(fold: (Job) throws(E) -> Void) throws(E) {
    let slot = oldest
    done[slot].wait()
    inFlight -= 1
    try fold(jobs[slot])
  }
}
