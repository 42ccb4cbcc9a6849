/* bench-room.c: a busy room (50 beacons at 10 Hz) for the app, `nearby scan` and bleak
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 *   xvfb-run -a -s "-screen 0 1280x800x24 -ac" \
 *     meson test -C _build --benchmark bench-room --verbose
 *
 * Three programs, one after the other, each against its own mock bluetoothd
 * (tests/bluez_nearby.py) on a private bus that is both their session and system bus:
 *
 *   - `nearby`, the app, under the X display (GSK_RENDERER from BENCH_ROOM_RENDERER, cairo);
 *   - `nearby scan`, its output to a pipe (so the table is printed when it ends);
 *   - the peer: a python3-bleak BleakScanner decoding Eddystone-URL in its detection callback
 *     (tests/bench/bench_scan_bleak.py, the script bench-scan runs).
 *
 * The mock's adapter holds BENCH_ROOM_BEACONS (50) Eddystone-URL beacons whose every advert it
 * signals BENCH_ROOM_RATE (10) times a second each, within 1 dB of -60 dBm (HoldRssi, following
 * the discovery filter the program set, as bluetoothd 5.66 does). Once the program scans and
 * has settled (BENCH_ROOM_SETTLE_SECONDS, 5), its CPU is read from /proc/PID/stat over
 * BENCH_ROOM_SECONDS (30), then its poll() and ppoll() calls are counted over as long again by
 * `strace -f -c`. Each figure is printed with its ratio to bleak's.
 *
 * BENCH_ROOM_GDBUS=1 also runs the app and `nearby scan` with NEARBY_SCANNER_SIGNALS=gdbus (the
 * scanner's path without libsystemd); BENCH_ROOM_THREADS=1 counts the wakeups once more, thread
 * by thread (strace writing each call), and prints them by thread name.
 *
 * The children run without the tests' MALLOC_CHECK_ and G_DEBUG, with the keyfile settings
 * backend where the privacy choice is made and look-ups on "ask" (nothing is fetched), and
 * GTK_A11Y=none unless set. Without a display the app is not measured; without python3-bleak,
 * bleak is not (and there is no ratio).
 */

#include "config.h"

#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "bench-util.h"
#include "bluez-mock-harness.h"

#define START_TIMEOUT_S 60
#define ROOM_RSSI       -60

typedef enum {
  CASE_APP,
  CASE_SCAN,
  CASE_APP_GDBUS,
  CASE_SCAN_GDBUS,
  CASE_BLEAK,
  N_CASES
} CaseKind;

static const char *case_names[N_CASES] = {
  "nearby (the app)",
  "nearby scan",
  "app, signals through GDBus",
  "nearby scan, signals through GDBus",
  "peer: python3-bleak BleakScanner",
};

static gboolean
case_is_app (CaseKind kind)
{
  return kind == CASE_APP || kind == CASE_APP_GDBUS;
}

static gboolean
case_is_scan (CaseKind kind)
{
  return kind == CASE_SCAN || kind == CASE_SCAN_GDBUS;
}

typedef struct {
  gboolean ran;
  double   cpu_percent;
  double   wakeups_per_s;   /* < 0: not counted */
  char    *threads;         /* wakeups/s of each thread, by name; NULL: not counted */
  char    *note;
} Figures;

typedef struct {
  const char *nearby_program;
  const char *bleak_script;
  const char *renderer;
  const char *tmp;
  guint       seconds;
  guint       settle_seconds;
  guint       n_beacons;
  guint       rate_hz;
  gboolean    by_thread;
} Settings;

static gboolean
adapter_discovering (BluezMock *mock)
{
  g_autoptr(GVariant) reply = NULL;
  g_autoptr(GVariant) value = NULL;

  reply = bluez_mock_call (mock, "/org/bluez/hci0", "org.freedesktop.DBus.Properties", "Get",
                           g_variant_new ("(ss)", "org.bluez.Adapter1", "Discovering"),
                           "(v)");
  g_variant_get (reply, "(v)", &value);

  return g_variant_get_boolean (value);
}

static void
add_beacons (BluezMock *mock,
             guint      n_beacons)
{
  for (guint i = 0; i < n_beacons; i++)
    {
      g_autofree char *address = g_strdup_printf ("C0:FF:EE:00:01:%02X", i);
      g_autofree char *url = g_strdup_printf ("https://example.com/room/%u", i);
      g_autoptr(GVariant) reply = NULL;

      reply = bluez_mock_call (mock, "/", BLUEZ_MOCK_IFACE, "AddBeacon",
                               g_variant_new ("(ss@a{sv})", "hci0", address,
                                              bench_eddystone_url_properties (url, ROOM_RSSI)),
                               "(o)");
    }
}

static GSubprocess *
spawn_case (const Settings  *settings,
            CaseKind         kind,
            GError         **error)
{
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autofree char *data_home = g_build_filename (settings->tmp, "data", NULL);

  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDIN_PIPE
                                        | G_SUBPROCESS_FLAGS_STDOUT_PIPE
                                        | G_SUBPROCESS_FLAGS_STDERR_MERGE);
  g_subprocess_launcher_setenv (launcher, "XDG_DATA_HOME", data_home, TRUE);
  /* What the tests check for costs CPU the programs would not spend. */
  g_subprocess_launcher_unsetenv (launcher, "MALLOC_CHECK_");
  g_subprocess_launcher_unsetenv (launcher, "G_DEBUG");
  g_subprocess_launcher_unsetenv (launcher, "G_ENABLE_DIAGNOSTIC");
  if (g_strcmp0 (settings->renderer, "default") == 0)
    g_subprocess_launcher_unsetenv (launcher, "GSK_RENDERER");
  else
    g_subprocess_launcher_setenv (launcher, "GSK_RENDERER", settings->renderer, TRUE);

  /* The scanner's fallback without libsystemd, for comparison. */
  if (kind == CASE_APP_GDBUS || kind == CASE_SCAN_GDBUS)
    g_subprocess_launcher_setenv (launcher, "NEARBY_SCANNER_SIGNALS", "gdbus", TRUE);
  else
    g_subprocess_launcher_unsetenv (launcher, "NEARBY_SCANNER_SIGNALS");

  switch (kind)
    {
    case CASE_APP:
    case CASE_APP_GDBUS:
      return g_subprocess_launcher_spawn (launcher, error, settings->nearby_program, NULL);
    case CASE_SCAN:
    case CASE_SCAN_GDBUS:
      return g_subprocess_launcher_spawn (launcher, error, settings->nearby_program, "scan",
                                          NULL);
    case CASE_BLEAK:
      return g_subprocess_launcher_spawn (launcher, error, PYTHON3, settings->bleak_script,
                                          NULL);
    case N_CASES:
    default:
      g_assert_not_reached ();
    }
}

static Figures
run_case (const Settings *settings,
          CaseKind        kind)
{
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GVariant) ticks = NULL;
  BenchChildOutput reading = { g_string_new (NULL), NULL, FALSE, FALSE };
  BluezMock mock = { 0 };
  Figures figures = { 0 };
  gint64 deadline;
  GPid pid;

  bluez_mock_set_up (&mock);
  bluez_mock_start (&mock);
  bluez_mock_add_adapter (&mock, "hci0", TRUE);
  add_beacons (&mock, settings->n_beacons);

  /* What says the program is scanning: the app's first frame, bleak's "ready"; `nearby scan`
   * says nothing until it ends, so the adapter's Discovering is asked. */
  if (case_is_app (kind))
    reading.marker = "First frame painted ";
  else if (kind == CASE_BLEAK)
    reading.marker = "ready";

  process = spawn_case (settings, kind, &error);
  if (process == NULL)
    g_error ("Could not start %s: %s", case_names[kind], error->message);
  pid = (GPid) g_ascii_strtoll (g_subprocess_get_identifier (process), NULL, 10);
  bench_child_output_read (&reading, g_subprocess_get_stdout_pipe (process));

  deadline = g_get_monotonic_time () + START_TIMEOUT_S * G_USEC_PER_SEC;
  while (!reading.ended && g_get_monotonic_time () < deadline)
    {
      if (reading.marker != NULL ? reading.seen : adapter_discovering (&mock))
        break;
      nearby_test_run_for_ms (100);
    }

  if (reading.ended)
    {
      g_subprocess_wait (process, NULL, NULL);
      if (kind == CASE_BLEAK && g_subprocess_get_if_exited (process)
          && g_subprocess_get_exit_status (process) == 77)
        {
          figures.note = g_strdup ("not run: python3-bleak is not installed");
          goto out;
        }
      g_error ("%s ended before it scanned; its output:\n%s", case_names[kind],
               reading.output->str);
    }
  if (g_get_monotonic_time () >= deadline)
    g_error ("%s did not start scanning within %d s; its output:\n%s", case_names[kind],
             START_TIMEOUT_S, reading.output->str);

  /* Long enough for the settling, both measurements and strace's attaching. */
  ticks = bluez_mock_call (&mock, "/", BLUEZ_MOCK_IFACE, "HoldRssi",
                           g_variant_new ("(suun)", "hci0", settings->rate_hz,
                                          (settings->settle_seconds + 2 * settings->seconds + 30)
                                          * 1000,
                                          (gint16) ROOM_RSSI),
                           "(u)");

  nearby_test_run_for_ms (settings->settle_seconds * 1000);
  if (reading.ended)
    g_error ("%s ended; its output:\n%s", case_names[kind], reading.output->str);

  figures.ran = TRUE;
  figures.cpu_percent = bench_process_cpu_percent (pid, settings->seconds);
  figures.wakeups_per_s = bench_process_wakeups_per_s (pid, settings->seconds, settings->tmp);
  if (settings->by_thread)
    figures.threads = bench_process_wakeups_by_thread (pid, settings->seconds, settings->tmp);

  if (kind == CASE_BLEAK)
    {
      /* The script ends once it has seen as many callbacks as it is told were sent: none. */
      g_output_stream_write_all (g_subprocess_get_stdin_pipe (process), "sent 0\n", 7, NULL,
                                 NULL, NULL);
      g_output_stream_close (g_subprocess_get_stdin_pipe (process), NULL, NULL);
    }
  else
    {
      g_subprocess_send_signal (process, SIGTERM);
    }
  g_subprocess_wait (process, NULL, NULL);
  while (!reading.ended)
    g_main_context_iteration (NULL, TRUE);

  /* What shows that the program did hear the room. */
  if (case_is_scan (kind))
    {
      guint urls = 0;

      for (const char *p = reading.output->str; (p = strstr (p, "example.com/room/")) != NULL; p++)
        urls++;
      figures.note = g_strdup_printf ("its table listed %u of the %u beacons", urls,
                                      settings->n_beacons);
    }
  else if (kind == CASE_BLEAK)
    {
      const char *done = strstr (reading.output->str, "done ");
      guint callbacks = 0;

      if (done != NULL)
        sscanf (done, "done %u", &callbacks);
      figures.note = g_strdup_printf ("%u detection callbacks", callbacks);
    }

out:
  g_string_free (reading.output, TRUE);
  bluez_mock_tear_down (&mock);

  return figures;
}

static void
print_ratio (double value,
             double peer)
{
  if (peer > 0)
    g_print (" %8.2f ×", value / peer);
  else
    g_print (" %10s", "-");
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *tmp = NULL;
  g_autofree char *config_home = NULL;
  g_autofree char *bleak_script = NULL;
  Figures figures[N_CASES] = { { 0 } };
  Settings settings = { 0 };
  const Figures *peer = &figures[CASE_BLEAK];
  GTestDBus *bus;

  setlocale (LC_ALL, "");
  g_test_init (&argc, &argv, NULL);

  settings.nearby_program = g_getenv ("NEARBY_BINARY");
  if (settings.nearby_program == NULL)
    g_error ("NEARBY_BINARY is not set (run it with meson test)");
  bleak_script = g_test_build_filename (G_TEST_DIST, "bench", "bench_scan_bleak.py", NULL);
  settings.bleak_script = bleak_script;
  settings.renderer = g_getenv ("BENCH_ROOM_RENDERER");
  if (settings.renderer == NULL || *settings.renderer == '\0')
    settings.renderer = "cairo";
  settings.seconds = bench_env_uint ("BENCH_ROOM_SECONDS", 30);
  settings.settle_seconds = bench_env_uint ("BENCH_ROOM_SETTLE_SECONDS", 5);
  settings.n_beacons = bench_env_uint ("BENCH_ROOM_BEACONS", 50);
  settings.rate_hz = bench_env_uint ("BENCH_ROOM_RATE", 10);
  settings.by_thread = g_getenv ("BENCH_ROOM_THREADS") != NULL;

  tmp = nearby_test_make_temp_dir ("nearby-bench-room");
  settings.tmp = tmp;
  config_home = g_build_filename (tmp, "config", NULL);
  bus = bench_app_environment_up (config_home, "lookup-policy='ask'\n");

  g_print ("bench-room (%s build, GSK_RENDERER=%s, GTK_A11Y=%s): %u beacons at %u Hz "
           "(%u signals/s); CPU over %u s after %u s to settle, then poll/ppoll calls over %u s "
           "(strace -f -c)\n",
           NEARBY_BUILDTYPE, settings.renderer, g_getenv ("GTK_A11Y"), settings.n_beacons,
           settings.rate_hz, settings.n_beacons * settings.rate_hz, settings.seconds,
           settings.settle_seconds, settings.seconds);

  /* bleak first: every ratio needs it. */
  figures[CASE_BLEAK] = run_case (&settings, CASE_BLEAK);
  figures[CASE_SCAN] = run_case (&settings, CASE_SCAN);
  if (g_getenv ("DISPLAY") != NULL)
    figures[CASE_APP] = run_case (&settings, CASE_APP);
  else
    figures[CASE_APP].note = g_strdup ("not run: no X display (run it under xvfb-run)");
  if (g_getenv ("BENCH_ROOM_GDBUS") != NULL)
    {
      figures[CASE_SCAN_GDBUS] = run_case (&settings, CASE_SCAN_GDBUS);
      if (g_getenv ("DISPLAY") != NULL)
        figures[CASE_APP_GDBUS] = run_case (&settings, CASE_APP_GDBUS);
    }

  g_print ("\n  %-34s %10s %10s %11s %10s\n", "", "CPU % core", "vs bleak", "wakeups/s",
           "vs bleak");
  for (guint kind = 0; kind < N_CASES; kind++)
    {
      if (!figures[kind].ran)
        {
          if (figures[kind].note != NULL)
            g_print ("  %-34s %s\n", case_names[kind], figures[kind].note);
          continue;
        }
      g_print ("  %-34s %10.2f", case_names[kind], figures[kind].cpu_percent);
      print_ratio (figures[kind].cpu_percent, peer->ran ? peer->cpu_percent : 0);
      if (figures[kind].wakeups_per_s < 0)
        g_print (" %11s %10s", "-", "-");
      else
        {
          g_print (" %11.1f", figures[kind].wakeups_per_s);
          print_ratio (figures[kind].wakeups_per_s, peer->ran ? peer->wakeups_per_s : 0);
        }
      g_print ("   %s\n", figures[kind].note != NULL ? figures[kind].note : "");
    }

  for (guint kind = 0; kind < N_CASES; kind++)
    if (figures[kind].threads != NULL)
      g_print ("  wakeups/s by thread, %s: %s\n", case_names[kind], figures[kind].threads);

  for (guint kind = 0; kind < N_CASES; kind++)
    {
      g_free (figures[kind].note);
      g_free (figures[kind].threads);
    }

  bench_app_environment_down (bus);
  nearby_test_remove_tree (tmp);

  return 0;
}
