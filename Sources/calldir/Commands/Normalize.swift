import CalldirSystem
import CommandLineKit
import PhoneNumbers

extension Result {
  fileprivate var isSuccess: Bool {
    if case .success = self { return true }
    return false
  }
}

extension Calldir {
  /// `calldir normalize`: numbers as written → CXCallDirectoryPhoneNumber digits.
  struct Normalize: RunnableCommand {
    static let configuration = CommandConfiguration(
      name: "normalize",
      abstract: "Normalize phone numbers to E.164 digits as libphonenumber does.",
      discussion: """
        Prints one line per input, in input order: the digits (country calling code and national \
        number, e.g. 442079460018), or INVALID, a tab and the reason. With --valid, possible \
        numbers that libphonenumber does not consider valid are rejected too (INVALID, a tab, \
        "invalid for region XX").

        With no NUMBER, reads standard input, one input per line (LF, CRLF, or CR alone when the \
        first 4 KiB hold no LF); a line longer than 4 MiB is INVALID (too long) and is read past, \
        not held (with --json, its input shows its first 4 MiB).

        An unknown --region exits 64, suggesting the code meant when it is clear (ch → CH, UK → \
        GB, +41 → CH).

        With --national, a number's line also gives, after a tab, the digits of its national \
        format as libphonenumber writes it (format_number NATIONAL: 02079460018 for 442079460018), \
        the keyword a phone presents for it nationally; with --json, as "national".
        """,
      exitStatuses: [
        .init(.success, "Every input was read (invalid ones are printed as INVALID)."),
        .init(.usage, "Bad arguments, or an unknown --region (with the code meant, when it is clear)."),
        .init(.ioError, "Standard input or output failed."),
      ],
      examples: [
        .init("Normalize two numbers written for the United Kingdom.", "calldir normalize --region GB \"020 7946 0018\" +44-20-7946-0018"),
        .init("Normalize a list, one number a line, with national formats as JSON.", "calldir normalize --region FR --national --json < numbers.txt"),
      ],
      seeAlso: [
        .init("Sources and formats", "reference/config-sources.md"),
      ]
    )

    @Argument(name: "number", help: "Numbers to normalize; standard input when none.")
    var numbers: [String]
    @Option(
      .region,
      help: "Default region (ISO 3166 code, case-sensitive) for numbers without a country code; ZZ for none.")
    var regionCode = "ZZ"
    @Flag(name: "valid", help: "Reject possible numbers that are not valid (libphonenumber's is_valid_number).")
    var requireValid: Bool
    @Flag(.json, help: "Print one JSON object per input: input, number, reason, valid, type.")
    var json: Bool
    @Flag(help: "Also print the digits of each number's national format (a tab, then the digits; JSON: national).")
    var national: Bool

    func validate() throws {
      _ = try RegionArgument.resolve(regionCode)
    }

    func run(context: CommandContext) throws {
      let normalizer = PhoneNumberNormalizer()
      let region = try RegionArgument.resolve(regionCode, plan: normalizer.plan)
      let output = context.standardOutput
      let formatter = national ? NationalFormatter(plan: normalizer.plan) : nil
      // A few numbers: compile the number types of their calling codes only.
      var classifier: NumberClassifier? = nil
      if !numbers.isEmpty && (json || requireValid) {
        let codes = numbers.compactMap { try? normalizer.normalize($0, region: region).get() }
          .compactMap { normalizer.plan.callingCode(of: $0) }
        classifier = normalizer.plan.classifier(forCallingCodes: Set(codes))
      }
      func emit(_ input: String) {
        let result = normalizer.normalize(input, region: region)
        var validity: NumberValidity? = nil
        if case .success(let value) = result, let classifier {
          validity = classifier.validity(of: value)
        }
        // A possible number `--valid` rejects.
        let invalid = requireValid && result.isSuccess && validity?.isValid != true
        let invalidReason = NormalizedInput.invalidReason(validity)
        if json {
          var national: String?? = nil
          if let formatter {
            national = .some(nil)
            if case .success(let value) = result, !invalid, let found = formatter.nationalDigits(ofE164: value) {
              national = found.description
            }
          }
          output.writeJSONLine(
            NormalizedInput(input: input, result: result, validity: validity, invalid: invalid, national: national))
        } else {
          switch result {
          case .success where invalid: output.writeLine("INVALID\t\(invalidReason)")
          case .success(let value):
            if let formatter {
              output.writeLine("\(value)\t\(formatter.nationalDigits(ofE164: value)?.description ?? "")")
            } else {
              output.writeLine(String(value))
            }
          case .failure(let rejection): output.writeLine("INVALID\t\(rejection)")
          }
        }
      }
      if numbers.isEmpty {
        // Large chunks, the byte-level normalizer, all cores, input order.
        let batch = BatchNormalizer(
          normalizer: normalizer, region: region, json: json, requireValid: requireValid, national: national)
        try batch.run(input: .standardInput) { bytes in
          output.write(bytes: bytes)
          return output.isWritable
        }
      } else {
        for number in numbers where output.isWritable { emit(number) }
      }
    }
  }
}
