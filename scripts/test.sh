#!/usr/bin/env bash
# The test command: installs what is missing, runs every test target, then the real-time safety
# tests again with RealtimeSanitizer's runtime linked (a separate build folder, .build-rtsan).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
# JACK keeps a registry of at most 8 servers in /dev/shm; a server killed with SIGKILL (a crashed
# test run, a user's kill -9) keeps its entry until a server of the same name starts again, and
# once 8 are taken no test can start its own ("Too many servers already active"). With no JACK
# server running at all, every entry is such a leftover: clear them.
if ! pgrep -x jackd >/dev/null && ! pgrep -x jackdbus >/dev/null; then
  rm -f /dev/shm/jack-shm-registry /dev/shm/jack_sem.* 2>/dev/null || true
fi
# Style first: the checked-in .swift-format, warnings are errors (`swift format -i -r Sources Tests
# Package.swift` fixes most of them).
swift format lint --strict -r --configuration .swift-format Sources Tests Package.swift
scripts/check-process-thread-folders.sh --self-test && scripts/check-process-thread-folders.sh
swift build --build-tests
swift test --skip RealtimeSafetyTests --skip VoiceWebTests
# On their own, after the suite: the web panel's in-process server tests. The server runs on
# Swift's cooperative pool (two threads here), which the suite's many blocking tests would
# otherwise hold for minutes at a time, and these tests bound how long a connection may take.
swift test --skip-build --filter VoiceWebTests
# The installed layout (outside swift test: install.sh runs swift itself), from the debug build.
scripts/test-install.sh
# Every link and named path in README.md, docs/ and scripts/README.md resolves.
python3 scripts/dev/check-doc-links.py
# The yardstick summary (scripts/eval.sh's tables) on a tiny fixture; standard library only.
python3 scripts/dev/test-eval-summary.py
# The Debian package (the static release build) in a clean Debian 12 root without Swift:
# debootstrap, chroot and mounts need root.
if [ "$(id -u)" -eq 0 ]; then scripts/test-package.sh; else sudo scripts/test-package.sh; fi
runtime=$(clang --print-file-name=libclang_rt.rtsan-x86_64.a 2>/dev/null || true)
if [ -f "$runtime" ]; then
  echo "test.sh: real-time safety tests under RealtimeSanitizer ($runtime)"
  VOICERACK_RTSAN_RUNTIME=$runtime swift test --scratch-path .build-rtsan --filter RealtimeSafetyTests
else
  echo "test.sh: RealtimeSanitizer runtime not found; running the real-time tests without it" >&2
  swift test --filter RealtimeSafetyTests
fi
