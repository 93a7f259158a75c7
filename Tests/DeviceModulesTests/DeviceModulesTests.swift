import Foundation
import Testing

/// What an iOS app and its Call Directory extensions embed —
/// CallDirectoryFormat, CallDirectoryProvider, CallDirectorySync and the
/// system layer CalldirSystem beneath them — checked from their sources:
/// no API newer than iOS 15, no Foundation, libc behind `#if canImport`,
/// nothing of the host's (processes, thread pools, fault injection
/// outside debug builds).
///
/// The toolchain builds for Linux only, with no iOS SDK, so its compiler
/// never checks Apple availability. These tests do what can be done here:
/// every public name of the standard library's modules (Swift,
/// _Concurrency, _StringProcessing, RegexBuilder, Synchronization,
/// Observation, Distributed) whose every declaration is newer than iOS 15,
/// read from the `@available` attributes of the toolchain's own module
/// interfaces, is looked for in the device modules' code. They catch a
/// use of such a name (`Mutex`, `Atomic`, `Duration`, `ContinuousClock`,
/// `Regex`, `firstRange`, `InlineArray`, `Span`, `Int128`, …) or an
/// import of anything but the device modules, their C shims and libc. They
/// cannot catch: a newer overload of an older name (`contains(_:)` of a
/// collection, `split(separator:)` by a collection, `Task.sleep(for:)`),
/// which needs the type checker; a name the device modules declare for
/// themselves too; bare `/regex/` literals (a `#/…/#` one is caught);
/// what the language needs of a newer runtime (metadata of typed-throws
/// function types, parameter packs in generic types), which only a build
/// for iOS reports; and Darwin's C APIs (libc here is Glibc).
@Suite struct DeviceModulesTests {
  static let deviceModules = ["CallDirectoryFormat", "CallDirectoryProvider", "CallDirectorySync", "CalldirSystem"]
  /// What a device module may import: the device modules, the C modules
  /// they link on Linux or Darwin, and the C library.
  static let allowedImports: Set<String> = Set(deviceModules).union([
    "CCrypto", "CHardwareCRC", "CVectorCodec", "CommonCrypto", "Glibc", "Musl", "Darwin",
  ])
  /// iOS 15: the `platforms` of Package.swift.
  static let floor = OSVersion([15])

  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  /// Every Swift file of the device modules, by path from the package root.
  static func deviceSources() throws -> [(path: String, text: String)] {
    try sources(of: deviceModules)
  }

  /// Every Swift file of `modules` (folders of Sources, or `Examples/…`).
  static func sources(of modules: [String]) throws -> [(path: String, text: String)] {
    var files: [(String, String)] = []
    for module in modules {
      let folder = module.contains("/") ? module : "Sources/\(module)"
      let directory = root.appendingPathComponent(folder)
      guard let enumerator = FileManager.default.enumerator(atPath: directory.path) else { continue }
      for case let relative as String in enumerator where relative.hasSuffix(".swift") {
        let url = directory.appendingPathComponent(relative)
        files.append(("\(folder)/\(relative)", try String(contentsOf: url, encoding: .utf8)))
      }
    }
    return files.sorted { $0.0 < $1.0 }
  }

  /// The standard library's names newer than ``floor``, and those of them
  /// that are declared at the top level (usable without a dot).
  static func newerNames() throws -> NewerNames {
    let directory = try #require(InterfaceAvailability.runtimeDirectory(), "the Swift runtime's directory")
    let availability = try InterfaceAvailability(runtimeDirectory: directory)
    let newer = availability.names(newerThan: floor)
    return NewerNames(versions: newer, topLevel: Set(newer.keys.filter { availability.isTopLevel($0) }))
  }

  struct NewerNames {
    var versions: [String: OSVersion]
    var topLevel: Set<String>
    subscript(name: String) -> OSVersion? { versions[name] }
  }

  /// Words of the language that the scan sees as identifiers but that name
  /// no API (`didSet` is also a method of Observation's registrar).
  static let keywords: Set<String> = [
    "didSet", "willSet", "get", "set", "modify", "read", "yield", "_read", "_modify", "init", "deinit", "some", "any",
    "self", "Self", "super", "throws", "rethrows", "async", "await", "try", "inout", "borrowing", "consuming",
  ]

  /// The names declared in `sources` (after `func`, `var`, `let`, `case`,
  /// a type's keyword; or as an argument label or a parameter, before `:`).
  static func declaredNames(in sources: [(path: String, text: String)]) -> Set<String> {
    let declaring: Set<String> = ["func", "var", "let", "case", "struct", "class", "enum", "protocol", "typealias",
      "associatedtype", "actor"]
    var own: Set<String> = []
    for (_, text) in sources {
      for token in SourceScanner(text).tokens {
        if let word = token.previousWord, declaring.contains(word) { own.insert(token.text) }
        if token.next == ":" { own.insert(token.text) }
      }
    }
    return own
  }

  /// The uses of names in `newer` in `sources`, as `path:line: name (iOS x)`;
  /// names the sources declare themselves (or use as argument labels) are
  /// theirs, not the library's.
  /// A name of `newer` counts where it is used as a member (after a dot)
  /// or, for a top-level name, anywhere; not when `own` (the names the
  /// code's own modules declare) or ``keywords`` has it.
  static func uses(
    of newer: NewerNames, in sources: [(path: String, text: String)], own: Set<String>? = nil,
    without condition: String? = nil
  ) -> [String] {
    let own = own ?? declaredNames(in: sources)
    var found: [String] = []
    for (path, text) in sources {
      let scanner = SourceScanner(text, without: condition)
      for token in scanner.tokens where !own.contains(token.text) && !keywords.contains(token.text) {
        guard let version = newer[token.text], token.isMember || newer.topLevel.contains(token.text) else { continue }
        found.append("\(path):\(token.line): \(token.text) (iOS \(version))")
      }
      for (number, line) in scanner.code.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
      where line.contains("#/") {
        found.append("\(path):\(number + 1): a regex literal (iOS 16)")
      }
    }
    return found
  }

  @Test func theToolchainsInterfacesListTheNewerAPIs() throws {
    let newer = try Self.newerNames()
    // Each of these is newer than iOS 15 …
    for (name, major) in [
      ("Mutex", 18), ("Atomic", 18), ("Duration", 16), ("ContinuousClock", 16), ("SuspendingClock", 16),
      ("Regex", 16), ("firstRange", 16), ("Int128", 18), ("InlineArray", 26),
    ] {
      #expect(newer[name].map { $0.components.first == major } == true, "\(name): \(String(describing: newer[name]))")
    }
    #expect(["Mutex", "Duration", "Regex", "InlineArray"].allSatisfy { newer.topLevel.contains($0) })
    #expect(!newer.topLevel.contains("firstRange"))
    // … and none of these (`Span` is back-deployed to iOS 12.2).
    for name in [
      "Array", "withUnsafeBufferPointer", "Task", "Sendable", "split", "contains", "UnsafeRawBufferPointer", "Span",
    ] {
      #expect(newer[name] == nil, "\(name) is older than iOS 15")
    }
  }

  @Test func deviceModulesUseNoAPINewerThanIOS15() throws {
    let sources = try Self.deviceSources()
    #expect(sources.count > 100)
    let found = Self.uses(of: try Self.newerNames(), in: sources)
    #expect(found.isEmpty, "newer than iOS 15:\n\(found.joined(separator: "\n"))")
  }

  /// The other targets too keep to the declared platforms (iOS 15 and
  /// macOS 12, whose Swift APIs match), each module by itself (a name one
  /// declares is its own only there); code compiled only on Linux
  /// (`#if os(Linux)`: PhoneNumbers' lazy automata on `Atomic` and
  /// `Mutex`) is left out, since Apple's platforms never build it.
  @Test func everyOtherTargetUsesNoAPINewerThanThePlatforms() throws {
    let newer = try Self.newerNames()
    let folders = try FileManager.default.contentsOfDirectory(atPath: Self.root.appendingPathComponent("Sources").path)
      .filter { !Self.deviceModules.contains($0) }.sorted()
      + ["Examples/CallDirectoryExtension", "Examples/ContainingApp"]
    // Every module's names: a host module sees those of the modules it
    // depends on.
    let own = Self.declaredNames(in: try Self.sources(of: folders + Self.deviceModules))
    var found: [String] = []
    for folder in folders {
      found += Self.uses(of: newer, in: try Self.sources(of: [folder]), own: own, without: "os(Linux)")
    }
    #expect(found.isEmpty, "newer than iOS 15 and macOS 12:\n\(found.joined(separator: "\n"))")
  }

  @Test func theScanFindsUsesAndSkipsCommentsAndText() throws {
    let newer = try Self.newerNames()
    let source = """
      import Synchronization
      /// A `Mutex` in a comment, and one in /* a block */ comment.
      let lock = Mutex<Int>(0)
      let message = "ContinuousClock in text, \\(x.firstRange(of: "y")) in an interpolation"
      let span = #"Duration"#
      func own(clock: Int) -> Int { clock }
      let allowed = access(path, 0) + Int(bitPattern: x.withLock { $0 })
      let pattern = #/\\d+/#
      """
    let found = Self.uses(of: newer, in: [("Example.swift", source)])
    #expect(
      found == [
        "Example.swift:3: Mutex (iOS 18.0)", "Example.swift:4: firstRange (iOS 16.0)",
        "Example.swift:7: withLock (iOS 18.0)", "Example.swift:8: a regex literal (iOS 16)",
      ], "\(found)")
  }

  @Test func deviceModulesImportOnlyDeviceModulesAndGuardedLibc() throws {
    var problems: [String] = []
    for (path, text) in try Self.deviceSources() {
      var conditions: [String] = []
      for (number, line) in SourceScanner(text).code.split(separator: "\n", omittingEmptySubsequences: false)
        .enumerated()
      {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        if trimmed.hasPrefix("#if ") || trimmed.hasPrefix("#elseif ") {
          if trimmed.hasPrefix("#elseif "), !conditions.isEmpty { conditions.removeLast() }
          conditions.append(String(trimmed.drop { $0 != " " }.dropFirst()))
        } else if trimmed.hasPrefix("#else") {
          if !conditions.isEmpty { conditions[conditions.count - 1] = "else" }
        } else if trimmed.hasPrefix("#endif") {
          if !conditions.isEmpty { conditions.removeLast() }
        } else if trimmed.hasPrefix("import ") || trimmed.contains(" import ") {
          let module = String(trimmed.split(separator: " ").last ?? "")
          if !Self.allowedImports.contains(module) {
            problems.append("\(path):\(number + 1): imports \(module)")
          } else if ["Glibc", "Musl", "Darwin", "CommonCrypto"].contains(module),
            conditions.last != "canImport(\(module))"
          {
            problems.append("\(path):\(number + 1): imports \(module) outside #if canImport(\(module))")
          }
        }
      }
    }
    #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
  }

  /// No `posix_spawn`, no thread pool and no fault-injection state in what
  /// a build without `CALLDIR_FAULTS` (a release build) compiles of the
  /// system layer and the device modules; the fault-injection seam itself
  /// is there only with it.
  @Test func theDeviceSideHasNoProcessesPoolsOrFaultsOutsideDebugBuilds() throws {
    let forbidden = [
      "posix_spawn", "fork(", "execve", "waitpid", "DispatchQueue", "concurrentPerform", "import Dispatch",
      "OperationQueue", "nonisolated(unsafe) static var", "FaultInjection.fault(", "FaultInjection.isActive",
      "FaultInjection.install(", "ChildProcess", "CalldirHost",
    ]
    var problems: [String] = []
    var seamLines = 0
    for (path, text) in try Self.deviceSources() {
      let scanner = SourceScanner(text)
      for (number, line) in scanner.lines(without: "CALLDIR_FAULTS") {
        for word in forbidden where line.contains(word) { problems.append("\(path):\(number): \(word)") }
      }
      if path.hasSuffix("Internals/Syscalls.swift") {
        seamLines = scanner.code.components(separatedBy: "FaultInjection.fault(").count - 1
      }
    }
    #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    // The seam is there, but only under CALLDIR_FAULTS.
    #expect(seamLines == 1)
  }

  @Test func aReleaseViewLeavesOutOnlyTheConditionsRegions() {
    let scanner = SourceScanner(
      """
      a
      #if CALLDIR_FAULTS
        b
      #else
        c
      #endif
      #if os(Linux)
        d
      #else
        e
      #endif
      #if !CALLDIR_FAULTS
        f
      #else
        g
      #endif
      """)
    #expect(scanner.lines(without: "CALLDIR_FAULTS").map { String($0.text.trimmingCharacters(in: .whitespaces)) } == [
      "a", "c", "d", "e", "f",
    ])
  }
}
