#!/bin/sh
# Runs one test of the sanitizer build (meson test --wrapper). Any sanitizer report fails it as
# usual. The one exception is LeakSanitizer itself crashing at exit ("Tracer caught signal 11 …
# LeakSanitizer has encountered a fatal error"): gcc 12's runtime sometimes reads a bogus
# dynamic-TLS range of a GLib worker thread there (LSAN_OPTIONS=verbosity=1:log_threads=1 shows
# it), which says nothing about the code under test. Then, and only then, the test runs again,
# at most twice more.

out=$(mktemp) || exit 1
err=$(mktemp) || exit 1
trap 'rm -f "$out" "$err"' EXIT

attempt=1
while :; do
  "$@" >"$out" 2>"$err"
  status=$?
  if [ "$status" -eq 0 ] || [ "$attempt" -ge 3 ] ||
     ! grep -q 'LeakSanitizer has encountered a fatal error' "$err" ||
     grep -q -e 'ERROR: LeakSanitizer: detected memory leaks' -e 'ERROR: AddressSanitizer' \
             -e 'runtime error:' "$err"; then
    break
  fi
  echo "run-sanitized: LeakSanitizer crashed (attempt $attempt), running the test again:" >&2
  cat "$err" >&2
  attempt=$((attempt + 1))
done

cat "$out"
cat "$err" >&2
exit "$status"
