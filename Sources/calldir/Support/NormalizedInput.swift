import CalldirSystem
import PhoneNumbers

/// One line of `calldir normalize --json` for a number given as an
/// argument (schemas/output/normalize.schema.json); numbers read from
/// standard input are written by the batch normalizer, byte for byte alike.
struct NormalizedInput: JSONEncodable {
  let input: String
  let result: Result<Int64, NormalizationRejection>
  /// The number's validity and type, when it was classified.
  let validity: NumberValidity?
  /// `--valid` rejects the number: `number` is null and `reason` says why.
  let invalid: Bool
  /// With `--national`: the national digits (nil when there are none).
  let national: String??

  var json: JSONValue {
    let number: JSONValue
    let reason: JSONValue
    switch result {
    case .success(let value): (number, reason) = invalid ? (.null, .string(Self.invalidReason(validity))) : (.int(value), .null)
    case .failure(let rejection): (number, reason) = (.null, .string(rejection.description))
    }
    let possible = (try? result.get()) != nil
    var object: [(key: String, value: JSONValue)] = [
      ("input", input.json), ("number", number), ("reason", reason),
      ("valid", possible ? .bool(validity?.isValid == true) : .null),
      ("type", possible ? .string((validity?.type ?? .unknown).rawValue) : .null),
    ]
    if let national { object.append(("national", national.json)) }
    return .object(object)
  }

  /// Why `--valid` rejects a possible number.
  static func invalidReason(_ validity: NumberValidity?) -> String {
    validity?.invalidReason ?? "invalid country calling code"
  }
}
