#!/usr/bin/env bash
# Runs the README's test command (scripts/test.sh) N times in a row (default 5) while two busy
# loops load both cores, as a busy CI machine would, and prints how many runs failed. A flaky
# test shows up here; each failed run's log is kept for its cause.
#   scripts/dev/stress-tests.sh [N]
set -uo pipefail
cd "$(dirname "$0")/../.."
runs=${1:-5}
logs=$(mktemp -d "${TMPDIR:-/tmp}/voicerack-stress.XXXXXX")
( while :; do :; done ) & busy1=$!
( while :; do :; done ) & busy2=$!
trap 'kill $busy1 $busy2 2>/dev/null' EXIT
failed=0
for i in $(seq 1 "$runs"); do
  start=$(date +%s)
  if scripts/test.sh > "$logs/run-$i.log" 2>&1; then
    echo "stress-tests: run $i of $runs passed ($(( $(date +%s) - start )) s)"
    # What a passing run hides: the test totals, known issues and jackd wedges it rode out.
    grep -E "^. Test run with" "$logs/run-$i.log" | sed 's/^/  /'
    echo "  jackd wedges ridden out: $(grep -c "running the test again on a fresh server" "$logs/run-$i.log")"
    rm -f "$logs/run-$i.log"
  else
    failed=$((failed + 1))
    echo "stress-tests: run $i of $runs FAILED ($(( $(date +%s) - start )) s); log: $logs/run-$i.log"
    grep -E "✘ Test|error:" "$logs/run-$i.log" | head -20
  fi
done
echo "stress-tests: $((runs - failed)) passed, $failed failed"
[ "$failed" -eq 0 ]
