#!/usr/bin/env bash
# Builds the libFuzzer harnesses in Tests/Fuzz/Harnesses and runs them
# (make fuzz, make fuzz-smoke).
#
#   Tests/Fuzz/fuzz.sh build [HARNESS...]   build the harnesses
#   Tests/Fuzz/fuzz.sh run [HARNESS...]     build, then fuzz each for FUZZ_SECONDS
#   Tests/Fuzz/fuzz.sh smoke [HARNESS...]   CI: fuzz each for FUZZ_SECONDS (default 5),
#                                           linked against the debug build of `make test`
#   Tests/Fuzz/fuzz.sh seeds                rewrite the generated seeds in Tests/Fuzz/Corpus
#
# SANITIZE (default fuzzer,address; fuzzer alone runs several times faster),
# FUZZ_SECONDS (default 60), FUZZ_RUNS (a number of inputs instead of a time),
# FUZZ_JOBS (harnesses fuzzed at once, default 1). `run` exits non-zero when a
# harness finds something; the input is in .build/fuzz/crashes/HARNESS/.
set -euo pipefail
cd "$(dirname "$0")/../.."

ALL_HARNESSES="blob-reader blob-writer provider-loader normalizer source-readers build-config dataset-validator wire-decoder json-parser sync-manifest protobuf-decoder xml-document json-document"
command=${1:-run}
shift || true
harnesses=${*:-$ALL_HARNESSES}
# The smoke run skips the sanitized release build (minutes on 2 cores): it
# links the harnesses, instrumented, against the uninstrumented debug
# objects `make test` built, so it proves that every harness builds and
# replays its seeds, and mutates them a few seconds with little guidance.
if [ "$command" = smoke ]; then SANITIZE=fuzzer FUZZ_SECONDS=${FUZZ_SECONDS:-5}; fi
SANITIZE=${SANITIZE:-fuzzer,address}
FUZZ_SECONDS=${FUZZ_SECONDS:-60}
FUZZ_JOBS=${FUZZ_JOBS:-1}
SWIFT=${SWIFT:-swift}
SWIFTC=${SWIFTC:-swiftc}
FUZZ=.build/fuzz
# Process-wide constants LeakSanitizer would report at exit (see the file).
export LSAN_OPTIONS="suppressions=$PWD/Tests/Fuzz/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
TAG=${SANITIZE//,/-}
BUILD=$FUZZ/$TAG          # SwiftPM's build of the library modules, per set of sanitizers
MODULES_DIR=$BUILD/release
BIN=$FUZZ/bin-$TAG
if [ "$command" = smoke ]; then MODULES_DIR=.build/debug BIN=$FUZZ/bin-smoke TAG=smoke; fi

COMPILER="CalldirSystem CalldirHost CICUShim UnicodeText SQLiteDatabase PhoneNumbers CHardwareCRC CVectorCodec CallDirectoryFormat CallDirectorySync Sodium CallDirectorySources CallDirectoryCompiler"
# The library modules each harness links, and the Tests/Fuzz/Support files
# it uses besides FuzzInput and FuzzCheck.
declare -A MODULES=(
  [blob-reader]="CalldirSystem CHardwareCRC CVectorCodec CallDirectoryFormat"
  [blob-writer]="CalldirSystem CHardwareCRC CVectorCodec CallDirectoryFormat"
  [provider-loader]="CalldirSystem CHardwareCRC CVectorCodec CallDirectoryFormat CallDirectoryProvider"
  [normalizer]="CalldirSystem CalldirHost CICUShim UnicodeText CVectorCodec PhoneNumbers"
  [source-readers]=$COMPILER
  [build-config]=$COMPILER
  [dataset-validator]="CalldirSystem CalldirHost CHardwareCRC CVectorCodec CallDirectoryFormat CallDirectoryValidation"
  [wire-decoder]="CalldirSystem CalldirHost CallKitMock"
  [json-parser]="CalldirSystem"
  [json-document]=$COMPILER
  [sync-manifest]="CalldirSystem CHardwareCRC CVectorCodec CallDirectoryFormat CallDirectorySync"
  [protobuf-decoder]="$COMPILER CallDirectoryStore LiveCallerID"
  [xml-document]=$COMPILER
)
declare -A SUPPORT=(
  [blob-reader]="BlobReadingLimits BlobResealing LookupProbing SectionReading StretchReading"
  [provider-loader]="BlobReadingLimits BlobResealing OrderCheckingSink ScratchFile"
  [dataset-validator]="BlobReadingLimits BlobResealing"
  [sync-manifest]="ScratchFile"
)
# The longest input per harness (-max_len): blobs need room for a few frames.
declare -A MAX_LEN=([blob-reader]=16384 [blob-writer]=32768 [provider-loader]=16384 [dataset-validator]=16384)

objects_of() {
  for module in "$@"; do ls "$MODULES_DIR/$module.build/"*.o; done
}

build_modules() {
  # --target: each library target the harnesses import, with its
  #   dependencies; a target build compiles without linking, so libFuzzer's
  #   main never meets an executable's (SwiftPM links executables with
  #   --defsym main=<product>_main, which clashes with it).
  # -c release: fuzz the optimized code that ships, and run faster.
  # -Xswiftc -sanitize=…: libFuzzer's coverage instrumentation, and ASan's checks.
  # -Xcc -fsanitize=fuzzer-no-link,…: the same for the C target CICUShim,
  #   without libFuzzer's runtime.
  for target in CallDirectoryCompiler CallDirectoryProvider CallDirectoryValidation CallKitMock CallDirectorySync LiveCallerID; do
    "$SWIFT" build --build-path "$BUILD" -c release --target "$target" \
      -Xswiftc "-sanitize=$SANITIZE" -Xcc "-fsanitize=${SANITIZE/fuzzer/fuzzer-no-link}" 2>&1 |
      { grep -v '^\[' || true; }
  done
}

# swiftc flags shared by the harnesses and the seed writer:
# -O: optimized, like the modules; -use-ld=lld: gold warns about every ASan
# symbol it cannot export; -I …/Modules: the modules' .swiftmodule files;
# -Xcc -fmodule-map-file: the C modules they import (the system libraries'
# own maps, the ones SwiftPM writes for the C targets).
SWIFTC_FLAGS=(-O -use-ld=lld -I "$MODULES_DIR/Modules"
  -Xcc -fmodule-map-file=Sources/CSQLite/module.modulemap
  -Xcc -fmodule-map-file=Sources/CSodium/module.modulemap
  -Xcc -fmodule-map-file=Sources/CCrypto/module.modulemap
  -Xcc -fmodule-map-file=Sources/CLibXML2/module.modulemap -Xcc -I/usr/include/libxml2
  -Xcc "-fmodule-map-file=$MODULES_DIR/CICUShim.build/module.modulemap"
  -Xcc "-fmodule-map-file=$MODULES_DIR/CHardwareCRC.build/module.modulemap"
  -Xcc "-fmodule-map-file=$MODULES_DIR/CVectorCodec.build/module.modulemap")

link() {
  mkdir -p "$BIN"
  for harness in $harnesses; do
    # Tests/Fuzz/Options/HARNESS-options.swift: its option bytes, decoded (the
    # FuzzCorpusTests check every seed against the same code).
    local sources=("Tests/Fuzz/Harnesses/$harness.swift" "Tests/Fuzz/Options/$harness-options.swift")
    for name in FuzzInput FuzzCheck ${SUPPORT[$harness]:-}; do sources+=("Tests/Fuzz/Support/$name.swift"); done
    # -sanitize=fuzzer,…: links libFuzzer, whose main calls the harness's
    #   LLVMFuzzerTestOneInput; -parse-as-library: the harness has no main of
    #   its own and its globals initialize lazily.
    # -licuuc -lsqlite3 -lsodium -lcrypto -lxml2: what CICUShim, SQLiteDatabase,
    #   Sodium, CallDirectoryFormat (SHA-256) and the xml reader link against.
    # shellcheck disable=SC2046
    "$SWIFTC" "-sanitize=$SANITIZE" -parse-as-library "${SWIFTC_FLAGS[@]}" "${sources[@]}" \
      $(objects_of ${MODULES[$harness]}) -licuuc -lsqlite3 -lsodium -lcrypto -lxml2 -o "$BIN/$harness"
  done
}

# Writes the seeds Tests/Fuzz/Seeds/main.swift (the seed writer) generates, and the
# version 1 blob fixtures with each blob harness's option bytes in front.
seeds() {
  # A program with a main of its own: libFuzzer's runtime without its main
  # provides the coverage callbacks the instrumented objects call.
  local runtime sanitizers=${SANITIZE#fuzzer}
  sanitizers=${sanitizers#,}
  runtime=$(ls "$(dirname "$(command -v "$SWIFTC")")"/../lib/clang/*/lib/linux/libclang_rt.fuzzer_no_main-x86_64.a)
  # shellcheck disable=SC2046
  # The option code of the harnesses whose seeds it writes encodes their
  # option bytes (Tests/Fuzz/Options).
  local options=()
  for harness in blob-reader provider-loader dataset-validator normalizer wire-decoder source-readers xml-document json-document; do
    options+=("Tests/Fuzz/Options/$harness-options.swift")
  done
  "$SWIFTC" ${sanitizers:+"-sanitize=$sanitizers"} "${SWIFTC_FLAGS[@]}" Tests/Fuzz/Seeds/main.swift \
    Tests/Fuzz/Support/FuzzInput.swift "${options[@]}" \
    $(objects_of $COMPILER) "$runtime" -lstdc++ -licuuc -lsqlite3 -lsodium -lcrypto -lxml2 \
    -o "$FUZZ/write-seeds"
  "$FUZZ/write-seeds" Tests/Fuzz/Corpus
  for blob in Tests/CallDirectoryFormatTests/Fixtures/version1-*.cdir; do
    { printf '\x03'; cat "$blob"; } >"Tests/Fuzz/Corpus/blob-reader/${blob##*/}"
    { printf '\x05\x07'; cat "$blob"; } >"Tests/Fuzz/Corpus/provider-loader/${blob##*/}"
    { printf '\x13'; cat "$blob"; } >"Tests/Fuzz/Corpus/dataset-validator/${blob##*/}"
  done
}

# Runs the harnesses, FUZZ_JOBS at a time; fails if any found something.
run_all() {
  echo "fuzz ($TAG): ${FUZZ_RUNS:-$FUZZ_SECONDS s}${FUZZ_RUNS:+ inputs} per harness"
  local failed=0 running=0
  for harness in $harnesses; do
    if [ "$running" -ge "$FUZZ_JOBS" ]; then
      wait -n || failed=1
      running=$((running - 1))
    fi
    fuzz_one "$harness" &
    running=$((running + 1))
  done
  while [ "$running" -gt 0 ]; do
    wait -n || failed=1
    running=$((running - 1))
  done
  return $failed
}

# Fuzzes one harness on a copy of its seeds (Tests/Fuzz/Corpus/HARNESS, the
# named seeds, and Tests/Fuzz/Grown/HARNESS, what the last recorded campaign
# grew from them, minimized); prints its executions, exec/s and whether it
# found anything, and fails if it did.
fuzz_one() {
  local harness=$1 corpus=$FUZZ/corpus/$1 crashes=$FUZZ/crashes/$1 log=$FUZZ/logs/$1-$TAG.log
  mkdir -p "$corpus" "$crashes" "$FUZZ/logs"
  cp -n Tests/Fuzz/Corpus/"$harness"/* "$corpus"/ 2>/dev/null || true
  cp -n Tests/Fuzz/Grown/"$harness"/* "$corpus"/ 2>/dev/null || true
  local limit=(-max_total_time="$FUZZ_SECONDS") status=0
  [ -z "${FUZZ_RUNS:-}" ] || limit=(-runs="$FUZZ_RUNS")
  # -max_len, -timeout (seconds per input), -rss_limit_mb: bound one input's
  # work; an input past them is a finding. -print_final_stats: the counts.
  "$BIN/$harness" "${limit[@]}" -max_len="${MAX_LEN[$harness]:-4096}" -timeout=10 -rss_limit_mb=2048 \
    -print_final_stats=1 -artifact_prefix="$crashes/" "$corpus" >"$log" 2>&1 || status=$?
  local runs rate found="nothing found"
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
  if [ "$status" -ne 0 ] || [ -n "$(ls -A "$crashes")" ]; then found="FOUND SOMETHING: $log, $crashes/"; fi
  printf '%-18s %11s executions %7s exec/s  %s\n' "$harness" "${runs:-?}" "${rate:-?}" "$found"
  [ "$found" = "nothing found" ]
}

case $command in
  build) build_modules && link ;;
  run) build_modules && link && run_all ;;
  smoke) "$SWIFT" build && link && run_all ;;
  seeds) build_modules && seeds ;;
  *) echo "usage: $0 build|run|smoke|seeds [HARNESS...]" >&2; exit 64 ;;
esac
