import CalldirSystem

extension ExtensionSettings {
  /// As an extension record stores them.
  var json: JSONValue {
    [
      "maximumEntryCount": .int(Int64(maximumEntryCount)),
      "memoryBudgetBytes": .int(Int64(memoryBudgetBytes)),
      "requestTimeout": .double(requestTimeout),
      "incrementalReAddPolicy": .string(incrementalReAddPolicy.rawValue),
      "traceLimit": .int(Int64(traceLimit)),
    ]
  }

  init(json fields: _JSONFields) throws(_DeviceStorageError) {
    let policyName = try fields.string("incrementalReAddPolicy")
    guard let policy = IncrementalReAddPolicy(rawValue: policyName) else {
      throw .corrupt(path: fields.path, reason: "unknown incremental re-add policy '\(policyName)'")
    }
    self.init(
      maximumEntryCount: try fields.int("maximumEntryCount"),
      memoryBudgetBytes: try fields.int("memoryBudgetBytes"),
      requestTimeout: try fields.number("requestTimeout"),
      incrementalReAddPolicy: policy,
      traceLimit: try fields.int("traceLimit"))
  }
}
