#!/usr/bin/env python3
"""Differential check of `calldir normalize` against libphonenumber (development only).

Generates random and perturbed inputs from libphonenumber's example numbers
(every region and type, written in E.164, international, national, RFC 3966,
out-of-country forms, with noise, extensions, letters, non-ASCII digits and
`tel:` URIs), asks Python's `phonenumbers` for the expected E.164 digits
(parse + is_possible_number) and, for possible numbers, is_valid_number and
number_type; runs the same inputs through the built calldir binary
(`normalize --json`), and reports every mismatch of the number, the validity
or the type.

Usage: python3 data/check-normalizer.py [SEED] [COUNT] [CALLDIR]
       (defaults: 1, 20000, .build/release/calldir; needs `pip install phonenumbers`)
"""
import collections
import json
import subprocess
import sys
import random, phonenumbers as pn
from phonenumbers import PhoneNumberFormat as F, PhoneNumberType as T
from phonenumbers.phonenumberutil import SUPPORTED_REGIONS
rng = random.Random(int(sys.argv[1]) if len(sys.argv) > 1 else 1)
N = int(sys.argv[2]) if len(sys.argv) > 2 else 20000
CALLDIR = sys.argv[3] if len(sys.argv) > 3 else ".build/release/calldir"
regions = sorted(SUPPORTED_REGIONS)
TYPE_NAMES = {T.FIXED_LINE: "fixedLine", T.MOBILE: "mobile", T.FIXED_LINE_OR_MOBILE: "fixedLineOrMobile",
              T.TOLL_FREE: "tollFree", T.PREMIUM_RATE: "premiumRate", T.SHARED_COST: "sharedCost", T.VOIP: "voip",
              T.PERSONAL_NUMBER: "personalNumber", T.PAGER: "pager", T.UAN: "uan", T.VOICEMAIL: "voicemail",
              T.UNKNOWN: "unknown"}
types = [T.FIXED_LINE, T.MOBILE, T.TOLL_FREE, T.PREMIUM_RATE, T.VOIP, T.SHARED_COST, T.UAN, T.PAGER, T.PERSONAL_NUMBER, T.VOICEMAIL]
examples = []
for r in regions:
    for t in types:
        e = pn.example_number_for_type(r, t)
        if e: examples.append((r, e))
for cc in [800, 808, 870, 878, 881, 882, 883, 888, 979]:
    e = pn.example_number_for_non_geo_entity(cc)
    if e: examples.append(("001", e))
noise = list(" -./()[]~\u00a0\u3000\u2010\u2212\uff0d()") + ["x", "X", "*", "#", "+", "ext", " ext. ", ";ext=", ",,", ";", "Tel: ", "=\"", "\"", "'", "a", "abc", "\u200b", "\u00ad", "\uff0b", "_", "/x", " x", "#"]
digitsets = ["0123456789", "\uff10\uff11\uff12\uff13\uff14\uff15\uff16\uff17\uff18\uff19", "\u0660\u0661\u0662\u0663\u0664\u0665\u0666\u0667\u0668\u0669", "\u06f0\u06f1\u06f2\u06f3\u06f4\u06f5\u06f6\u06f7\u06f8\u06f9", "\u0966\u0967\u0968\u0969\u096a\u096b\u096c\u096d\u096e\u096f"]
def perturb(s):
    s = list(s)
    for _ in range(rng.randint(1, 3)):
        op = rng.random()
        if op < 0.3 and s:
            i = rng.randrange(len(s)); s.insert(i, rng.choice(noise))
        elif op < 0.5 and s:
            del s[rng.randrange(len(s))]
        elif op < 0.65 and s:
            i = rng.randrange(len(s)); s.insert(i, rng.choice("0123456789"))
        elif op < 0.75:
            s.append(rng.choice([" ext 12", " x5", "#", " #77", ";ext=1", ",,9", "-12#", " (cell)", ".0", " / x12"]))
        elif op < 0.85:
            s.insert(0, rng.choice(["0", "00", "+", "1", "8", "011", "810", "0011", "+0", "tel:", "Tel: ", "(", "0 "]))
        else:
            ds = rng.choice(digitsets); s = list("".join(s))
            s = [ds[ord(c)-48] if '0' <= c <= '9' else c for c in s]
    return "".join(str(x) for x in s)
def fmt(r, e):
    f = rng.random()
    if f < 0.2: return pn.format_number(e, F.E164)
    if f < 0.4: return pn.format_number(e, F.INTERNATIONAL)
    if f < 0.6: return pn.format_number(e, F.NATIONAL)
    if f < 0.7: return pn.format_number(e, F.RFC3966)
    if f < 0.85:
        other = rng.choice(regions)
        return pn.format_out_of_country_calling_number(e, other)
    return str(e.country_code) + pn.national_significant_number(e)
def tel():
    return rng.choice(["tel:", ""]) + "".join(rng.choice("0123456789-") for _ in range(rng.randint(3, 12))) + rng.choice([";phone-context=+44", ";phone-context=example.com", ";phone-context=", ";phone-context=+", ";isub=12", ";foo=bar", ";phone-context=+1-2", ";phone-context=a-b.c1"])
cases = []
for _ in range(N):
    k = rng.random()
    r, e = rng.choice(examples)
    region = rng.choice([r if r != "001" else "ZZ", rng.choice(regions), "ZZ", r if r != "001" else "US"])
    if k < 0.45: s = fmt(r, e)
    elif k < 0.85: s = perturb(fmt(r, e))
    elif k < 0.93: s = "".join(rng.choice("0123456789 +-()") for _ in range(rng.randint(0, 22)))
    else: s = tel()
    s = s.replace("\t", " ").replace("\n", " ").replace("\r", " ")
    try:
        n = pn.parse(s, None if region == "ZZ" else region)
        if pn.is_possible_number(n):
            expected = (pn.format_number(n, F.E164)[1:], pn.is_valid_number(n), TYPE_NAMES[pn.number_type(n)])
        else:
            expected = ("INVALID", None, None)
    except pn.NumberParseException:
        expected = ("INVALID", None, None)
    cases.append((s, region, expected))

by_region = collections.defaultdict(list)
for case in cases:
    by_region[case[1]].append(case)
mismatches = 0
validity_mismatches = 0
possible = 0
for region, group in sorted(by_region.items()):
    text = "".join(s + "\n" for s, _, _ in group)
    out = subprocess.run([CALLDIR, "normalize", "--json", "--region", region], input=text.encode(), capture_output=True, check=True)
    actual = []
    for line in out.stdout.decode().split("\n")[:-1]:
        item = json.loads(line)
        actual.append(("INVALID" if item["number"] is None else str(item["number"]), item["valid"], item["type"]))
    for (s, _, expected), got in zip(group, actual):
        if got[0] != expected[0]:
            mismatches += 1
            print("mismatch: %r / %s: libphonenumber %s, calldir %s" % (s, region, expected[0], got[0]))
        elif expected[0] != "INVALID":
            possible += 1
            if got[1:] != expected[1:]:
                validity_mismatches += 1
                print("validity mismatch: %r / %s: libphonenumber %s, calldir %s" % (s, region, expected, got))
print("%d mismatches in %d inputs; validity and type: %d mismatches in %d possible numbers (%.3f%% agree)" % (
    mismatches, len(cases), validity_mismatches, possible, 100.0 * (possible - validity_mismatches) / max(possible, 1)))
sys.exit(1 if mismatches or validity_mismatches else 0)
