#!/usr/bin/env python3
"""Generate the national-format oracle corpus from libphonenumber (development only).

For every region and non-geographic calling code, takes libphonenumber's
example number of each number type and mutates it (every last digit, one
digit dropped or added, random digits after a kept prefix, digits changed in
the middle), adds random numbers of each possible length and of the lengths
around them, numbers written with the national prefix after the calling code
(which `parse` strips), every two-digit start of each possible length for the
regions whose formats are subtle (AR, MX, IT, GB, DE, FR, JP, BR, RU, KZ, CN,
IN), numbers `parse` refuses, and the E.164 numbers of the shared
normalization corpus (Tests/PhoneNumbersTests/Fixtures/phone-normalization.tsv).
For each asks Python's `phonenumbers` for

    format_number(parse("+" + digits), PhoneNumberFormat.NATIONAL)

and keeps its digits. Writes

  Tests/PhoneNumbersTests/Fixtures/national-format-corpus.tsv

with the columns `e164⇥national`: the E.164 digits without `+` (up to 20
digits: some do not fit an Int64), and the national format's digits, or `-`
where `parse` raises (no national format). The output is deterministic for
a seed.

Usage: python3 data/generate-national-format-corpus.py [SEED]   (from the repository root)
"""
import os
import random
import re
import sys

import phonenumbers as pn
from phonenumbers import PhoneMetadata, PhoneNumberFormat, PhoneNumberType as T
from phonenumbers.phonenumberutil import COUNTRY_CODE_TO_REGION_CODE, COUNTRY_CODES_FOR_NON_GEO_REGIONS, SUPPORTED_REGIONS

TYPES = [T.FIXED_LINE, T.MOBILE, T.TOLL_FREE, T.PREMIUM_RATE, T.SHARED_COST, T.VOIP,
         T.PERSONAL_NUMBER, T.PAGER, T.UAN, T.VOICEMAIL]
FIELDS = ["fixed_line", "mobile", "toll_free", "premium_rate", "shared_cost", "voip",
          "personal_number", "pager", "uan", "voicemail"]
SPECIAL = ["AR", "MX", "IT", "GB", "DE", "FR", "JP", "BR", "RU", "KZ", "CN", "IN"]


def national_digits(digits):
    try:
        number = pn.parse("+" + digits)
    except pn.NumberParseException:
        return "-"
    return re.sub(r"[^0-9]", "", pn.format_number(number, PhoneNumberFormat.NATIONAL))


def main():
    rng = random.Random(int(sys.argv[1]) if len(sys.argv) > 1 else 34)
    entries = []  # (region, calling code, metadata, example national numbers)
    for region in sorted(SUPPORTED_REGIONS):
        metadata = PhoneMetadata.metadata_for_region(region)
        examples = [pn.example_number_for_type(region, t) for t in TYPES]
        entries.append((region, metadata.country_code, metadata,
                        [pn.national_significant_number(e) for e in examples if e is not None]))
    for cc in sorted(COUNTRY_CODES_FOR_NON_GEO_REGIONS):
        metadata = PhoneMetadata.metadata_for_nongeo_region(cc)
        examples = [desc.example_number for desc in (getattr(metadata, f, None) for f in FIELDS)
                    if desc is not None and desc.example_number]
        entries.append(("001", cc, metadata, examples))

    numbers = set()

    def add(cc, nsn):
        if 1 <= len(nsn) <= 17 and nsn.isdigit():
            numbers.add(str(cc) + nsn)

    def digits(count):
        return "".join(rng.choice("0123456789") for _ in range(count))

    for region, cc, metadata, examples in entries:
        lengths = [n for n in metadata.general_desc.possible_length if n > 0] or [8]
        prefix = metadata.national_prefix or ""
        for nsn in examples:
            add(cc, nsn)
            for d in "0123456789":
                add(cc, nsn[:-1] + d)
            add(cc, nsn[:-1])
            add(cc, nsn + rng.choice("0123456789"))
            add(cc, nsn[1:])
            for keep in range(1, len(nsn)):
                add(cc, nsn[:keep] + digits(len(nsn) - keep))
            for _ in range(6):
                i = rng.randrange(len(nsn))
                add(cc, nsn[:i] + rng.choice("0123456789") + nsn[i + 1:])
            # Written with the national prefix after +CC: parse strips it.
            if prefix:
                add(cc, prefix + nsn)
                add(cc, prefix + nsn[:-1])
        for length in sorted(set(lengths + [min(lengths) - 1, max(lengths) + 1])):
            if length < 1:
                continue
            for _ in range(12):
                add(cc, digits(length))
            for _ in range(4):
                add(cc, rng.choice("123456789") + digits(length - 1))
        if region in SPECIAL:
            for length in lengths:
                for start in range(100):
                    add(cc, "%02d" % start + digits(length - 2))

    # Hand-picked: the examples of the issue and the brief, Argentina's
    # mobile forms (with and without 9, with 0 and 15), Mexico's old 1,
    # Italy's and the Vatican's zeros, the UK's crown dependencies, +7 in
    # Kazakhstan, numbers parse refuses (short, no calling code).
    for e164 in ["442079460018", "4402079460018", "12125550142", "5491112345678", "541112345678",
                 "5401112345678", "54911151234567", "5402234567890", "5492234567890", "5493514567890",
                 "5215512345678", "525512345678", "5201551234567", "390612345678", "390669881234",
                 "3906", "390012", "39000", "3912", "33412345678", "61412345678", "441481256789",
                 "441534456789", "441624756789", "77012345678", "77172123456", "79161234567",
                 "89161234567", "819012345678", "81312345678", "5511987654321", "551133334444",
                 "55011987654321", "8613812345678", "861012345678", "8608613812345678",
                 "919876543210", "9109876543210", "4930123456", "49030123456", "4915112345678",
                 "80012345678", "8823421234", "88213456789012", "979123456789", "6000880816",
                 "12", "441", "4412", "99912345678", "2", "0442079460018", "999", "99",
                 "44123456789012345678", "4412345678901234567", "440123456789012345678"]:
        numbers.add(e164)

    # The shared normalization corpus's E.164 numbers.
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    fixtures = os.path.join(root, "Tests", "PhoneNumbersTests", "Fixtures")
    with open(os.path.join(fixtures, "phone-normalization.tsv"), encoding="utf-8") as corpus:
        for line in corpus.read().split("\n")[1:]:
            fields = line.split("\t")
            if len(fields) >= 3 and fields[2].isdigit():
                numbers.add(fields[2])

    rows = ["%s\t%s" % (e164, national_digits(e164)) for e164 in sorted(numbers, key=lambda e: (len(e), e))]
    path = os.path.join(fixtures, "national-format-corpus.tsv")
    with open(path, "w", encoding="utf-8", newline="\n") as out:
        out.write("e164\tnational\n")
        out.write("".join(row + "\n" for row in rows))
    refused = sum(1 for row in rows if row.endswith("\t-"))
    print("wrote %d rows (%d without a national format) with phonenumbers %s to %s" % (
        len(rows), refused, pn.__version__, path))


if __name__ == "__main__":
    main()
