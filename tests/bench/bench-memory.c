/* bench-memory.c: the app's resident memory at rest and per live object, against a bare window
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 *   xvfb-run -a -s "-screen 0 1280x800x24 -ac" \
 *     meson test -C _build --benchmark bench-memory --verbose
 *
 * Each program runs alone under the same X display on a private bus (session and system bus,
 * with the mock bluetoothd, tests/bluez_nearby.py, on it), a fresh process per case:
 *
 *   - floor: bench-startup-minimal, an AdwApplication with one AdwApplicationWindow;
 *   - `nearby` scanning with an adapter and 0, then each count in BENCH_MEMORY_OBJECTS
 *     ("500 2000") of Eddystone-URL beacons, each advertising its own page on a server of this
 *     process (bench-server.c, one per 1 000 beacons: a title, a description and a 32x32 PNG
 *     icon), looked up as after the first-run choice in developer mode, which lets the app fetch
 *     http pages from this computer.
 *
 * Once the program has painted its first frame, the beacons are added and the benchmark waits
 * until the server has answered every page and icon request (or BENCH_MEMORY_LOOKUP_SECONDS,
 * 300, have passed). Every beacon is then signalled once more, so that none is near its expiry,
 * and after BENCH_MEMORY_SETTLE_SECONDS (5) VmRSS is read from /proc/PID/status. Bytes per live
 * object are (RSS with N objects - RSS with 0) / N, and (RSS with N - the same process's RSS
 * BENCH_MEMORY_SETTLE_SECONDS after its first frame, before any beacon) / N. The children run
 * with GTK_A11Y=none unless set and without the tests' MALLOC_CHECK_ and G_DEBUG, as
 * bench-idle's, and with GSK_RENDERER=BENCH_MEMORY_RENDERER (cairo; "default" for GTK's own
 * choice, which on Mesa's software rasterizer adds about 80 MiB of its own to the floor and the
 * app alike). Without a display it exits 77 (skipped).
 *
 * BENCH_MEMORY_PREFIX runs the app (not the floor) under a profiler that starts it as its child:
 *
 *   BENCH_MEMORY_PREFIX="heaptrack -o /tmp/memory" BENCH_MEMORY_OBJECTS=2000 ...
 *
 * (the RSS is then the app's with the profiler's preload in it).
 */

#include "config.h"

#include <locale.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "bench-server.h"
#include "bench-util.h"
#include "bluez-mock-harness.h"

#define FIRST_FRAME_TIMEOUT_S  60
#define BEACON_RSSI            -55
/* An Eddystone-URL frame holds 17 bytes of URL after its scheme: http://[::1]:PORT/p/ leaves 3
 * digits, so each server serves 1 000 beacons' pages and there are as many servers as needed. */
#define PAGES_PER_SERVER       1000
#define MAX_SERVERS            8

typedef struct {
  const char  *floor_program;
  const char  *nearby_program;
  const char  *tmp;
  const char  *renderer;
  GStrv        prefix;
  BenchServer *servers[MAX_SERVERS];
  guint        lookup_seconds;
  guint        settle_seconds;
} Settings;

typedef struct {
  guint64 rss_bytes;
  guint64 rest_rss_bytes; /* the same process before any beacon */
  guint   answered;     /* page and icon requests the server answered */
} Figures;

static guint64
process_rss_bytes (GPid pid)
{
  g_autofree char *path = g_strdup_printf ("/proc/%d/status", (int) pid);
  g_autofree char *contents = NULL;
  const char *line;

  if (!g_file_get_contents (path, &contents, NULL, NULL))
    g_error ("Could not read %s", path);
  line = strstr (contents, "\nVmRSS:");
  if (line == NULL)
    g_error ("No VmRSS in %s", path);
  return g_ascii_strtoull (line + strlen ("\nVmRSS:"), NULL, 10) * 1024;
}

/* Under BENCH_MEMORY_PREFIX (a profiler that starts the app as a child, as heaptrack does), the
 * app is the first descendant of @pid named as the program; without one it is @pid. */
static GPid
find_program_pid (GPid        pid,
                  const char *program)
{
  g_autofree char *name = g_path_get_basename (program);
  g_autoptr(GArray) queue = g_array_new (FALSE, FALSE, sizeof (GPid));

  g_array_append_val (queue, pid);
  for (guint i = 0; i < queue->len && i < 64; i++)
    {
      GPid candidate = g_array_index (queue, GPid, i);
      g_autofree char *comm_path = g_strdup_printf ("/proc/%d/comm", (int) candidate);
      g_autofree char *children_path = g_strdup_printf ("/proc/%d/task/%d/children",
                                                        (int) candidate, (int) candidate);
      g_autofree char *comm = NULL;
      g_autofree char *children = NULL;
      g_auto(GStrv) child_pids = NULL;

      if (g_file_get_contents (comm_path, &comm, NULL, NULL)
          && strncmp (g_strstrip (comm), name, 15) == 0)
        return candidate;
      if (!g_file_get_contents (children_path, &children, NULL, NULL))
        continue;
      child_pids = g_strsplit (g_strstrip (children), " ", 0);
      for (guint k = 0; child_pids[k] != NULL; k++)
        if (*child_pids[k] != '\0')
          {
            GPid child = (GPid) g_ascii_strtoll (child_pids[k], NULL, 10);

            g_array_append_val (queue, child);
          }
    }
  g_error ("Found no process %s under the prefix", name);
}

static void
add_beacons (BluezMock    *mock,
             BenchServer **servers,
             guint         n_beacons)
{
  for (guint i = 0; i < n_beacons; i++)
    {
      g_autofree char *address = g_strdup_printf ("C0:FF:EE:%02X:%02X:%02X", (i >> 16) & 255,
                                                  (i >> 8) & 255, i & 255);
      BenchServer *server = servers[i / PAGES_PER_SERVER];
      g_autofree char *url = g_strdup_printf ("http://[::1]:%u/p/%u",
                                              bench_server_get_port (server),
                                              i % PAGES_PER_SERVER);
      g_autoptr(GVariant) reply = NULL;

      reply = bluez_mock_call (mock, "/", BLUEZ_MOCK_IFACE, "AddBeacon",
                               g_variant_new ("(ss@a{sv})", "hci0", address,
                                              bench_eddystone_url_properties (url, BEACON_RSSI)),
                               "(o)");
    }
}

/* Until the server has answered a page and an icon for each beacon, or the time is up. */
static guint
wait_for_lookups (BenchServer **servers,
                  guint         n_beacons,
                  guint         seconds)
{
  gint64 end = g_get_monotonic_time () + (gint64) seconds * G_USEC_PER_SEC;
  guint answered = 0;

  while (answered < 2 * n_beacons && g_get_monotonic_time () < end)
    {
      nearby_test_run_for_ms (500);
      for (guint i = 0; i < MAX_SERVERS && servers[i] != NULL; i++)
        {
          guint requests, max_in_progress;

          bench_server_take_counts (servers[i], &requests, &max_in_progress);
          answered += requests;
        }
    }
  return answered;
}

static Figures
run_case (const Settings *settings,
          gboolean        is_floor,
          guint           n_beacons)
{
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *data_home = g_strdup_printf ("%s/data-%s-%u", settings->tmp,
                                                is_floor ? "floor" : "app", n_beacons);
  g_autofree char *cache_home = g_strdup_printf ("%s/cache-%s-%u", settings->tmp,
                                                 is_floor ? "floor" : "app", n_beacons);
  BenchChildOutput reading = { g_string_new (NULL), "First frame painted ", FALSE, FALSE };
  BluezMock mock = { 0 };
  gboolean timed_out = FALSE;
  guint timeout_id, requests, max_in_progress;
  Figures figures = { 0 };
  GPid pid;

  bluez_mock_set_up (&mock);
  if (!is_floor)
    {
      bluez_mock_start (&mock);
      bluez_mock_add_adapter (&mock, "hci0", TRUE);
    }

  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE
                                        | G_SUBPROCESS_FLAGS_STDERR_MERGE);
  /* Each run starts with an empty history and page cache. */
  g_subprocess_launcher_setenv (launcher, "XDG_DATA_HOME", data_home, TRUE);
  g_subprocess_launcher_setenv (launcher, "XDG_CACHE_HOME", cache_home, TRUE);
  /* What the tests check for costs memory the app would not use. */
  g_subprocess_launcher_unsetenv (launcher, "MALLOC_CHECK_");
  g_subprocess_launcher_unsetenv (launcher, "MALLOC_PERTURB_");
  g_subprocess_launcher_unsetenv (launcher, "G_DEBUG");
  g_subprocess_launcher_unsetenv (launcher, "G_ENABLE_DIAGNOSTIC");
  if (g_strcmp0 (settings->renderer, "default") == 0)
    g_subprocess_launcher_unsetenv (launcher, "GSK_RENDERER");
  else
    g_subprocess_launcher_setenv (launcher, "GSK_RENDERER", settings->renderer, TRUE);

  {
    g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
    g_auto(GStrv) argv = NULL;

    if (!is_floor && settings->prefix != NULL)
      g_strv_builder_addv (builder, (const char **) settings->prefix);
    g_strv_builder_add (builder, is_floor ? settings->floor_program : settings->nearby_program);
    argv = g_strv_builder_end (builder);
    process = g_subprocess_launcher_spawnv (launcher, (const char * const *) argv, &error);
  }
  if (process == NULL)
    g_error ("Could not start the program: %s", error->message);
  pid = (GPid) g_ascii_strtoll (g_subprocess_get_identifier (process), NULL, 10);

  bench_child_output_read (&reading, g_subprocess_get_stdout_pipe (process));
  timeout_id = g_timeout_add_seconds (FIRST_FRAME_TIMEOUT_S, nearby_test_set_flag, &timed_out);
  while (!reading.seen && !reading.ended && !timed_out)
    g_main_context_iteration (NULL, TRUE);
  if (!timed_out)
    g_source_remove (timeout_id);
  if (!reading.seen)
    g_error ("The program painted no frame within %d s; its output:\n%s", FIRST_FRAME_TIMEOUT_S,
             reading.output->str);

  for (guint i = 0; i < MAX_SERVERS && settings->servers[i] != NULL; i++)
    bench_server_take_counts (settings->servers[i], &requests, &max_in_progress);
  if (n_beacons > 0)
    {
      g_autoptr(GVariant) ticks = NULL;

      /* The same process at rest first: another process's rest differs by a few MiB (what the
       * display's GL probe and the allocator's arenas take varies), which is a kB per object
       * at 2 000. */
      nearby_test_run_for_ms (settings->settle_seconds * 1000);
      figures.rest_rss_bytes = process_rss_bytes (find_program_pid (pid, settings->nearby_program));
      add_beacons (&mock, (BenchServer **) settings->servers, n_beacons);
      figures.answered = wait_for_lookups ((BenchServer **) settings->servers, n_beacons,
                                           settings->lookup_seconds);
      /* One advert more from each, so that none expires before the reading. */
      ticks = bluez_mock_call (&mock, "/", BLUEZ_MOCK_IFACE, "HoldRssi",
                               g_variant_new ("(suun)", "hci0", 1, 1000, (gint16) BEACON_RSSI),
                               "(u)");
    }

  nearby_test_run_for_ms (settings->settle_seconds * 1000);
  if (reading.ended)
    g_error ("The program ended; its output:\n%s", reading.output->str);
  pid = find_program_pid (pid, is_floor ? settings->floor_program : settings->nearby_program);
  figures.rss_bytes = process_rss_bytes (pid);

  kill (pid, SIGTERM);
  g_subprocess_wait (process, NULL, NULL);
  while (!reading.ended)
    g_main_context_iteration (NULL, TRUE);
  g_string_free (reading.output, TRUE);

  bluez_mock_tear_down (&mock);

  return figures;
}

int
main (int   argc,
      char *argv[])
{
  const char *counts_setting = g_getenv ("BENCH_MEMORY_OBJECTS");
  g_auto(GStrv) counts = NULL;
  g_autofree char *tmp = NULL;
  g_autofree char *config_home = NULL;
  Settings settings = { 0 };
  Figures floor, none;
  GTestDBus *bus;

  setlocale (LC_ALL, "");
  g_test_init (&argc, &argv, NULL);

  if (g_getenv ("DISPLAY") == NULL)
    {
      g_print ("bench-memory needs an X display (run it under xvfb-run): skipped\n");
      return 77;
    }

  settings.floor_program = BENCH_STARTUP_MINIMAL;
  settings.nearby_program = g_getenv ("NEARBY_BINARY");
  if (settings.nearby_program == NULL)
    g_error ("NEARBY_BINARY is not set (run it with meson test)");
  settings.renderer = g_getenv ("BENCH_MEMORY_RENDERER");
  if (settings.renderer == NULL || *settings.renderer == '\0')
    settings.renderer = "cairo";
  if (g_getenv ("BENCH_MEMORY_PREFIX") != NULL && *g_getenv ("BENCH_MEMORY_PREFIX") != '\0')
    settings.prefix = g_strsplit (g_getenv ("BENCH_MEMORY_PREFIX"), " ", 0);
  settings.lookup_seconds = bench_env_uint ("BENCH_MEMORY_LOOKUP_SECONDS", 300);
  settings.settle_seconds = bench_env_uint ("BENCH_MEMORY_SETTLE_SECONDS", 5);
  counts = g_strsplit_set (counts_setting != NULL ? counts_setting : "500 2000", " ,", 0);

  tmp = nearby_test_make_temp_dir ("nearby-bench-memory");
  settings.tmp = tmp;
  config_home = g_build_filename (tmp, "config", NULL);
  /* Developer mode lets the app look up http pages on this computer without asking. */
  bus = bench_app_environment_up (config_home,
                                  "lookup-policy='automatic'\ndeveloper-mode=true\n");

  g_print ("bench-memory (%s build, GTK_A11Y=%s, GSK_RENDERER=%s): VmRSS %u s after the last "
           "look-up\n", NEARBY_BUILDTYPE, g_getenv ("GTK_A11Y"), settings.renderer,
           settings.settle_seconds);

  floor = run_case (&settings, TRUE, 0);
  none = run_case (&settings, FALSE, 0);
  g_print ("  %-38s %9.1f MiB\n", "floor: bare AdwApplication window",
           floor.rss_bytes / 1048576.0);
  g_print ("  %-38s %9.1f MiB  %.2f × floor\n", "nearby, adapter, 0 objects",
           none.rss_bytes / 1048576.0, (double) none.rss_bytes / floor.rss_bytes);

  for (guint i = 0; counts[i] != NULL; i++)
    {
      guint n = (guint) g_ascii_strtoull (counts[i], NULL, 10);
      g_autofree char *label = NULL;
      Figures figures;

      if (n == 0)
        continue;
      if (n > MAX_SERVERS * PAGES_PER_SERVER)
        g_error ("At most %u objects", MAX_SERVERS * PAGES_PER_SERVER);
      for (guint k = 0; k * PAGES_PER_SERVER < n; k++)
        if (settings.servers[k] == NULL)
          settings.servers[k] = bench_server_start (0, 1);
      figures = run_case (&settings, FALSE, n);
      label = g_strdup_printf ("nearby, %u live objects", n);
      g_print ("  %-38s %9.1f MiB  %.2f × floor, %.1f kB per object above 0 objects, "
               "%.1f kB above its own rest (%.1f MiB) (%u of %u pages and icons served)\n",
               label, figures.rss_bytes / 1048576.0, (double) figures.rss_bytes / floor.rss_bytes,
               ((double) figures.rss_bytes - (double) none.rss_bytes) / n / 1000.0,
               ((double) figures.rss_bytes - (double) figures.rest_rss_bytes) / n / 1000.0,
               figures.rest_rss_bytes / 1048576.0, figures.answered, 2 * n);
    }

  for (guint k = 0; k < MAX_SERVERS && settings.servers[k] != NULL; k++)
    bench_server_stop (settings.servers[k], &(double) { 0 });
  bench_app_environment_down (bus);
  nearby_test_remove_tree (tmp);
  g_strfreev (settings.prefix);

  return 0;
}
