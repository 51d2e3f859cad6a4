#!/usr/bin/env bash
# Runs every fuzz target of the module (each `func FuzzX` in a *_test.go) for
# FUZZTIME, FUZZ_JOBS targets at a time (default: the number of CPUs, at
# least 2), each with one fuzzing worker when several run at once.
#
#   FUZZTIME=30s scripts/fuzz.sh          # make fuzz
#   FUZZTIME=3s FUZZ_QUIET=1 scripts/fuzz.sh  # make fuzz-short (part of make test)
#
# FUZZ_QUIET prints a target's output only when it fails, and runs a target
# again once when it stopped without a failing input (on a loaded machine
# the fuzz timer can run out before the seed corpus has been run). A
# "Failing input" is always a failure. The exit status is non-zero when any
# target failed; every target runs regardless.
set -euo pipefail
cd "$(dirname "$0")/.."

GO=${GO:-go}
FUZZTIME=${FUZZTIME:-30s}
FUZZ_MINIMIZE=${FUZZ_MINIMIZE:-5s}
FUZZ_QUIET=${FUZZ_QUIET:-}
cpus=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)
FUZZ_JOBS=${FUZZ_JOBS:-$(( cpus < 2 ? 2 : cpus ))}
parallel=$([ "$FUZZ_JOBS" -gt 1 ] && echo 1 || echo "$cpus")
export GO FUZZTIME FUZZ_MINIMIZE FUZZ_QUIET parallel

# "<package dir> <target>" per line, from the sources (no build needed).
targets=$(git ls-files '*_test.go' 2>/dev/null || find . -name '*_test.go' | sed 's#^\./##')
targets=$(grep -H -o '^func Fuzz[A-Za-z0-9_]*' $targets | sed -E 's#^(.*)/[^/]+_test\.go:func #./\1 #' | sort -u)
[ -n "$targets" ] || { echo "fuzz: no fuzz targets" >&2; exit 0; }
# Two rounds. First, one target of each package, FUZZ_JOBS at a time: each
# builds its package's instrumented test binary (the slow part: every
# dependency is compiled again with coverage counters, a minute or more on
# a busy machine after an edit), and no two jobs build the same package at
# once. Then the other targets, FUZZ_JOBS at a time, round-robin over the
# packages: their builds are cached, so they take the fuzz time and a link.
ranked=$(echo "$targets" | awk '{n[$1]++; print n[$1], $0}')
first=$(echo "$ranked" | awk '$1 == 1' | cut -d' ' -f2-)
rest=$(echo "$ranked" | awk '$1 > 1' | sort -s -n -k1,1 | cut -d' ' -f2-)

one() {
	pkg=$1 t=$2
	run() { $GO test -run '^$' -fuzz "^$t\$" -fuzztime "$FUZZTIME" -fuzzminimizetime "$FUZZ_MINIMIZE" -parallel "$parallel" "$pkg" 2>&1; }
	start=$(date +%s)
	if [ -z "$FUZZ_QUIET" ]; then
		echo "fuzz: $t in $pkg for $FUZZTIME"
		run || { echo "fuzz: $t in $pkg FAILED"; return 1; }
		return 0
	fi
	if ! out=$(run); then
		case "$out" in *"Failing input"*) printf '%s\nfuzz: %s in %s FAILED\n' "$out" "$t" "$pkg"; return 1;; esac
		echo "fuzz: $t stopped without a failing input (a loaded machine: the fuzz timer ran out); running it again"
		out=$(run) || { printf '%s\nfuzz: %s in %s FAILED\n' "$out" "$t" "$pkg"; return 1; }
	fi
	echo "fuzz: $t in $pkg ok ($(( $(date +%s) - start )) s)"
}
export -f one

echo "fuzz: $(echo "$targets" | wc -l) targets in $(echo "$first" | wc -l) packages for $FUZZTIME each, $FUZZ_JOBS at a time" >&2
status=0
echo "$first" | xargs -P "$FUZZ_JOBS" -L 1 bash -c 'one "$@"' _ || status=1
if [ -n "$rest" ]; then
	echo "$rest" | xargs -P "$FUZZ_JOBS" -L 1 bash -c 'one "$@"' _ || status=1
fi
exit $status
