#!/usr/bin/env bash
# Build and run the fuzz targets (see docs/fuzzing.md).
#
#   bash fuzz/run.sh build                  # cargo +nightly fuzz build -s none -a (all targets)
#   bash fuzz/run.sh run TARGET SECONDS     # one long run: nice'd, keeps going past crashes
#   bash fuzz/run.sh repro TARGET FILE...   # run inputs once (prints the panic and its message)
#
# TARGET is parse, roundtrip or pipeline. New corpus entries go to fuzz/work/TARGET (ignored by
# git); fuzz/corpus/TARGET holds the committed seeds and is only read. Crashes and timeouts are
# written to fuzz/artifacts/TARGET/ and the log to fuzz/work/TARGET.log.
set -euo pipefail
cd "$(dirname "$0")"
BIN=target/x86_64-unknown-linux-gnu/release

case "${1:-}" in
build)
    cargo +nightly fuzz build -s none -a
    ;;
run)
    t=$2
    secs=$3
    shift 3
    case $t in
    pipeline) dict=pipeline.dict max_len=1024 ;;
    *) dict=mlir.dict max_len=4096 ;;
    esac
    mkdir -p "work/$t" "artifacts/$t"
    # -fork=1 with -ignore_*: a crash is saved and the run goes on for the whole time.
    nice -n 19 "$BIN/$t" "work/$t" "corpus/$t" \
        -dict="$dict" -max_len="$max_len" -max_total_time="$secs" \
        -timeout=10 -rss_limit_mb=4096 -artifact_prefix="artifacts/$t/" \
        -fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 \
        -print_final_stats=1 "$@" 2>&1 | tee "work/$t.log"
    ;;
repro)
    t=$2
    shift 2
    RUST_BACKTRACE=1 "$BIN/$t" "$@"
    ;;
*)
    sed -n '2,10p' "$0"
    exit 2
    ;;
esac
