/* bench-idle.c: what the app costs at rest, against a bare window
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 *   xvfb-run -a -s "-screen 0 1280x800x24 -ac" \
 *     meson test -C _build --benchmark bench-idle --verbose
 *
 * Four programs, each left alone under the same X display on a private bus (both session and
 * system bus, with the mock bluetoothd, tests/bluez_nearby.py, on it):
 *
 *   - floor: bench-startup-minimal, an AdwApplication with one AdwApplicationWindow;
 *   - `nearby` scanning with an adapter and no beacons;
 *   - `nearby` with BENCH_IDLE_BEACONS (5) Eddystone-URL beacons whose RSSI bluetoothd signals
 *     BENCH_IDLE_RATE (1) times a second each, within 1 dB of -55 dBm (HoldRssi: they do not
 *     move between distance buckets);
 *   - `nearby --demo`, untouched.
 *
 * Once a program has painted its first frame and settled (BENCH_IDLE_SETTLE_SECONDS, 5), its CPU
 * is read from /proc/PID/stat (utime + stime of every thread) over BENCH_IDLE_SECONDS (30), and
 * then its poll() and ppoll() calls are counted over as long again by `strace -f -c` attached to
 * it (strace slows what it traces, so the CPU is taken before). Each figure is given with its
 * ratio to the floor's, or, when the floor is 0, with what is above it. All of it once per
 * renderer in BENCH_IDLE_RENDERERS ("default cairo": GTK's own choice, as the app gets it, then
 * GSK_RENDERER=cairo).
 *
 * BENCH_IDLE_CASES chooses which of them run (floor, empty, still, demo; e.g. "floor still"):
 * all when unset. BENCH_IDLE_THREADS=1 counts the wakeups once more, thread by thread (strace
 * writing each call), and prints them by thread name.
 *
 * The children run with GTK_A11Y=none unless set (there is no accessibility bus on the private
 * bus), the keyfile settings backend in a temporary folder where the privacy choice is made
 * (look-ups: "ask", so nothing is fetched), and without the tests' MALLOC_CHECK_ and G_DEBUG.
 * Without a display it exits 77 (skipped); without strace the wakeups are not counted.
 */

#include "config.h"

#include <glib/gstdio.h>
#include <locale.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "bench-util.h"
#include "bluez-mock-harness.h"

#define FIRST_FRAME_TIMEOUT_S  60
#define STILL_RSSI             -55

typedef enum {
  CASE_FLOOR,
  CASE_NO_BEACONS,
  CASE_STILL_BEACONS,
  CASE_DEMO,
  N_CASES
} CaseKind;

typedef struct {
  gboolean ran;
  double   cpu_percent;
  double   wakeups_per_s;   /* < 0: not counted */
  char    *threads;         /* wakeups/s of each thread, by name; NULL: not counted */
} Figures;

static const char *case_names[N_CASES] = {
  "floor: bare AdwApplication window",
  "nearby, adapter, no beacons",
  "nearby, still beacons",
  "nearby --demo, untouched",
};

/* The names BENCH_IDLE_CASES takes. */
static const char *case_keys[N_CASES] = { "floor", "empty", "still", "demo" };

static void
start_beacons (BluezMock *mock,
               guint      n_beacons,
               guint      rate_hz,
               guint      duration_ms)
{
  g_autoptr(GVariant) ticks = NULL;

  for (guint i = 0; i < n_beacons; i++)
    {
      g_autofree char *address = g_strdup_printf ("C0:FF:EE:00:00:%02X", i);
      g_autofree char *url = g_strdup_printf ("https://example.com/still/%u", i);
      g_autoptr(GVariant) reply = NULL;

      reply = bluez_mock_call (mock, "/", BLUEZ_MOCK_IFACE, "AddBeacon",
                               g_variant_new ("(ss@a{sv})", "hci0", address,
                                              bench_eddystone_url_properties (url, STILL_RSSI)),
                               "(o)");
    }

  ticks = bluez_mock_call (mock, "/", BLUEZ_MOCK_IFACE, "HoldRssi",
                           g_variant_new ("(suun)", "hci0", rate_hz, duration_ms,
                                          (gint16) STILL_RSSI),
                           "(u)");
}

typedef struct {
  const char *floor_program;
  const char *nearby_program;
  const char *tmp;
  guint       seconds;
  guint       settle_seconds;
  guint       n_beacons;
  guint       rate_hz;
  gboolean    run[N_CASES];
  gboolean    by_thread;
} Settings;

static Figures
run_case (const Settings *settings,
          CaseKind        kind,
          const char     *renderer)
{
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *data_home = g_build_filename (settings->tmp, "data", NULL);
  BenchChildOutput reading = { g_string_new (NULL), "First frame painted ", FALSE, FALSE };
  BluezMock mock = { 0 };
  gboolean timed_out = FALSE;
  guint timeout_id;
  GPid pid;
  Figures figures = { TRUE, 0, 0, NULL };

  bluez_mock_set_up (&mock);
  if (kind != CASE_FLOOR)
    {
      bluez_mock_start (&mock);
      bluez_mock_add_adapter (&mock, "hci0", TRUE);
    }
  if (kind == CASE_STILL_BEACONS)
    start_beacons (&mock, settings->n_beacons, settings->rate_hz,
                   (settings->settle_seconds + 2 * settings->seconds + 30) * 1000);

  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE
                                        | G_SUBPROCESS_FLAGS_STDERR_MERGE);
  g_subprocess_launcher_setenv (launcher, "XDG_DATA_HOME", data_home, TRUE);
  /* What the tests check for costs CPU the app would not spend. */
  g_subprocess_launcher_unsetenv (launcher, "MALLOC_CHECK_");
  g_subprocess_launcher_unsetenv (launcher, "G_DEBUG");
  g_subprocess_launcher_unsetenv (launcher, "G_ENABLE_DIAGNOSTIC");
  if (g_strcmp0 (renderer, "default") == 0)
    g_subprocess_launcher_unsetenv (launcher, "GSK_RENDERER");
  else
    g_subprocess_launcher_setenv (launcher, "GSK_RENDERER", renderer, TRUE);

  if (kind == CASE_FLOOR)
    process = g_subprocess_launcher_spawn (launcher, &error, settings->floor_program, NULL);
  else if (kind == CASE_DEMO)
    process = g_subprocess_launcher_spawn (launcher, &error, settings->nearby_program, "--demo",
                                           NULL);
  else
    process = g_subprocess_launcher_spawn (launcher, &error, settings->nearby_program, NULL);
  if (process == NULL)
    g_error ("Could not start %s: %s", case_names[kind], error->message);
  pid = (GPid) g_ascii_strtoll (g_subprocess_get_identifier (process), NULL, 10);

  bench_child_output_read (&reading, g_subprocess_get_stdout_pipe (process));
  timeout_id = g_timeout_add_seconds (FIRST_FRAME_TIMEOUT_S, nearby_test_set_flag, &timed_out);
  while (!reading.seen && !reading.ended && !timed_out)
    g_main_context_iteration (NULL, TRUE);
  if (!timed_out)
    g_source_remove (timeout_id);
  if (!reading.seen)
    g_error ("%s painted no frame within %d s; its output:\n%s", case_names[kind],
             FIRST_FRAME_TIMEOUT_S, reading.output->str);

  nearby_test_run_for_ms (settings->settle_seconds * 1000);
  if (reading.ended)
    g_error ("%s ended; its output:\n%s", case_names[kind], reading.output->str);

  figures.cpu_percent = bench_process_cpu_percent (pid, settings->seconds);
  figures.wakeups_per_s = bench_process_wakeups_per_s (pid, settings->seconds, settings->tmp);
  if (settings->by_thread)
    figures.threads = bench_process_wakeups_by_thread (pid, settings->seconds, settings->tmp);

  g_subprocess_send_signal (process, SIGTERM);
  g_subprocess_wait (process, NULL, NULL);
  while (!reading.ended)
    g_main_context_iteration (NULL, TRUE);
  g_string_free (reading.output, TRUE);

  bluez_mock_tear_down (&mock);

  return figures;
}

/* With a floor of 0 there is no ratio: what is above it is said instead. */
static void
print_ratio (double value,
             double floor,
             int    digits)
{
  g_autofree char *text = NULL;

  if (floor > 0)
    text = g_strdup_printf ("%.1f ×", value / floor);
  else if (value > 0)
    text = g_strdup_printf ("+%.*f", digits, value);
  else
    text = g_strdup ("= floor");
  g_print (" %*s", 11 + (int) (strlen (text) - g_utf8_strlen (text, -1)), text);
}

static void
run_renderer (const Settings *settings,
              const char     *renderer)
{
  Figures figures[N_CASES] = { { 0 } };
  const Figures *floor = &figures[CASE_FLOOR];

  for (guint kind = 0; kind < N_CASES; kind++)
    if (settings->run[kind])
      figures[kind] = run_case (settings, kind, renderer);

  g_print ("\n  GSK_RENDERER=%s, %u s each\n", renderer, settings->seconds);
  g_print ("  %-34s %10s %11s %11s %11s\n", "", "CPU % core", "vs floor", "wakeups/s",
           "vs floor");
  for (guint kind = 0; kind < N_CASES; kind++)
    {
      if (!figures[kind].ran)
        continue;
      g_print ("  %-34s %10.2f", case_names[kind], figures[kind].cpu_percent);
      if (floor->ran)
        print_ratio (figures[kind].cpu_percent, floor->cpu_percent, 2);
      else
        g_print (" %11s", "-");
      if (figures[kind].wakeups_per_s < 0)
        g_print (" %11s %11s\n", "-", "-");
      else
        {
          g_print (" %11.1f", figures[kind].wakeups_per_s);
          if (floor->ran && floor->wakeups_per_s >= 0)
            print_ratio (figures[kind].wakeups_per_s, floor->wakeups_per_s, 1);
          else
            g_print (" %11s", "-");
          g_print ("\n");
        }
    }

  for (guint kind = 0; kind < N_CASES; kind++)
    {
      if (figures[kind].threads != NULL)
        g_print ("  wakeups/s by thread, %s: %s\n", case_names[kind], figures[kind].threads);
      g_free (figures[kind].threads);
    }
}

/* BENCH_IDLE_CASES: the names of case_keys, separated by spaces or commas; unset: all. */
static void
choose_cases (Settings *settings)
{
  const char *setting = g_getenv ("BENCH_IDLE_CASES");
  g_auto(GStrv) names = NULL;

  for (guint kind = 0; kind < N_CASES; kind++)
    settings->run[kind] = setting == NULL;
  if (setting == NULL)
    return;

  names = g_strsplit_set (setting, " ,", 0);
  for (guint i = 0; names[i] != NULL; i++)
    {
      gboolean known = FALSE;

      if (*names[i] == '\0')
        continue;
      for (guint kind = 0; kind < N_CASES; kind++)
        if (g_str_equal (names[i], case_keys[kind]))
          known = settings->run[kind] = TRUE;
      if (!known)
        g_error ("BENCH_IDLE_CASES: no case '%s' (floor, empty, still, demo)", names[i]);
    }
}

int
main (int   argc,
      char *argv[])
{
  const char *renderers_setting = g_getenv ("BENCH_IDLE_RENDERERS");
  g_auto(GStrv) renderers = NULL;
  g_autofree char *tmp = NULL;
  g_autofree char *config_home = NULL;
  Settings settings = { 0 };
  GTestDBus *bus;

  setlocale (LC_ALL, "");
  g_test_init (&argc, &argv, NULL);

  if (g_getenv ("DISPLAY") == NULL)
    {
      g_print ("bench-idle needs an X display (run it under xvfb-run): skipped\n");
      return 77;
    }

  settings.floor_program = BENCH_STARTUP_MINIMAL;
  settings.nearby_program = g_getenv ("NEARBY_BINARY");
  if (settings.nearby_program == NULL)
    g_error ("NEARBY_BINARY is not set (run it with meson test)");
  settings.seconds = bench_env_uint ("BENCH_IDLE_SECONDS", 30);
  settings.settle_seconds = bench_env_uint ("BENCH_IDLE_SETTLE_SECONDS", 5);
  settings.n_beacons = bench_env_uint ("BENCH_IDLE_BEACONS", 5);
  settings.rate_hz = bench_env_uint ("BENCH_IDLE_RATE", 1);
  settings.by_thread = g_getenv ("BENCH_IDLE_THREADS") != NULL;
  choose_cases (&settings);
  renderers = g_strsplit_set (renderers_setting != NULL ? renderers_setting : "default cairo",
                              " ,", 0);

  tmp = nearby_test_make_temp_dir ("nearby-bench-idle");
  settings.tmp = tmp;
  config_home = g_build_filename (tmp, "config", NULL);
  /* Look-ups wait to be asked: nothing is fetched. */
  bus = bench_app_environment_up (config_home, "lookup-policy='ask'\n");

  g_print ("bench-idle (%s build, GTK_A11Y=%s): CPU over %u s after %u s to settle, then "
           "poll/ppoll calls over %u s (strace -f -c); %u still beacons at %u Hz\n",
           NEARBY_BUILDTYPE, g_getenv ("GTK_A11Y"), settings.seconds, settings.settle_seconds,
           settings.seconds, settings.n_beacons, settings.rate_hz);

  for (guint i = 0; renderers[i] != NULL; i++)
    if (*renderers[i] != '\0')
      run_renderer (&settings, renderers[i]);

  bench_app_environment_down (bus);
  nearby_test_remove_tree (tmp);

  return 0;
}
