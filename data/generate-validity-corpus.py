#!/usr/bin/env python3
"""Generate the validity and number-type oracle corpus from libphonenumber (development only).

For every region and non-geographic calling code, takes libphonenumber's
example number of each number type and mutates it (every last digit, one
digit dropped or added, random digits after a kept prefix, digits changed in
the middle), adds random numbers of each possible length, and asks Python's
`phonenumbers` for `is_valid_number`, `number_type` and
`region_code_for_number` of each. Writes

  Tests/PhoneNumbersTests/Fixtures/validity-corpus.tsv

with the columns `e164⇥valid⇥type⇥region`: E.164 digits without `+`,
`true`/`false`, calldir's type name (schemas/numbering-plan.md), and the
region libphonenumber resolves the number to (`ZZ` for none). Every number
has a national significant number of 2 to 17 digits and fits an Int64. The
output is deterministic for a seed.

Usage: python3 data/generate-validity-corpus.py [SEED]   (from the repository root)
"""
import os
import random
import sys

import phonenumbers as pn
from phonenumbers import PhoneMetadata, PhoneNumberType as T
from phonenumbers.phonenumberutil import COUNTRY_CODES_FOR_NON_GEO_REGIONS, SUPPORTED_REGIONS

NAMES = {
    T.FIXED_LINE: "fixedLine", T.MOBILE: "mobile", T.FIXED_LINE_OR_MOBILE: "fixedLineOrMobile",
    T.TOLL_FREE: "tollFree", T.PREMIUM_RATE: "premiumRate", T.SHARED_COST: "sharedCost", T.VOIP: "voip",
    T.PERSONAL_NUMBER: "personalNumber", T.PAGER: "pager", T.UAN: "uan", T.VOICEMAIL: "voicemail",
    T.UNKNOWN: "unknown",
}
TYPES = [T.FIXED_LINE, T.MOBILE, T.TOLL_FREE, T.PREMIUM_RATE, T.SHARED_COST, T.VOIP,
         T.PERSONAL_NUMBER, T.PAGER, T.UAN, T.VOICEMAIL]


def main():
    rng = random.Random(int(sys.argv[1]) if len(sys.argv) > 1 else 13)
    entries = []  # (calling code, metadata, example national numbers)
    for region in sorted(SUPPORTED_REGIONS):
        metadata = PhoneMetadata.metadata_for_region(region)
        examples = [pn.example_number_for_type(region, t) for t in TYPES]
        entries.append((metadata.country_code, metadata,
                        [pn.national_significant_number(e) for e in examples if e is not None]))
    for cc in sorted(COUNTRY_CODES_FOR_NON_GEO_REGIONS):
        metadata = PhoneMetadata.metadata_for_nongeo_region(cc)
        examples = []
        for t in TYPES:
            desc = getattr(metadata, [k for k, v in vars(T).items() if v == t][0].lower(), None)
            if desc is not None and desc.example_number:
                examples.append(desc.example_number)
        entries.append((cc, metadata, examples))

    numbers = set()

    def add(cc, nsn):
        if 2 <= len(nsn) <= 17 and nsn.isdigit():
            value = int(str(cc) + nsn)
            if value < 2**63 - 1:
                numbers.add((cc, nsn))

    def digits(count):
        return "".join(rng.choice("0123456789") for _ in range(count))

    for cc, metadata, examples in entries:
        lengths = [n for n in metadata.general_desc.possible_length if n > 0] or [8]
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
        for length in lengths:
            for _ in range(12):
                add(cc, digits(length))
            for _ in range(4):
                add(cc, rng.choice("123456789") + digits(length - 1))

    # Hand-picked: a Chilean 600 number with a stray "+" (as Malaysian), the
    # Vatican inside +39, Italian leading zeros, +1 outside every NANP region.
    for cc, nsn in [(60, "00880816"), (39, "0669881234"), (39, "0698765432"), (39, "0212345678"),
                    (1, "2012345678"), (1, "1234567890"), (1, "8002752273"), (7, "7012345678"),
                    (44, "1481256789"), (44, "1534456789"), (44, "1624756789"), (800, "12345678")]:
        add(cc, nsn)

    rows = []
    for cc, nsn in sorted(numbers, key=lambda item: int(str(item[0]) + item[1])):
        number = pn.PhoneNumber(country_code=cc, national_number=int(nsn))
        if nsn[0] == "0":
            number.italian_leading_zero = True
            zeros = len(nsn) - len(nsn.lstrip("0"))
            number.number_of_leading_zeros = min(zeros, len(nsn) - 1)
        assert pn.national_significant_number(number) == nsn, (cc, nsn)
        region = pn.region_code_for_number(number) or "ZZ"
        rows.append("%d%s\t%s\t%s\t%s" % (
            cc, nsn, "true" if pn.is_valid_number(number) else "false", NAMES[pn.number_type(number)], region))

    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    path = os.path.join(root, "Tests", "PhoneNumbersTests", "Fixtures", "validity-corpus.tsv")
    with open(path, "w", encoding="utf-8", newline="\n") as out:
        out.write("e164\tvalid\ttype\tregion\n")
        out.write("".join(row + "\n" for row in rows))
    valid = sum(1 for row in rows if "\ttrue\t" in row)
    print("wrote %d rows (%d valid) with phonenumbers %s to %s" % (len(rows), valid, pn.__version__, path))


if __name__ == "__main__":
    main()
