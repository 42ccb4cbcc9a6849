/* bench-startup.c: from process spawn to the first frame of the main window
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 *   xvfb-run -a -s "-screen 0 1280x800x24 -ac" \
 *     meson test -C _build --benchmark bench-startup --verbose
 *
 * Three programs, spawned in turn, round after round (one warm-up round first, not counted):
 *
 *   - baseline: bench-startup-minimal, an AdwApplication with one AdwApplicationWindow;
 *   - `nearby` with no history yet;
 *   - `nearby` with a history of 5 000 visits (1 000 sites, 5 visits each, over 90 days).
 *
 * Each logs "First frame painted ... (monotonic time T us)" on its window's first "after-paint"
 * (G_MESSAGES_DEBUG; GLib writes it to stdout); the time is T minus the monotonic time just before the spawn. They run on
 * a private session bus that is also their system bus (no bluetoothd: Nearby shows its
 * "Bluetooth is not running" page), with the keyfile settings backend in a temporary directory
 * where the privacy choice is made, GSK_RENDERER=cairo and GTK_A11Y=none unless set. Beside the
 * wall time, the CPU its main thread used (utime + stime, /proc/PID/task/PID/stat) up to the
 * moment the first frame is read: a change shows there when the machine's load hides it in the
 * wall time.
 *
 * BENCH_STARTUP_RUNS (20) and BENCH_STARTUP_VISITS (5000) change the load. BENCH_STARTUP_BEFORE,
 * the path of another build's `nearby`, adds it with the 5 000 visits to the same rounds: a change
 * is told from the shared machine's drift only side by side. Without a display it exits 77
 * (skipped).
 */

#include "config.h"

#include <glib/gstdio.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "bench-churn-source.h"
#include "bench-util.h"
#include "nearby-history.h"

#define FIRST_FRAME_TIMEOUT_S  60
#define N_SITES_DIVISOR        5

typedef struct {
  const char  *name;
  const char  *program;
  const char  *data_home;
  GArray      *spawn_to_frame_ms;
  GArray      *self_reported_ms;
  GArray      *main_thread_cpu_ms;
} Candidate;

typedef struct {
  GString  *output;
  gboolean  done;
  gint64    frame_monotonic_us;
  double    self_reported_ms;
} Reading;

/* @n_visits visits to n_visits / 5 sites, spread over the last 90 days. */
static void
prepare_history (const char *data_home,
                 guint       n_visits)
{
  g_autofree char *dir = g_build_filename (data_home, USER_DATA_DIR_NAME, NULL);
  g_autofree char *path = g_build_filename (dir, "history.db", NULL);
  g_autoptr(NearbyHistory) history = NULL;
  guint n_sites = MAX (1, n_visits / N_SITES_DIVISOR);
  gint64 now = g_get_real_time ();
  guint count = 0;
  BenchCalls calls = { 0 };

  g_mkdir_with_parents (dir, 0700);
  history = nearby_history_new (path);
  calls.pending++;
  nearby_history_open_async (history, NULL, bench_calls_done, &calls);
  bench_calls_wait (&calls);

  for (guint i = 0; i < n_visits; i++)
    {
      g_autofree char *url = g_strdup_printf ("https://site%u.example/page/%u", i % n_sites,
                                              i % n_sites);
      gint64 when = now - (gint64) (i * (90.0 * G_TIME_SPAN_DAY / n_visits));

      calls.pending++;
      nearby_history_record_visit_async (history, url, when, NULL, bench_calls_done, &calls);
    }
  bench_calls_wait (&calls);

  if (!nearby_history_get_visit_stats (history, "https://site0.example/page/0", &count, NULL)
      || count != n_visits / n_sites)
    g_error ("The prepared history has %u visits of its first site, not %u", count,
             n_visits / n_sites);
}

static void
on_line (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  Reading *reading = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *line = g_data_input_stream_read_line_finish (G_DATA_INPUT_STREAM (object),
                                                                result, NULL, &error);
  const char *painted, *monotonic;

  if (line == NULL)
    {
      reading->done = TRUE;
      return;
    }

  g_string_append_printf (reading->output, "%s\n", line);
  painted = strstr (line, "First frame painted ");
  monotonic = strstr (line, "monotonic time ");
  if (painted != NULL && monotonic != NULL)
    {
      reading->self_reported_ms = g_ascii_strtod (painted + strlen ("First frame painted "), NULL);
      reading->frame_monotonic_us = g_ascii_strtoll (monotonic + strlen ("monotonic time "),
                                                     NULL, 10);
      reading->done = TRUE;
      return;
    }

  g_data_input_stream_read_line_async (G_DATA_INPUT_STREAM (object), G_PRIORITY_DEFAULT, NULL,
                                       on_line, reading);
}

/* CPU time (user and system) of @pid's main thread so far, from /proc/PID/task/PID/stat, in
 * milliseconds (to the kernel's clock tick, 10 ms here); -1 if it cannot be read. Beside the wall
 * time, it tells what a program did from what the shared machine let it do. */
static double
main_thread_cpu_ms (const char *pid)
{
  g_autofree char *path = g_strdup_printf ("/proc/%s/task/%s/stat", pid, pid);
  g_autofree char *contents = NULL;
  g_auto(GStrv) fields = NULL;
  const char *after_name;

  if (!g_file_get_contents (path, &contents, NULL, NULL))
    return -1;
  /* The name, in parentheses, may hold spaces: fields are counted after its end. */
  after_name = strrchr (contents, ')');
  if (after_name == NULL)
    return -1;
  fields = g_strsplit (after_name + 2, " ", -1);
  /* Fields 14 and 15 of proc(5), utime and stime; the first after the name is field 3. */
  if (g_strv_length (fields) < 13)
    return -1;

  return (g_ascii_strtod (fields[11], NULL) + g_ascii_strtod (fields[12], NULL))
         * 1000.0 / sysconf (_SC_CLK_TCK);
}

static void
run_once (Candidate *candidate,
          gboolean   record)
{
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GDataInputStream) lines = NULL;
  g_autoptr(GError) error = NULL;
  Reading reading = { g_string_new (NULL), FALSE, 0, -1 };
  gboolean timed_out = FALSE;
  guint timeout_id;
  gint64 spawned_us;
  double ms;
  double cpu_ms = -1;

  /* GLib writes debug messages to stdout, warnings to stderr: read both. */
  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE
                                        | G_SUBPROCESS_FLAGS_STDERR_MERGE);
  g_subprocess_launcher_setenv (launcher, "XDG_DATA_HOME", candidate->data_home, TRUE);

  spawned_us = g_get_monotonic_time ();
  process = g_subprocess_launcher_spawn (launcher, &error, candidate->program, NULL);
  if (process == NULL)
    g_error ("Could not start %s: %s", candidate->program, error->message);

  lines = g_data_input_stream_new (g_subprocess_get_stdout_pipe (process));
  g_data_input_stream_read_line_async (lines, G_PRIORITY_DEFAULT, NULL, on_line, &reading);
  timeout_id = g_timeout_add_seconds (FIRST_FRAME_TIMEOUT_S, nearby_test_set_flag, &timed_out);
  while (!reading.done && !timed_out)
    g_main_context_iteration (NULL, TRUE);
  if (!timed_out)
    g_source_remove (timeout_id);
  /* Read as soon as the first frame is told, while the program still runs. */
  if (reading.frame_monotonic_us != 0)
    cpu_ms = main_thread_cpu_ms (g_subprocess_get_identifier (process));

  g_subprocess_send_signal (process, SIGTERM);
  g_subprocess_wait (process, NULL, NULL);

  if (reading.frame_monotonic_us == 0)
    g_error ("%s painted no frame within %d s; its output:\n%s", candidate->name,
             FIRST_FRAME_TIMEOUT_S, reading.output->str);
  g_string_free (reading.output, TRUE);

  if (!record)
    return;

  ms = (reading.frame_monotonic_us - spawned_us) / 1000.0;
  g_array_append_val (candidate->spawn_to_frame_ms, ms);
  g_array_append_val (candidate->self_reported_ms, reading.self_reported_ms);
  if (cpu_ms >= 0)
    g_array_append_val (candidate->main_thread_cpu_ms, cpu_ms);
}

static double
mean (GArray *values)
{
  double sum = 0;

  for (guint i = 0; i < values->len; i++)
    sum += g_array_index (values, double, i);

  return values->len > 0 ? sum / values->len : 0;
}

int
main (int   argc,
      char *argv[])
{
  guint n_runs = bench_env_uint ("BENCH_STARTUP_RUNS", 20);
  guint n_visits = bench_env_uint ("BENCH_STARTUP_VISITS", 5000);
  const char *nearby = g_getenv ("NEARBY_BINARY");
  const char *before = g_getenv ("BENCH_STARTUP_BEFORE");
  g_autofree char *tmp = NULL;
  g_autofree char *config_home = NULL;
  g_autofree char *empty_home = NULL;
  g_autofree char *full_home = NULL;
  g_autofree char *full_name = NULL;
  g_autofree char *before_name = NULL;
  Candidate candidates[4];
  guint n_candidates = 3;
  GTestDBus *bus;

  if (g_getenv ("DISPLAY") == NULL)
    {
      g_print ("bench-startup needs an X display (run it under xvfb-run): skipped\n");
      return 77;
    }
  if (nearby == NULL)
    g_error ("NEARBY_BINARY is not set (run it with meson test)");

  tmp = nearby_test_make_temp_dir ("nearby-bench-startup");
  config_home = g_build_filename (tmp, "config", NULL);
  empty_home = g_build_filename (tmp, "empty", NULL);
  full_home = g_build_filename (tmp, "full", NULL);
  g_mkdir_with_parents (empty_home, 0700);
  bus = bench_app_environment_up (config_home, NULL);
  g_setenv ("GSK_RENDERER", "cairo", FALSE);

  /* After the environment is set: it starts the history's worker thread. */
  prepare_history (full_home, n_visits);

  full_name = g_strdup_printf ("nearby, %u visits", n_visits);
  candidates[0] = (Candidate) { "baseline: minimal AdwApplication", BENCH_STARTUP_MINIMAL,
                                empty_home };
  candidates[1] = (Candidate) { "nearby, no history", nearby, empty_home };
  candidates[2] = (Candidate) { full_name, nearby, full_home };
  if (before != NULL && *before != '\0')
    {
      before_name = g_strdup_printf ("before, %u visits", n_visits);
      candidates[n_candidates++] = (Candidate) { before_name, before, full_home };
    }
  for (guint i = 0; i < n_candidates; i++)
    {
      candidates[i].spawn_to_frame_ms = g_array_new (FALSE, FALSE, sizeof (double));
      candidates[i].self_reported_ms = g_array_new (FALSE, FALSE, sizeof (double));
      candidates[i].main_thread_cpu_ms = g_array_new (FALSE, FALSE, sizeof (double));
    }

  g_print ("bench-startup (%s build, GSK_RENDERER=%s, GTK_A11Y=%s): %u runs each, interleaved, "
           "after one warm-up run\n", NEARBY_BUILDTYPE, g_getenv ("GSK_RENDERER"),
           g_getenv ("GTK_A11Y"), n_runs);

  for (guint round = 0; round <= n_runs; round++)
    for (guint i = 0; i < n_candidates; i++)
      run_once (&candidates[i], round > 0);

  /* Sorted before the fastest and slowest are read from either end: not left to
   * bench_percentile(), whose sorting is a side effect an argument list evaluates in no set
   * order. */
  for (guint i = 0; i < n_candidates; i++)
    {
      g_array_sort (candidates[i].spawn_to_frame_ms, bench_compare_doubles);
      g_array_sort (candidates[i].main_thread_cpu_ms, bench_compare_doubles);
    }

  g_print ("  %-34s %9s %9s %9s %9s %14s %13s %13s\n", "spawn to first frame", "p50 ms", "min ms",
           "p90 ms", "max ms", "self p50 ms", "main CPU p50", "main CPU mean");
  for (guint i = 0; i < n_candidates; i++)
    {
      Candidate *candidate = &candidates[i];
      GArray *values = candidate->spawn_to_frame_ms;

      g_print ("  %-34s %9.1f %9.1f %9.1f %9.1f %14.0f %13.0f %13.1f\n", candidate->name,
               bench_percentile (values, 50), g_array_index (values, double, 0),
               bench_percentile (values, 90), g_array_index (values, double, values->len - 1),
               bench_percentile (candidate->self_reported_ms, 50),
               bench_percentile (candidate->main_thread_cpu_ms, 50),
               mean (candidate->main_thread_cpu_ms));
    }
  g_print ("  fastest runs: nearby, no history = %.2f x baseline; %s = %.2f x baseline\n",
           g_array_index (candidates[1].spawn_to_frame_ms, double, 0)
           / g_array_index (candidates[0].spawn_to_frame_ms, double, 0),
           full_name,
           g_array_index (candidates[2].spawn_to_frame_ms, double, 0)
           / g_array_index (candidates[0].spawn_to_frame_ms, double, 0));
  g_print ("  p50: nearby, no history = %.2f x baseline; %s = %.2f x baseline (%.2f x no history)\n",
           bench_percentile (candidates[1].spawn_to_frame_ms, 50)
           / bench_percentile (candidates[0].spawn_to_frame_ms, 50),
           full_name,
           bench_percentile (candidates[2].spawn_to_frame_ms, 50)
           / bench_percentile (candidates[0].spawn_to_frame_ms, 50),
           bench_percentile (candidates[2].spawn_to_frame_ms, 50)
           / bench_percentile (candidates[1].spawn_to_frame_ms, 50));
  if (n_candidates > 3)
    g_print ("  p50: %s = %.2f x baseline; %s = %.2f x before\n", before_name,
             bench_percentile (candidates[3].spawn_to_frame_ms, 50)
             / bench_percentile (candidates[0].spawn_to_frame_ms, 50),
             full_name,
             bench_percentile (candidates[2].spawn_to_frame_ms, 50)
             / bench_percentile (candidates[3].spawn_to_frame_ms, 50));
  /* The main thread's CPU to its first frame: what the program did, whatever the machine's
   * load made of the wall time. A mean, as the clock tick (10 ms) makes a median coarse. */
  g_print ("  main-thread CPU (mean): nearby, no history = %.2f x baseline; %s = %.2f x baseline",
           mean (candidates[1].main_thread_cpu_ms) / mean (candidates[0].main_thread_cpu_ms),
           full_name,
           mean (candidates[2].main_thread_cpu_ms) / mean (candidates[0].main_thread_cpu_ms));
  if (n_candidates > 3)
    g_print ("; %s = %.2f x baseline; %s = %.2f x before",
             before_name,
             mean (candidates[3].main_thread_cpu_ms) / mean (candidates[0].main_thread_cpu_ms),
             full_name,
             mean (candidates[2].main_thread_cpu_ms) / mean (candidates[3].main_thread_cpu_ms));
  g_print ("\n");

  /* The children are gone; nothing else holds the bus. */
  bench_app_environment_down (bus);

  for (guint i = 0; i < n_candidates; i++)
    {
      g_array_unref (candidates[i].spawn_to_frame_ms);
      g_array_unref (candidates[i].self_reported_ms);
      g_array_unref (candidates[i].main_thread_cpu_ms);
    }

  nearby_test_remove_tree (tmp);

  return 0;
}
