import CalldirSystem

/// What `calldir keygen --json` prints: the two files written and the
/// public key (schemas/output/keygen.schema.json).
struct GeneratedKeyPair: JSONEncodable {
  let secretPath: String
  let publicPath: String
  /// The public key, base64.
  let publicKey: String

  var json: JSONValue {
    ["secretKey": secretPath.json, "publicKey": publicPath.json, "publicKeyBase64": publicKey.json]
  }
}
