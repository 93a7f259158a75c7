// swift-tools-version:6.0
import PackageDescription

/// Release builds skip the dynamic exclusivity checks on the hot paths
/// (class properties touched per number cost a quarter of a build's time);
/// debug builds, which the tests run, keep them and so still catch any
/// overlapping access.
let hotPath: [SwiftSetting] = [.unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release))]

/// On Linux, release builds of calldir link libsodium, libsqlite3 and
/// libcrypto from their static archives when `make` has gathered them in
/// .build/static-libs (the only search path before the system's, which is
/// why the three system libraries below name no pkg-config file): the
/// dynamic loader then loads and binds none of them when a command starts,
/// which takes 1–2 ms off every run. Without that folder the shared
/// libraries serve. None of their symbols is exported, so a library loaded
/// later with dlopen (libcurl, with its own libcrypto) never binds to them.
let staticSystemLibraries: [LinkerSetting] = [
  .unsafeFlags(["-L\(Context.packageDirectory)/.build/static-libs"], .when(platforms: [.linux], configuration: .release))
]

let package = Package(
  name: "calldir",
  // The device products (CallDirectoryFormat, CallDirectoryProvider,
  // CallDirectorySync and CalldirSystem beneath them) run in an iOS 15 app
  // and its Call Directory extensions; macOS 12 is the matching release.
  // The host tools and the tests are built and run on Linux.
  platforms: [.iOS(.v15), .macOS(.v12)],
  products: [
    .executable(name: "calldir", targets: ["calldir"]),
    .library(name: "PhoneNumbers", targets: ["PhoneNumbers"]),
    .library(name: "CallDirectoryFormat", targets: ["CallDirectoryFormat"]),
    .library(name: "CallDirectoryProvider", targets: ["CallDirectoryProvider"]),
    .library(name: "CallDirectorySync", targets: ["CallDirectorySync"]),
  ],
  targets: [
    // ICU is reached only through this C shim: its public header uses plain
    // <stdint.h> types, and <unicode/*.h> stays inside the .c file, so the
    // versioned ICU symbols (u_foo_72) resolve at C compile time and never
    // clash with Foundation's private _FoundationICU module.
    // On Linux it loads libicuuc with dlopen on first use (commands that
    // never touch text do not load libicuuc and its 30 MB of data).
    .target(name: "CICUShim", linkerSettings: [.linkedLibrary("icuuc", .when(platforms: [.macOS]))]),
    .target(name: "UnicodeText", dependencies: ["CICUShim"]),
    .systemLibrary(name: "CSQLite"),
    // libxml2 for the `xml` source format (streaming reader, patterns,
    // XPath); only the server-side compiler links it, never a device module.
    .systemLibrary(name: "CLibXML2", pkgConfig: "libxml-2.0", providers: [.apt(["libxml2-dev"]), .brew(["libxml2"])]),
    // libsodium for Ed25519 and SHA-256 on the server and in calldir's
    // device simulation; the modules an app embeds never link it (they take
    // a verifier: CryptoKit on iOS).
    .systemLibrary(name: "CSodium"),
    // OpenSSL's libcrypto for SHA-256 on Linux: the content digests of
    // every blob a build writes go through it, and it uses the CPU's SHA
    // extensions (six times libsodium's portable code here).
    .systemLibrary(name: "CCrypto"),
    // CRC-32C on the CPU's own instruction (SSE4.2, AArch64 CRC32), for
    // CallDirectoryFormat on Linux; elsewhere its Swift tables serve.
    .target(name: "CHardwareCRC"),
    // Elias–Fano decoding with AVX-512 (VBMI2's compress), for
    // CallDirectoryFormat on Linux when the CPU has it, and E.164 lines read
    // four at a time for PhoneNumbers; elsewhere their Swift loops serve.
    .target(name: "CVectorCodec"),
    .target(name: "Sodium", dependencies: ["CSodium", "CallDirectorySync"]),
    .target(name: "SQLiteDatabase", dependencies: ["CSQLite"]),
    // The system layer every module stands on (the device side included):
    // syscalls, file descriptors, atomic files, varints, JSON, text
    // escaping, time. No Foundation, nothing newer than iOS 15, no process
    // spawning, no thread pool. Its syscalls go through the fault-injection
    // seam only in debug builds (CALLDIR_FAULTS: the tests, the fuzz smoke
    // run); release builds, and so what an app extension embeds, have none.
    .target(name: "CalldirSystem", swiftSettings: [.define("CALLDIR_FAULTS", .when(configuration: .debug))]),
    // The host tools' system code, never embedded by an app extension:
    // child processes (posix_spawn) and pipes, the thread pools and the
    // ordered pipeline, the fault rules handed to a child process.
    .target(name: "CalldirHost", dependencies: ["CalldirSystem"]),
    // Hand-written command-line framework: subcommands, help, sysexits, JSON output.
    .target(name: "CommandLineKit", dependencies: ["CalldirSystem"]),
    // Numbering plan (generated from libphonenumber metadata) and normalizer.
    .target(
      name: "PhoneNumbers",
      dependencies: [
        "CalldirSystem", "CalldirHost", "UnicodeText",
        .target(name: "CVectorCodec", condition: .when(platforms: [.linux])),
      ],
      swiftSettings: hotPath),
    // The blob format: stdlib + Glibc only, because it ships in an app extension.
    // SHA-256 comes from the platform: CommonCrypto on Darwin, OpenSSL's
    // libcrypto (CCrypto) on Linux; CRC-32C from the CPU on Linux.
    .target(
      name: "CallDirectoryFormat",
      dependencies: [
        "CalldirSystem",
        .target(name: "CCrypto", condition: .when(platforms: [.linux])),
        .target(name: "CHardwareCRC", condition: .when(platforms: [.linux])),
        .target(name: "CVectorCodec", condition: .when(platforms: [.linux])),
      ],
      swiftSettings: hotPath),
    // Deterministic dataset generators for tests and benchmarks (not shipped).
    .target(name: "FormatFixtures"),
    // Apple's Call Directory API mirrored on Linux, with a simulated device.
    .target(name: "CallKitMock", dependencies: ["CalldirSystem", "CalldirHost"]),
    // A tiny extension process for CallKitMock's own tests (calldir itself
    // hosts its provider through a hidden `device _extension` subcommand).
    .executableTarget(name: "mockext", dependencies: ["CallKitMock"]),
    // The device-side loader an app ships in its Call Directory extension:
    // streams full or delta blobs into any context with CallKit's method names.
    .target(name: "CallDirectoryProvider", dependencies: ["CallDirectoryFormat", "CalldirSystem"], swiftSettings: hotPath),
    // What a phone's app needs to sync from a store: the manifest, its
    // signature check (the verifier is passed in: CryptoKit on iOS,
    // libsodium here) and the plan of what to fetch. Device side: no
    // Foundation, nothing newer than iOS 15.
    .target(name: "CallDirectorySync", dependencies: ["CalldirSystem", "CallDirectoryFormat"], swiftSettings: hotPath),
    // calldir's simulated phone: its extensions (calldir.extension.N), the
    // load of blobs into them that `device load` and `device sync` share,
    // and the reloader CallDirectorySync's sync engine drives.
    .target(
      name: "CalldirDevice",
      dependencies: ["CallKitMock", "CallDirectoryProvider", "CallDirectoryFormat", "CallDirectorySync", "CalldirSystem"]
    ),
    // libcurl for `calldir device sync --from http(s)://`, loaded with
    // dlopen on the first transfer (its header uses plain C types), so no
    // other command loads libcurl and the libraries it needs.
    .target(name: "CCurlShim"),
    // Where `calldir device sync` fetches a store from: a directory, or
    // http(s) through CCurlShim (CLI side).
    .target(name: "CalldirTransport", dependencies: ["CallDirectorySync", "CalldirSystem", "CCurlShim"]),
    // `calldir validate`: what an extension would feed CallKit, checked streaming.
    .target(
      name: "CallDirectoryValidation", dependencies: ["CalldirSystem", "CalldirHost", "CallDirectoryFormat"],
      swiftSettings: hotPath),
    // The source readers: every format a source may be written in (lines,
    // patterns, csv/tsv, json, jsonl, vcard, xml and the presets), its
    // options and the records, ranges and issues it reports, each with its
    // origin (file, line). Readers parse text and never decide policy.
    .target(
      name: "CallDirectorySources",
      dependencies: ["CalldirSystem", "CalldirHost", "UnicodeText", "CallDirectoryFormat", "CLibXML2"],
      swiftSettings: hotPath
    ),
    // Config, label hygiene, evidence, compile, diff: from a config and the
    // records CallDirectorySources reads to a compiled snapshot, and what
    // two blobs differ by.
    .target(
      name: "CallDirectoryCompiler",
      dependencies: [
        "CalldirSystem", "CalldirHost", "PhoneNumbers", "UnicodeText", "CallDirectoryFormat", "CallDirectorySources",
      ],
      swiftSettings: hotPath
    ),
    // The store a build publishes into: the catalog, the build's stages
    // (blobs, shards, deltas, the signed manifest), history, explain,
    // report, prune, repair, and the Live Caller ID details a version
    // records. It stands on CallDirectoryCompiler, never the reverse.
    .target(
      name: "CallDirectoryStore",
      dependencies: [
        "CalldirSystem", "CalldirHost", "CallDirectorySources", "CallDirectoryCompiler", "PhoneNumbers", "UnicodeText",
        "SQLiteDatabase", "CallDirectoryFormat", "CallDirectorySync", "Sodium",
      ],
      swiftSettings: hotPath
    ),
    // `calldir export live-caller-id`: a published version as the inputs of
    // Apple's PIRProcessDatabase (Live Caller ID Lookup): keyword forms,
    // protobuf rows, sha256 shards, cuckoo sizing, the export plan.
    .target(
      name: "LiveCallerID",
      dependencies: [
        "CalldirSystem", "CallDirectoryFormat", "CallDirectoryCompiler", "CallDirectoryStore", "PhoneNumbers", "Sodium",
      ]
    ),
    // The thin executable: argument parsing, one file per command, exit codes.
    .executableTarget(
      name: "calldir",
      dependencies: [
        "CalldirSystem", "CommandLineKit", "PhoneNumbers", "CallDirectoryFormat", "CallDirectorySources",
        "CallDirectoryCompiler", "CallDirectoryStore", "CallDirectoryValidation",
        "CallDirectoryProvider", "CallKitMock", "CalldirDevice", "CallDirectorySync", "CalldirTransport", "Sodium",
        "LiveCallerID",
      ],
      swiftSettings: hotPath,
      linkerSettings: staticSystemLibraries
    ),
    // `make bench`: calldir against sort, comm and Python phonenumbers.
    .executableTarget(name: "calldir-bench", dependencies: ["CallDirectoryFormat", "FormatFixtures", "PhoneNumbers"]),
    // The code an app team copies (docs/ios-integration.md): the Call
    // Directory extension's handler and the containing app's sync. On iOS
    // they use CallKit, CryptoKit and URLSession; here they build against
    // CallKitMock, and ExamplesTests runs them on its simulated device.
    .target(
      name: "ExampleCallDirectoryExtension",
      dependencies: [
        "CallDirectoryProvider",
        .target(name: "CallKitMock", condition: .when(platforms: [.linux, .macOS])),
      ],
      path: "Examples/CallDirectoryExtension"
    ),
    .target(
      name: "ExampleContainingApp",
      dependencies: [
        "CallDirectorySync", "CallDirectoryProvider", "CallDirectoryFormat",
        .target(name: "CallKitMock", condition: .when(platforms: [.linux, .macOS])),
      ],
      path: "Examples/ContainingApp"
    ),
    .testTarget(name: "CalldirSystemTests", dependencies: ["CalldirSystem"]),
    .testTarget(name: "CalldirHostTests", dependencies: ["CalldirHost", "CalldirSystem", "FormatFixtures"]),
    // The device modules' sources against the toolchain's availability
    // list (nothing newer than iOS 15), their imports, and nothing of the
    // host's (processes, thread pools, fault injection in release builds).
    .testTarget(name: "DeviceModulesTests"),
    .testTarget(name: "SodiumTests", dependencies: ["Sodium", "CallDirectorySync"]),
    .testTarget(name: "CommandLineKitTests", dependencies: ["CalldirSystem", "CommandLineKit"]),
    // Fixtures: blobs written by the format version 1 writer, kept to prove
    // that readers still accept version 1.
    .testTarget(
      name: "CallDirectoryFormatTests", dependencies: ["CalldirSystem", "CallDirectoryFormat", "FormatFixtures"],
      resources: [.copy("Fixtures")]
    ),
    // A few compile tests weigh what they compiled with the store's guards
    // (BuildGuards): the one use of CallDirectoryStore here.
    .testTarget(
      name: "CallDirectoryCompilerTests",
      dependencies: [
        "CalldirSystem", "CalldirHost", "CallDirectorySources", "CallDirectoryCompiler", "CallDirectoryStore",
        "CallDirectoryFormat", "FormatFixtures", "PhoneNumbers",
      ]
    ),
    .testTarget(
      name: "CallDirectoryStoreTests",
      dependencies: [
        "CalldirSystem", "CallDirectoryStore", "CallDirectorySources", "CallDirectoryCompiler", "CallDirectoryFormat",
        "CallDirectorySync", "FormatFixtures", "PhoneNumbers", "SQLiteDatabase", "Sodium",
      ]
    ),
    .testTarget(name: "CallKitMockTests", dependencies: ["CallKitMock", "CalldirSystem", "mockext"]),
    // Known keyword → shard assignments (computed with Python's hashlib)
    // and protobuf bytes checked against the grammar.
    .testTarget(
      name: "LiveCallerIDTests",
      dependencies: [
        "LiveCallerID", "CallDirectoryCompiler", "CallDirectoryStore", "CallDirectoryFormat", "CalldirSystem",
        "PhoneNumbers", "Sodium",
      ],
      resources: [.copy("Fixtures")]
    ),
    .testTarget(
      name: "CallDirectoryValidationTests",
      dependencies: ["CallDirectoryValidation", "CallDirectoryFormat", "CalldirSystem", "CommandLineKit"]
    ),
    .testTarget(
      name: "CallDirectoryProviderTests",
      dependencies: ["CallDirectoryProvider", "CallDirectoryFormat", "CallKitMock", "CalldirSystem"]
    ),
    .testTarget(
      name: "CallDirectorySyncTests",
      dependencies: ["CallDirectorySync", "Sodium", "CalldirSystem", "CallDirectoryFormat", "FormatFixtures"]
    ),
    .testTarget(name: "CalldirTransportTests", dependencies: ["CalldirTransport", "CallDirectorySync", "CalldirSystem"]),
    .testTarget(
      name: "ExamplesTests",
      dependencies: [
        "ExampleCallDirectoryExtension", "ExampleContainingApp", "CallDirectoryProvider", "CallDirectorySync",
        "CallDirectoryFormat", "CallKitMock",
      ]
    ),
    .testTarget(name: "CICUShimTests", dependencies: ["CICUShim"]),
    .testTarget(name: "UnicodeTextTests", dependencies: ["UnicodeText"]),
    .testTarget(name: "SQLiteDatabaseTests", dependencies: ["SQLiteDatabase"]),
    .testTarget(
      name: "PhoneNumbersTests",
      dependencies: ["PhoneNumbers", "CalldirHost", "CalldirSystem", "FormatFixtures"],
      resources: [.copy("Fixtures")]
    ),
    // Runs the built binary on real files; `swift build --build-tests` builds it first.
    // Also gathers reports with CallDirectoryStore from stores the binary built.
    .testTarget(
      name: "EndToEndTests",
      dependencies: [
        "CallDirectoryFormat", "CallDirectoryProvider", "CallKitMock", "CalldirSystem", "CallDirectoryCompiler",
        "CallDirectoryStore", "SQLiteDatabase", "CallDirectorySync", "Sodium", "LiveCallerID",
      ],
      resources: [.copy("Fixtures")]),
    // Every seed of Tests/Fuzz/Corpus, decoded by its harness's own option
    // code (Tests/Fuzz/Options, which fuzz.sh links into the harnesses),
    // must reach the reader or parser its name says.
    .testTarget(
      name: "FuzzCorpusTests",
      dependencies: [
        "CalldirSystem", "CallDirectoryFormat", "CallDirectorySources", "CallDirectoryCompiler", "CallDirectoryStore",
        "CallDirectoryValidation", "CallDirectorySync", "CallKitMock", "LiveCallerID", "PhoneNumbers",
      ],
      path: "Tests/Fuzz",
      exclude: [
        "Corpus", "Grown", "Seeds", "Harnesses", "fuzz.sh", "lsan.supp", "Support/BlobReadingLimits.swift",
        "Support/BlobResealing.swift", "Support/FuzzCheck.swift", "Support/LookupProbing.swift",
        "Support/OrderCheckingSink.swift", "Support/ScratchFile.swift", "Support/SectionReading.swift",
        "Support/StretchReading.swift",
      ],
      sources: ["Support/FuzzInput.swift", "Options", "CorpusTests"]),
  ],
  swiftLanguageModes: [.v6]
)

// The test targets' shared helpers (scratch directories), Tests/TestSupport:
// a module of its own that every test target depends on and no product does.
package.targets.append(.target(name: "CalldirTestSupport", path: "Tests/TestSupport"))
for target in package.targets where target.type == .test {
  target.dependencies.append("CalldirTestSupport")
}
