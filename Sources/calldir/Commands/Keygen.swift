import CallDirectoryCompiler
import CallDirectoryStore
import CallDirectorySync
import CalldirSystem
import CommandLineKit

extension Calldir {
  /// `calldir keygen`: a key pair to sign a store's manifest.
  struct Keygen: RunnableCommand {
    static let configuration = CommandConfiguration(
      name: "keygen",
      abstract: "Create an Ed25519 key pair to sign a store's manifest.",
      discussion: """
        Writes PREFIX.key (mode 0600): one line of base64 of libsodium's 64-byte secret key (the \
        32-byte seed followed by the public key; a file holding the base64 of the 32-byte seed \
        alone is read too), and PREFIX.pub: one line of base64 of the raw 32-byte public key, the \
        one an app pins.

        Never replaces an existing file (exit 73); the pair is made exclusively (both files, or an \
        error and neither; of keygens run at once on one prefix, one succeeds). Keep the secret \
        key off the web host: build --signing-key FILE, or signingKey in the config, signs \
        STORE/manifest.json into STORE/manifest.json.sig.
        """,
      exitStatuses: [
        .init(.success, "Both files are written."),
        .init(.cantCreate, "A file exists already, or cannot be created (neither is left)."),
        .init(.ioError, "Writing failed (neither file is left)."),
      ],
      examples: [
        .init("Make a key pair; sign builds with calldir.key, pin calldir.pub in the app.", "calldir keygen --output calldir"),
      ],
      seeAlso: [
        .init("Publishing nightly", "guides/nightly-publishing.md"),
      ]
    )

    @Option(name: "output", short: "o", valueName: "prefix", help: "Where to write PREFIX.key and PREFIX.pub.")
    var prefix: String
    @Flag(.json, help: "Print the paths and the public key as one JSON object.")
    var json: Bool

    func validate() throws {
      // `out/` would make the hidden files `out/.key` and `out/.pub`.
      if prefix.hasSuffix("/") || prefix.hasSuffix("/.") || prefix == "." || prefix == ".." {
        let example = (prefix.hasSuffix("/") ? prefix : prefix + "/") + "store-key"
        throw UsageError.invalid("--output: '\(prefix)' is a directory; give a prefix such as '\(example)'")
      }
    }

    func run(context: CommandContext) throws {
      let generated: (secretPath: String, publicPath: String, publicKey: String)
      do {
        let made = try SigningKey.generate(prefix: prefix)
        generated = (made.secretPath, made.publicPath, Base64.encode(made.pair.publicKey))
      } catch {
        throw error.writingFailure
      }
      if json {
        context.standardOutput.writeJSONLine(
          GeneratedKeyPair(secretPath: generated.secretPath, publicPath: generated.publicPath, publicKey: generated.publicKey))
      } else {
        context.standardOutput.writeLine("secret key: \(generated.secretPath) (keep it private)")
        context.standardOutput.writeLine("public key: \(generated.publicPath) (\(generated.publicKey))")
      }
    }
  }
}
