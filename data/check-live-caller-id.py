#!/usr/bin/env python3
"""Development-time check of `calldir export live-caller-id` with Apple's own tools (never run by CI).

Builds a store with a liveCallerID config, exports it, processes every shard with Apple's PIRProcessDatabase,
and queries every blocking number (must answer 01), every identified number (its CallIdentity), allowlisted
numbers and unlisted neighbours (absent), through the real PIR client round trip (pir-query: evaluation key,
encrypted query, server response, decryption), checking each keyword's shard too. Then a second build changes
a few numbers, categories and labels; the export writes only the shards whose rows changed, only those are
reprocessed, and the processed set must answer the new version exactly. Both keyword forms: e164 and national
(the national digits from Python's phonenumbers; a national text two numbers share must answer nothing).

    python3 data/check-live-caller-id.py CALLDIR_BINARY WORKDIR

Needs PIRProcessDatabase and pir-query (PIR_ROOT/bin, default ~/pir/bin) and keyword_db.py / oracle.py
(PIR_TOOLS, default /work/shared/tools/pir): see that folder's README for building them from the public sources.
"""

import json
import os
import random
import shutil
import subprocess
import sys

sys.path.insert(0, os.environ.get("PIR_TOOLS", "/work/shared/tools/pir"))
import keyword_db  # noqa: E402
import oracle  # noqa: E402
import phonenumbers  # noqa: E402

CALLDIR, WORK = sys.argv[1], sys.argv[2]
ICON = bytes([0, 0, 0, 24]) + b"ftypheic" + bytes(4) + b"mif1heic" + bytes(range(200))


def run(args, cwd=None):
    result = subprocess.run(args, cwd=cwd, capture_output=True, text=True)
    if result.returncode != 0:
        raise SystemExit(f"{' '.join(args)}: exit {result.returncode}\n{result.stderr}")
    return result.stdout


def write_sources(block, shops, people, allowed, category):
    with open(f"{WORK}/block.txt", "w") as f:
        f.write("\n".join(block) + "\n")
    with open(f"{WORK}/ranges.txt", "w") as f:
        f.write("+336123456##\n")
    with open(f"{WORK}/shops.csv", "w") as f:
        f.write("number,name\n" + "".join(f"{n},{name}\n" for n, name in sorted(shops.items())))
    with open(f"{WORK}/people.csv", "w") as f:
        f.write("number,name\n" + "".join(f"{n},{name}\n" for n, name in sorted(people.items())))
    with open(f"{WORK}/allow.txt", "w") as f:
        f.write("\n".join(allowed) + "\n")
    config = {
        "dataset": "com.example.pir-check",
        "liveCallerID": {"useCase": "com.example.lookup", "cacheExpiryMinutes": 90, "keywordForms": ["e164", "national"],
                         "block": {"shardCount": 4}, "identity": {"shardCount": 2}},
        "sources": [
            {"path": "block.txt", "format": "lines", "list": "block"},
            {"path": "ranges.txt", "format": "patterns", "list": "block"},
            {"path": "shops.csv", "format": "csv", "list": "identify", "number": "number", "label": "name",
             "category": category, "icon": "shop.heic", "priority": 1},
            {"path": "people.csv", "format": "csv", "list": "identify", "number": "number", "label": "name",
             "category": "person"},
            {"path": "allow.txt", "format": "lines", "list": "allow"},
        ],
    }
    with open(f"{WORK}/calldir.json", "w") as f:
        json.dump(config, f)


def entries(store):
    history = json.loads(run([CALLDIR, "history", "--store", store, "--json"]))
    snapshot = history["versions"][-1]["snapshot"]
    blocking, identification = [], {}
    for line in run([CALLDIR, "inspect", "--entries", os.path.join(store, snapshot)]).splitlines():
        fields = line.split("\t", 2)
        if fields[0] == "block":
            blocking.append("+" + fields[1])
        elif fields[0] == "identify":
            identification["+" + fields[1]] = fields[2]
    return blocking, identification


def process(out, document):
    commands = [c for u in document["useCases"] for c in u["commands"]]
    for command in commands:
        run([os.path.join(oracle.BIN_DIR, "PIRProcessDatabase")] + command.split()[1:], cwd=out)
    return commands


def national(number):
    """libphonenumber's national format's digits (None without a national format)."""
    try:
        text = phonenumbers.format_number(phonenumbers.parse(number), phonenumbers.PhoneNumberFormat.NATIONAL)
    except phonenumbers.NumberParseException:
        return None
    return "".join(c for c in text if c.isdigit()) or None


def with_national(expected):
    """Adds each number's national keyword with its value, or None where two numbers share it."""
    by_digits = {}
    for keyword, value in list(expected.items()):
        if value is not None and keyword.startswith(b"+"):
            digits = national(keyword.decode())
            if digits:
                by_digits.setdefault(digits.encode(), []).append(value)
    for digits, values in by_digits.items():
        expected[digits] = values[0] if len(values) == 1 else None
    return sum(1 for values in by_digits.values() if len(values) > 1)


def check(out, document, blocking, identification, categories, absent):
    counts = {u["kind"]: u["shardCount"] for u in document["useCases"]}
    expected_block = {k.encode(): b"\x01" for k in blocking}
    shared = with_national(expected_block)
    expected_block.update({k.encode(): None for k in absent})
    expected_identity = {}
    for number, label in identification.items():
        category = categories.get(number, 0)
        icon = keyword_db.Icon(1, ICON) if category == 2 else None
        expected_identity[number.encode()] = keyword_db.encode_call_identity(label, 90, category, icon)
    shared += with_national(expected_identity)
    expected_identity.update({k.encode(): None for k in absent if k not in identification})
    reported = sum(u["sharedNationalDigits"] for u in document["useCases"])
    if reported != 2 * shared:
        print(f"  export.json says {reported} numbers share national digits, expected {2 * shared}")
    problems = oracle.check(f"{out}/processed/block", expected_block, shard_count=counts["block"],
                            sharding=("sha256", counts["block"]))
    problems += oracle.check(f"{out}/processed/identity", expected_identity, shard_count=counts["identity"],
                             sharding=("sha256", counts["identity"]))
    return problems, len(expected_block), len(expected_identity)


def main():
    shutil.rmtree(WORK, ignore_errors=True)
    os.makedirs(WORK)
    with open(f"{WORK}/shop.heic", "wb") as f:
        f.write(ICON)
    rng = random.Random(34)
    block = sorted({f"+1408{rng.randrange(2000000, 9999999)}" for _ in range(1500)})
    block += ["+442079460018", "+33412345678", "+61412345678"]
    shops = {f"+1212555{rng.randrange(1000, 9999)}": f"Shop {i}" for i in range(150)}
    people = {f"+4930{rng.randrange(100000, 999999)}": f"Person {i} 🙂" for i in range(150)}
    allowed = block[:10] + ["+33612345605"]
    write_sources(block, shops, people, allowed, "business")
    store, out = f"{WORK}/store", f"{WORK}/out"
    run([CALLDIR, "build", "--config", f"{WORK}/calldir.json", "--store", store, "--as-of", "2026-03-01"])
    document = json.loads(run([CALLDIR, "export", "live-caller-id", "--store", store, "--output", out, "--json"]))
    commands = process(out, document)
    blocking, identification = entries(store)
    categories = {n: (2 if n in shops else 1) for n in identification}
    numbers = set(blocking) | set(identification)
    neighbours = [f"+{int(n[1:]) + d}" for n in blocking[::25] + list(identification)[::10] for d in (-1, 1)]
    absent = allowed + [n for n in neighbours if n not in numbers]
    problems, queried_block, queried_identity = check(out, document, blocking, identification, categories, absent)
    print(f"version 1: {len(commands)} shards processed; queried {queried_block} block and {queried_identity} identity "
          f"keywords ({len(blocking)} blocking, {len(identification)} identified, {len(absent)} absent): "
          f"{len(problems)} mismatches")
    for problem in problems[:20]:
        print("  " + problem)

    # Version 2: a few numbers in and out, a relabel, the shops' category.
    removed = block[100:103]
    added = [f"+1408{rng.randrange(2000000, 9999999)}" for _ in range(3)]
    block2 = [n for n in block if n not in removed] + added
    people2 = dict(people)
    relabeled = sorted(people2)[0]
    people2[relabeled] = "Renamed Person"
    write_sources(block2, shops, people2, allowed, "business")
    run([CALLDIR, "build", "--config", f"{WORK}/calldir.json", "--store", store, "--as-of", "2026-03-02"])
    document2 = json.loads(run([CALLDIR, "export", "live-caller-id", "--store", store, "--output", out, "--json"]))
    written = {u["kind"]: u["shardsWritten"]["indices"] for u in document2["useCases"]}
    commands2 = process(out, document2)
    blocking2, identification2 = entries(store)
    categories2 = {n: (2 if n in shops else 1) for n in identification2}
    numbers2 = set(blocking2) | set(identification2)
    absent2 = allowed + removed + [n for n in neighbours if n not in numbers2]
    keywords = lambda numbers: [k for n in numbers for k in (n, national(n)) if k]  # noqa: E731
    expected_block_shards = sorted({oracle.sha256_shard(k, 4) for k in keywords(removed + added)})
    expected_identity_shards = sorted({oracle.sha256_shard(k, 2) for k in keywords([relabeled])})
    problems2, queried_block2, queried_identity2 = check(out, document2, blocking2, identification2, categories2, absent2)
    print(f"version 2: wrote {written} (expected block {expected_block_shards}, identity {expected_identity_shards}); "
          f"reprocessed {len(commands2)} shards; queried {queried_block2} block and {queried_identity2} identity "
          f"keywords: {len(problems2)} mismatches")
    for problem in problems2[:20]:
        print("  " + problem)
    ok = (not problems and not problems2 and written["block"] == expected_block_shards
          and written["identity"] == expected_identity_shards)
    print("OK" if ok else "FAILED")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
