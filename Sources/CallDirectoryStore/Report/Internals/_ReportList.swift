/// A list of a snapshot as the report's charts and tables show it.
enum _ReportList: CaseIterable {
  case blocking
  case identification

  /// The name in class names, `data-*` attributes and text.
  var name: String {
    switch self {
    case .blocking: "blocking"
    case .identification: "identification"
    }
  }

  /// The heading of its charts.
  var title: String {
    switch self {
    case .blocking: "Blocking entries"
    case .identification: "Identification entries"
    }
  }

  func entries(of version: StoreReport.Version) -> Int {
    switch self {
    case .blocking: version.blocking
    case .identification: version.identification
    }
  }

  func added(_ changes: ListChanges) -> Int {
    switch self {
    case .blocking: changes.blockingAdded
    case .identification: changes.identificationAdded
    }
  }

  func removed(_ changes: ListChanges) -> Int {
    switch self {
    case .blocking: changes.blockingRemoved
    case .identification: changes.identificationRemoved
    }
  }
}
