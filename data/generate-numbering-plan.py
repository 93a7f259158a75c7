#!/usr/bin/env python3
"""Generate calldir's numbering-plan table from libphonenumber's metadata.

Development-time only: building, testing and running calldir never need Python.
Reads the metadata shipped in the `phonenumbers` package (PyPI, Apache-2.0) and
writes three tables, each committed and embedded in the same words:

  data/numbering-plan.tsv                                         one row per region
  data/number-types.tsv                                           one row per number type of a region
  data/number-formats.tsv                                         one row per number format of a region
  Sources/PhoneNumbers/Generated/NumberingPlan+Table.swift        the first, embedded
  Sources/PhoneNumbers/Generated/NumberingPlan+TypesTable.swift   the second, embedded
  Sources/PhoneNumbers/Generated/NumberingPlan+FormatsTable.swift the third, embedded

The format is specified in schemas/numbering-plan.md.

Usage: python3 data/generate-numbering-plan.py   (from the repository root)
"""
import os
import re
import sys

import phonenumbers
from phonenumbers import PhoneMetadata
from phonenumbers.phonenumberutil import (
    COUNTRY_CODE_TO_REGION_CODE,
    COUNTRY_CODES_FOR_NON_GEO_REGIONS,
    SUPPORTED_REGIONS,
)

COLUMNS = [
    "region", "cc", "main", "idd", "np", "npp", "npp_transform",
    "lengths", "local_lengths", "nsn_pattern", "rank", "leading_digits", "same_mobile_fixed",
]

TYPE_COLUMNS = ["region", "cc", "type", "lengths", "pattern"]

FORMAT_COLUMNS = ["region", "cc", "pattern", "format", "leading_digits", "np_rule"]

# libphonenumber's number types with a description of their own, in the
# metadata's field names and calldir's names (schemas/numbering-plan.md).
TYPES = [
    ("fixed_line", "fixedLine"), ("mobile", "mobile"), ("toll_free", "tollFree"),
    ("premium_rate", "premiumRate"), ("shared_cost", "sharedCost"), ("voip", "voip"),
    ("personal_number", "personalNumber"), ("pager", "pager"), ("uan", "uan"),
    ("voicemail", "voicemail"),
]


def clean(value):
    """Returns a metadata string as a TSV cell; regexes never hold TAB or newline."""
    if value is None:
        return ""
    text = str(value)
    if any(c in text for c in "\t\r\n"):
        sys.exit("metadata value holds a TAB or newline: %r" % text)
    return text


def transform(rule):
    """libphonenumber writes transform rules with $1, the Python port with \\1; use $1."""
    if rule is None:
        return ""
    return clean(rule).replace("\\", "$")


def row(region, cc, rank, metadata):
    general = metadata.general_desc
    main = rank == 0
    return [
        region,
        str(cc),
        "1" if main else "0",
        clean(metadata.international_prefix),
        clean(metadata.national_prefix),
        clean(metadata.national_prefix_for_parsing),
        transform(metadata.national_prefix_transform_rule),
        ",".join(str(n) for n in general.possible_length if n > 0),
        ",".join(str(n) for n in general.possible_length_local_only if n > 0),
        clean(general.national_number_pattern),
        str(rank),
        clean(metadata.leading_digits),
        "1" if metadata.same_mobile_and_fixed_line_pattern else "0",
    ]


def type_rows(region, cc, metadata):
    """One row per number type the region has: a pattern, and lengths unless
    (-1,), libphonenumber's mark for a type that does not exist."""
    rows = []
    for field, name in TYPES:
        desc = getattr(metadata, field)
        if desc is None or not desc.national_number_pattern:
            continue
        lengths = [n for n in desc.possible_length if n > 0]
        if list(desc.possible_length) == [-1]:
            continue
        rows.append([region, str(cc), name, ",".join(str(n) for n in lengths), clean(desc.national_number_pattern)])
    return rows


def format_rows(region, cc, metadata):
    """One row per national number format of the region (`number_format`, in
    the metadata's order, which decides: the first that fits is used).

    `format` is libphonenumber's replacement with `\\1` written as `$1`;
    `np_rule` is the national prefix formatting rule, whose `\\1` (the
    format's first group, `$FG` in libphonenumber's XML; `$NP` is already
    the national prefix there) is written `$FG`. Leading-digits patterns
    are separated by a space (patterns hold none)."""
    rows = []
    for number_format in metadata.number_format:
        text = clean(number_format.format)
        if "$" in text or re.search(r"\\(?![1-9](?![0-9]))", text):
            sys.exit("%s: format %r is not plain text and \\1-\\9" % (region, text))
        rule = clean(number_format.national_prefix_formatting_rule)
        if "$" in rule or re.search(r"\\(?!1(?![0-9]))", rule):
            sys.exit("%s: national prefix formatting rule %r is not plain text and \\1" % (region, rule))
        leading = [clean(p) for p in number_format.leading_digits_pattern]
        if any(" " in p or not p for p in leading):
            sys.exit("%s: a leading-digits pattern is empty or holds a space" % region)
        rows.append([
            region, str(cc), clean(number_format.pattern),
            re.sub(r"\\([1-9])", r"$\1", text), " ".join(leading), rule.replace("\\1", "$FG"),
        ])
    return rows


def write_table(root, tsv_name, swift_name, property_name, text):
    """Writes `text` to data/`tsv_name` and embeds it as `property_name` in
    Sources/PhoneNumbers/Generated/`swift_name`."""
    with open(os.path.join(root, "data", tsv_name), "w", encoding="utf-8", newline="\n") as out:
        out.write(text)
    swift_dir = os.path.join(root, "Sources", "PhoneNumbers", "Generated")
    os.makedirs(swift_dir, exist_ok=True)
    if '"""#' in text:
        sys.exit("table text would end the Swift raw string literal")
    with open(os.path.join(swift_dir, swift_name), "w", encoding="utf-8", newline="\n") as out:
        out.write("// Generated by data/generate-numbering-plan.py from libphonenumber metadata\n")
        out.write("// (Apache-2.0, see NOTICE). Do not edit: run `make plan` instead.\n\n")
        out.write("extension NumberingPlan {\n")
        out.write("  /// The text of `data/%s`, embedded so the binary needs no data files.\n" % tsv_name)
        out.write("  static let %s: String = #\"\"\"\n" % property_name)
        # A multi-line literal drops the line break before its closing
        # delimiter, so one more keeps the table's final newline.
        out.write(text + "\n")
        out.write("\"\"\"#\n}\n")


def main():
    rows = []
    types = []
    formats = []
    for region in sorted(SUPPORTED_REGIONS):
        metadata = PhoneMetadata.metadata_for_region(region)
        cc = metadata.country_code
        rank = COUNTRY_CODE_TO_REGION_CODE[cc].index(region)
        rows.append(row(region, cc, rank, metadata))
        types.extend(type_rows(region, cc, metadata))
        formats.extend(format_rows(region, cc, metadata))
    for cc in sorted(COUNTRY_CODES_FOR_NON_GEO_REGIONS):
        metadata = PhoneMetadata.metadata_for_nongeo_region(cc)
        rows.append(row("001", cc, 0, metadata))
        types.extend(type_rows("001", cc, metadata))
        formats.extend(format_rows("001", cc, metadata))

    def header(columns, title="numbering plan"):
        return [
            "# calldir %s, generated by data/generate-numbering-plan.py; do not edit." % title,
            "# source: libphonenumber metadata via phonenumbers %s (Apache-2.0, see NOTICE)" % phonenumbers.__version__,
            "# format: schemas/numbering-plan.md",
            "\t".join(columns),
        ]

    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    text = "\n".join(header(COLUMNS) + ["\t".join(r) for r in rows]) + "\n"
    write_table(root, "numbering-plan.tsv", "NumberingPlan+Table.swift", "embeddedTable", text)
    text = "\n".join(header(TYPE_COLUMNS, "number types") + ["\t".join(r) for r in types]) + "\n"
    write_table(root, "number-types.tsv", "NumberingPlan+TypesTable.swift", "embeddedTypesTable", text)
    text = "\n".join(header(FORMAT_COLUMNS, "number formats") + ["\t".join(r) for r in formats]) + "\n"
    write_table(root, "number-formats.tsv", "NumberingPlan+FormatsTable.swift", "embeddedFormatsTable", text)
    print("wrote %d rows (%d regions, %d non-geographic codes), %d number types and %d number formats" % (
        len(rows), len(SUPPORTED_REGIONS), len(COUNTRY_CODES_FOR_NON_GEO_REGIONS), len(types), len(formats)))


if __name__ == "__main__":
    main()
