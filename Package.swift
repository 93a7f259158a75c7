// swift-tools-version:6.0
import PackageDescription

let package = Package(
  name: "calldir",
  products: [
    .library(name: "PhoneNumbers", targets: ["PhoneNumbers"]),
  ],
  targets: [
    // C shim over ICU: plain C types in its header, ICU only in the .c file
    // (importing ICU headers into Swift clashes with Foundation's own ICU).
    .target(
      name: "CICUShim",
      linkerSettings: [.linkedLibrary("icuuc")]
    ),
    // Numbering plan (generated from libphonenumber metadata) and normalizer.
    .target(name: "PhoneNumbers", dependencies: ["CICUShim"]),
    .testTarget(
      name: "PhoneNumbersTests",
      dependencies: ["PhoneNumbers"],
      resources: [.copy("Fixtures")]
    ),
  ],
  swiftLanguageModes: [.v6]
)
