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

  init(json fields: _RecordValue) throws(_DeviceStorageError) {
    let policyField = fields.member("incrementalReAddPolicy")
    let policyName = try policyField.string()
    guard let policy = IncrementalReAddPolicy(rawValue: policyName) else {
      let names = IncrementalReAddPolicy.allCases.map(\.rawValue).joined(separator: " or ")
      throw policyField.failure(expected: "\(names), got '\(policyName)'")
    }
    self.init(
      maximumEntryCount: try fields.member("maximumEntryCount").integer(),
      memoryBudgetBytes: try fields.member("memoryBudgetBytes").integer(),
      requestTimeout: try fields.member("requestTimeout").number(),
      incrementalReAddPolicy: policy,
      traceLimit: try fields.member("traceLimit").integer())
  }
}
