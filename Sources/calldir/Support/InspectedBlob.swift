import CallDirectoryFormat
import CalldirSystem

/// What `calldir inspect --json` prints: a verified blob's header
/// (schemas/output/inspect.schema.json).
struct InspectedBlob: JSONEncodable {
  let header: BlobHeader
  /// The path, as given.
  let path: String
  /// The labels the blob holds.
  let labels: Int

  var json: JSONValue {
    var counts: [(key: String, value: JSONValue)] = []
    for section in header.kind.sectionOrder where section != .labels {
      counts.append((Self.key(section), Int64(header.entryCount(section)).json))
    }
    counts.append(("labels", labels.json))
    var object: [(key: String, value: JSONValue)] = [
      ("path", path.json),
      ("formatVersion", Int64(header.formatVersion).json),
      ("dataset", header.dataset.json),
      ("kind", header.kind.description.json),
      ("version", Int64(header.version).json),
    ]
    if header.kind == .delta {
      object.append(("baseVersion", Int64(header.baseVersion).json))
      object.append(("baseDigest", header.baseDigest.hex.json))
    }
    object += [
      ("digest", header.contentDigest.hex.json),
      ("bytes", Int64(header.fileSize).json),
      ("counts", .object(counts)),
      ("checksums", "ok"),
    ]
    return .object(object)
  }

  private static func key(_ section: BlobSection) -> String {
    switch section {
    case .blocking: "blocking"
    case .identification: "identification"
    case .blockingRemoves: "blockingRemoves"
    case .blockingAdds: "blockingAdds"
    case .identificationRemoves: "identificationRemoves"
    case .identificationAdds: "identificationAdds"
    case .labels: "labels"
    case .header: "header"
    }
  }
}
