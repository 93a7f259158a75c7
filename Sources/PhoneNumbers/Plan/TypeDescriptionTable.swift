/// The number types of a plan's regions (`data/number-types.tsv`) as a
/// ``KeyedTable``: a lazy one reads a region's types when the classifier
/// first needs them, checked against the plan's regions.
final class TypeDescriptionTable: @unchecked Sendable {
  private let table: KeyedTable<NumberTypeDescription>

  /// A table parsed before.
  init(parsed: [String: [NumberTypeDescription]]) {
    table = KeyedTable(parsed: parsed)
  }

  /// A table parsed when asked, from `text` (which must parse whole; a
  /// line that would not is left out), checked against `regions`.
  init(lazy text: String, regions: [String: RegionMetadata]) {
    table = KeyedTable(lazy: text) { lines in
      var result: [NumberTypeDescription] = []
      for line in lines {
        guard
          let (_, description) = try? NumberingPlan.typeDescription(
            NumberingPlan.typeFields(line), line: 0, regions: regions),
          !result.contains(where: { $0.type == description.type })
        else { continue }
        result.append(description)
      }
      return result
    }
  }

  /// The types of the region keyed `key`, in table order.
  func descriptions(forKey key: String) -> [NumberTypeDescription] { table.values(forKey: key) }
}
