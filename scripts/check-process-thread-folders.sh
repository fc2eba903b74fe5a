#!/usr/bin/env bash
# Fails when a `@_noLocks` function (code that runs on the audio process thread) lives outside a
# ProcessThread/ folder: the tree says which thread each file's code runs on (ProcessThread/,
# MainThread/, and worker folders such as WriterThread/). Lists the misplaced lines.
#   scripts/check-process-thread-folders.sh [SOURCES]   checks SOURCES (default: Sources)
#   scripts/check-process-thread-folders.sh --self-test checks that it fails on a misplaced mark
set -euo pipefail
cd "$(dirname "$0")/.."

# An attribute at the start of a declaration's lines, not a mention in a comment or a string.
mark='^[[:space:]]*(@[A-Za-z_]+(\([^)]*\))?[[:space:]]+)*@_noLocks\b'

check() {
  local misplaced
  misplaced=$(grep -rnE --include='*.swift' "$mark" "$1" | grep -v '/ProcessThread/' || true)
  if [ -n "$misplaced" ]; then
    echo "check-process-thread-folders: @_noLocks outside a ProcessThread/ folder (move the code there):" >&2
    echo "$misplaced" >&2
    return 1
  fi
  echo "check-process-thread-folders: $(grep -rlE --include='*.swift' "$mark" "$1" | wc -l) files with @_noLocks, all in ProcessThread/ folders"
}

if [ "${1:-}" = "--self-test" ]; then
  tree=$(mktemp -d)
  trap 'rm -rf "$tree"' EXIT
  mkdir -p "$tree/Unit/ProcessThread" "$tree/Unit/MainThread"
  printf '/// Mentions @_noLocks in a comment.\n@inline(__always) @_noLocks\nfunc render() {}\n' \
    > "$tree/Unit/ProcessThread/Render.swift"
  printf '// A comment naming @_noLocks is no mark.\nfunc prepare() {}\n' > "$tree/Unit/MainThread/Prepare.swift"
  check "$tree" >/dev/null || { echo "check-process-thread-folders: self-test: a clean tree failed" >&2; exit 1; }
  printf '@_noLocks\nfunc misplaced() {}\n' > "$tree/Unit/MainThread/Misplaced.swift"
  if check "$tree" 2>/dev/null; then
    echo "check-process-thread-folders: self-test: a misplaced @_noLocks passed" >&2
    exit 1
  fi
  echo "check-process-thread-folders: self-test passed"
  exit 0
fi
check "${1:-Sources}" || exit 1
