// swift-tools-version:6.0
import PackageDescription

let package = Package(
  name: "calldir",
  products: [
    .library(name: "PhoneNumbers", targets: ["PhoneNumbers"]),
  ],
  targets: [
    // ICU is reached only through this C shim: its public header uses plain
    // <stdint.h> types, and <unicode/*.h> stays inside the .c file, so the
    // versioned ICU symbols (u_foo_72) resolve at C compile time and never
    // clash with Foundation's private _FoundationICU module.
    .target(name: "CICUShim", linkerSettings: [.linkedLibrary("icuuc")]),
    .target(name: "UnicodeText", dependencies: ["CICUShim"]),
    .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
    .target(name: "SQLiteDatabase", dependencies: ["CSQLite"]),
    // Numbering plan (generated from libphonenumber metadata) and normalizer.
    .target(name: "PhoneNumbers", dependencies: ["UnicodeText"]),
    .testTarget(name: "CICUShimTests", dependencies: ["CICUShim"]),
    .testTarget(name: "UnicodeTextTests", dependencies: ["UnicodeText"]),
    .testTarget(name: "SQLiteDatabaseTests", dependencies: ["SQLiteDatabase"]),
    .testTarget(
      name: "PhoneNumbersTests",
      dependencies: ["PhoneNumbers"],
      resources: [.copy("Fixtures")]
    ),
  ],
  swiftLanguageModes: [.v6]
)
