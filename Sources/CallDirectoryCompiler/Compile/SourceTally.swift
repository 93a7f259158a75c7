/// What one source gave so far, with its rejects reported as they come.
struct SourceTally {
  let spec: SourceSpec
  let path: String
  let rejects: RejectLog
  var accepted = 0
  var rejected = 0

  /// Reports a rejected data line.
  mutating func reject(line: Int, reason: String) throws(CompileError) {
    rejected += 1
    try rejects.add(path: path, line: line, reason: reason)
  }
}
