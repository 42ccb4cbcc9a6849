#!/bin/sh
# Runs the built `nearby` under valgrind memcheck three times and reports "definitely lost" for each:
#   scan     `nearby scan --json --duration 3` against the mock bluetoothd on a private system bus
#   resolve  `nearby resolve --json --no-cache` of a page served by python3 -m http.server
#   ui       `nearby --demo` under Xvfb until 5 s after its first frame, then SIGTERM
# GLib's and GTK's suppression files hide their one-time allocations; tests/valgrind/nearby.supp
# hides two reports from system libraries (each entry says why it is not ours). Exits 1 if any run lost
# memory definitely (or failed to run), 0 otherwise. Logs are kept in BUILD_DIR/valgrind/.
#
#   tests/valgrind/run-memcheck.sh [BUILD_DIR]      (default: _build, built with -Dtests=true)
#
# Needs valgrind, dbus (dbus-daemon, dbus-run-session, gdbus), xvfb and /usr/bin/python3 with dbusmock (build-aux/deps.sh).
set -eu
cd "$(dirname "$0")/../.."
source_dir=$PWD
build_dir=$(cd "${1:-_build}" && pwd)
nearby="$build_dir/src/nearby"
[ -x "$nearby" ] || { echo "run-memcheck: $nearby is not built" >&2; exit 2; }
command -v valgrind >/dev/null || { echo "run-memcheck: valgrind is not installed" >&2; exit 2; }

logs="$build_dir/valgrind"
work=$(mktemp -d)
mkdir -p "$logs" "$work/home" "$work/www"
pids=""
cleanup () {
  for pid in $pids; do kill "$pid" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT

# The same hermetic environment as the meson tests: nothing touches the user's files.
export HOME="$work/home" XDG_CONFIG_HOME="$work/home/config" XDG_DATA_HOME="$work/home/data"
export XDG_CACHE_HOME="$work/home/cache" XDG_STATE_HOME="$work/home/state"
export GSETTINGS_BACKEND=memory GSETTINGS_SCHEMA_DIR="$build_dir/data" LC_ALL=C.UTF-8
export NO_AT_BRIDGE=1 G_SLICE=always-malloc G_DEBUG=gc-friendly
unset DBUS_SESSION_BUS_ADDRESS

suppressions=""
for supp in /usr/share/glib-2.0/valgrind/glib.supp /usr/share/gtk-4.0/valgrind/gtk.supp \
            "$source_dir/tests/valgrind/nearby.supp"; do
  [ -f "$supp" ] && suppressions="$suppressions --suppressions=$supp"
done

# memcheck NAME COMMAND…: runs COMMAND under valgrind, logging to $logs/NAME.log
memcheck () {
  name=$1
  shift
  # shellcheck disable=SC2086
  valgrind --tool=memcheck --leak-check=full --show-leak-kinds=definite \
    --errors-for-leak-kinds=definite --num-callers=30 $suppressions \
    --log-file="$logs/$name.log" "$@"
}

failed=0
# report NAME EXIT_STATUS: prints the definite losses and the memory errors of one run
report () {
  lost=$(sed -n 's/.*definitely lost: \([0-9,]*\) bytes in \([0-9,]*\) blocks.*/\1 bytes in \2 blocks/p' \
    "$logs/$1.log" | tail -n 1)
  errors=$(sed -n 's/.*ERROR SUMMARY: \([0-9,]*\) errors.*/\1/p' "$logs/$1.log" | tail -n 1)
  # No leak summary at all means that nothing was lost (valgrind prints none for 0 blocks).
  if [ -z "$lost" ] && grep -q "All heap blocks were freed" "$logs/$1.log"; then
    lost="0 bytes in 0 blocks"
  fi
  echo "$1: definitely lost: ${lost:-unknown}; memcheck errors: ${errors:-unknown}; exit status $2"
  case "$lost" in "0 bytes in 0 blocks") ;; *) failed=1 ;; esac
  [ "${errors:-1}" = 0 ] || failed=1
}

# 1. scan: a private system bus with the mock bluetoothd and one Eddystone-URL beacon
dbus-daemon --session --nofork --print-address=1 > "$work/bus-address" 2>/dev/null &
pids="$pids $!"
while [ ! -s "$work/bus-address" ]; do sleep 0.1; done
DBUS_SYSTEM_BUS_ADDRESS=$(head -n 1 "$work/bus-address")
export DBUS_SYSTEM_BUS_ADDRESS
/usr/bin/python3 -m dbusmock --system --template "$source_dir/tests/bluez_nearby.py" \
  >/dev/null 2>&1 &
pids="$pids $!"
tries=0
until gdbus call --address "$DBUS_SYSTEM_BUS_ADDRESS" -d org.bluez -o / \
        -m org.bluez.Mock.AddAdapter hci0 true >/dev/null 2>&1; do
  tries=$((tries + 1))
  [ "$tries" -lt 300 ] || { echo "run-memcheck: the mock bluetoothd did not start" >&2; exit 1; }
  sleep 0.1
done
# Eddystone-URL frame for https://example.com: 0x10, tx power -20, scheme 0x03, "example", .com 0x07
gdbus call --address "$DBUS_SYSTEM_BUS_ADDRESS" -d org.bluez -o / -m org.bluez.Mock.AddBeacon \
  hci0 "AA:BB:CC:DD:EE:01" \
  "{'ServiceData': <{'0000feaa-0000-1000-8000-00805f9b34fb': <[byte 0x10, 0xec, 0x03, 0x65, 0x78, 0x61, 0x6d, 0x70, 0x6c, 0x65, 0x07]>}>, 'RSSI': <int16 -60>}" \
  >/dev/null
status=0
memcheck scan "$nearby" scan --json --duration 3 > "$work/scan.out" || status=$?
grep -q example.com "$work/scan.out" || { echo "scan: the beacon was not listed" >&2; failed=1; }
report scan "$status"

# 2. resolve: a local page with a title and a description
cat > "$work/www/index.html" <<'HTML'
<!DOCTYPE html>
<html><head><title>Corner Café</title>
<meta name="description" content="Coffee and cake, two doors down"></head>
<body>Hello</body></html>
HTML
/usr/bin/python3 -m http.server --bind 127.0.0.1 --directory "$work/www" 0 \
  > "$work/http.out" 2>&1 &
pids="$pids $!"
port=""
tries=0
while [ -z "$port" ]; do
  port=$(sed -n 's/.*port \([0-9]*\).*/\1/p' "$work/http.out" | head -n 1)
  tries=$((tries + 1))
  [ "$tries" -lt 300 ] || { echo "run-memcheck: the web server did not start" >&2; exit 1; }
  [ -n "$port" ] || sleep 0.1
done
status=0
memcheck resolve "$nearby" resolve --json --no-cache "http://127.0.0.1:$port/" \
  > "$work/resolve.out" || status=$?
grep -q "Corner Caf" "$work/resolve.out" || { echo "resolve: the title was not found" >&2; failed=1; }
report resolve "$status"

# 3. ui: the demo window until 5 s after its first frame (its debug message), then SIGTERM as a
# session manager would send, with a session bus of its own for GApplication. A SIGTERM at a fixed
# time could land in the middle of start-up on a loaded machine, leaving blocks that only the
# interrupted code pointed to, which read as leaks; and the session would test no painting.
status=0
# GSK_RENDERER=cairo: with GL, Mesa's software renderer (llvmpipe's JIT, its shader cache) fills
# the log with uninitialised-value reports that are not about this code.
GSK_RENDERER=cairo G_MESSAGES_DEBUG=nearby-window xvfb-run -a -s "-screen 0 1280x800x24" dbus-run-session -- sh -c '
  out=$1
  shift
  "$@" > "$out" &
  app=$!
  tries=0
  until grep -q "First frame painted" "$out"; do
    tries=$((tries + 1))
    if [ "$tries" -ge 1200 ] || ! kill -0 "$app" 2>/dev/null; then
      echo "run-memcheck: the window never painted" >&2
      break
    fi
    sleep 0.1
  done
  sleep 5
  kill -TERM "$app"
  wait "$app" 2>/dev/null' memcheck-ui "$work/ui.out" \
  valgrind --tool=memcheck --leak-check=full --show-leak-kinds=definite \
    --errors-for-leak-kinds=definite --num-callers=30 $suppressions \
    --log-file="$logs/ui.log" "$nearby" --demo || status=$?
grep -q "First frame painted" "$work/ui.out" || { echo "ui: the window never painted" >&2; failed=1; }
report ui "$status"

exit "$failed"
