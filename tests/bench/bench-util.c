/* bench-util.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gstdio.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench-util.h"

guint
bench_env_uint (const char *name,
                guint       fallback)
{
  const char *value = g_getenv (name);

  return value != NULL && atoi (value) > 0 ? (guint) atoi (value) : fallback;
}

double
bench_env_double (const char *name,
                  double      fallback)
{
  const char *value = g_getenv (name);

  return value != NULL && *value != '\0' ? g_ascii_strtod (value, NULL) : fallback;
}

void
bench_calls_done (GObject      *object,
                  GAsyncResult *result,
                  gpointer      data)
{
  BenchCalls *calls = data;
  g_autoptr(GError) error = NULL;

  /* The history's calls that the benchmarks wait for (open, record a visit, store, clear)
   * answer with nothing but success or an error: their tasks carry no result to free. */
  g_task_propagate_pointer (G_TASK (result), &error);
  if (error != NULL)
    g_error ("A call the benchmark waited for failed: %s", error->message);
  calls->pending--;
}

void
bench_calls_wait (BenchCalls *calls)
{
  while (calls->pending > 0)
    g_main_context_iteration (NULL, TRUE);
}

GTestDBus *
bench_app_environment_up (const char *config_home,
                          const char *extra_settings)
{
  g_autofree char *dir = g_build_filename (config_home, "glib-2.0", "settings", NULL);
  g_autofree char *path = g_build_filename (dir, "keyfile", NULL);
  /* The keyfile backend names a schema's group by its path without the slashes around. */
  g_autofree char *group = g_strdelimit (g_strdup (APP_ID), ".", '/');
  g_autofree char *contents = g_strdup_printf ("[%s]\nprivacy-choice-made=true\n%s", group,
                                               extra_settings != NULL ? extra_settings : "");
  g_autofree char *display = g_strdup (g_getenv ("DISPLAY"));
  g_autoptr(GError) error = NULL;
  GTestDBus *bus;

  g_mkdir_with_parents (dir, 0700);
  if (!g_file_set_contents (path, contents, -1, &error))
    g_error ("Could not write %s: %s", path, error->message);

  /* g_test_dbus_up() unsets DISPLAY. */
  bus = g_test_dbus_new (G_TEST_DBUS_NONE);
  g_test_dbus_up (bus);
  g_setenv ("DISPLAY", display, TRUE);
  g_setenv ("DBUS_SYSTEM_BUS_ADDRESS", g_test_dbus_get_bus_address (bus), TRUE);
  g_setenv ("XDG_CONFIG_HOME", config_home, TRUE);
  g_setenv ("GSETTINGS_BACKEND", "keyfile", TRUE);
  g_setenv ("G_MESSAGES_DEBUG", "nearby-window bench-startup-minimal", TRUE);
  g_setenv ("GTK_A11Y", "none", FALSE);

  return bus;
}

void
bench_app_environment_down (GTestDBus *bus)
{
  GDBusConnection *connection;

  /* The private bus goes away: a system bus connection must not take the process with it. */
  connection = g_bus_get_sync (G_BUS_TYPE_SYSTEM, NULL, NULL);
  if (connection != NULL)
    {
      g_dbus_connection_set_exit_on_close (connection, FALSE);
      g_object_unref (connection);
    }
  g_test_dbus_down (bus);
  g_object_unref (bus);
}

int
bench_compare_doubles (const void *a,
                       const void *b)
{
  double x = *(const double *) a;
  double y = *(const double *) b;

  return x < y ? -1 : x > y ? 1 : 0;
}

int
bench_compare_gint64 (const void *a,
                      const void *b)
{
  gint64 x = *(const gint64 *) a;
  gint64 y = *(const gint64 *) b;

  return (x > y) - (x < y);
}

double
bench_percentile (GArray *values,
                  double  percentile)
{
  guint index;

  if (values->len == 0)
    return 0.0;

  g_array_sort (values, bench_compare_doubles);
  index = (guint) MIN (values->len - 1, floor (percentile / 100.0 * values->len));

  return g_array_index (values, double, index);
}

GVariant *
bench_eddystone_url_properties (const char *url,
                                int         rssi)
{
  guint8 frame[NEARBY_FRAME_URL_SERVICE_DATA_MAX];
  GVariantBuilder props;
  gsize len = 0;

  g_assert_cmpint (nearby_frame_encode_eddystone_url (url, -20, frame, &len, NULL),
                   ==, NEARBY_FRAME_OK);
  g_variant_builder_init (&props, G_VARIANT_TYPE_VARDICT);
  g_variant_builder_add (&props, "{sv}", "RSSI", g_variant_new_int16 (rssi));
  g_variant_builder_add (&props, "{sv}", "ServiceData",
                         nearby_test_service_data ("0000feaa-0000-1000-8000-00805f9b34fb", frame,
                                                   len));

  return g_variant_builder_end (&props);
}

NearbySighting *
bench_beacon_sighting (guint  index,
                       gint64 time_us,
                       int    rssi)
{
  g_autofree char *address = g_strdup_printf ("C0:FF:EE:%02X:%02X:%02X",
                                              (index >> 16) & 0xff, (index >> 8) & 0xff,
                                              index & 0xff);
  g_autofree char *url = g_strdup_printf ("https://example.com/o/%u", index);
  guint8 raw[NEARBY_ADV_MAX];
  gsize raw_len = 0;
  NearbyFrame frame;

  if (nearby_frame_encode_eddystone_url (url, -20, raw, &raw_len, NULL) != NEARBY_FRAME_OK
      || nearby_frame_decode_service_data (NEARBY_UUID16_EDDYSTONE, raw, raw_len,
                                           &frame) != NEARBY_FRAME_OK)
    g_error ("Could not build the frame of %s", url);

  return nearby_sighting_new (address, time_us, rssi, &frame, raw, raw_len);
}

/* utime + stime of every thread of @pid, in clock ticks. */
static guint64
process_cpu_ticks (GPid pid)
{
  g_autofree char *path = g_strdup_printf ("/proc/%d/stat", (int) pid);
  g_autofree char *contents = NULL;
  g_auto(GStrv) fields = NULL;
  const char *after_name;

  if (!g_file_get_contents (path, &contents, NULL, NULL))
    g_error ("Could not read %s: did the program exit?", path);

  /* The name, in parentheses, may hold spaces: the fields after it are counted from its end.
   * utime and stime are fields 14 and 15, so the 12th and 13th after the name. */
  after_name = strrchr (contents, ')');
  g_assert (after_name != NULL);
  fields = g_strsplit (after_name + 2, " ", 0);
  g_assert (g_strv_length (fields) > 13);

  return g_ascii_strtoull (fields[11], NULL, 10) + g_ascii_strtoull (fields[12], NULL, 10);
}

double
bench_process_cpu_percent (GPid  pid,
                           guint seconds)
{
  guint64 before = process_cpu_ticks (pid);
  gint64 started = g_get_monotonic_time ();
  double elapsed_s;

  nearby_test_run_for_ms (seconds * 1000);
  elapsed_s = (g_get_monotonic_time () - started) / 1e6;

  return 100.0 * (process_cpu_ticks (pid) - before) / sysconf (_SC_CLK_TCK) / elapsed_s;
}

/* poll(), ppoll() and epoll_wait() calls of every thread of @pid per second, from strace's
 * summary: GLib's main loops poll, Python's asyncio (bleak) waits in epoll. */
double
bench_process_wakeups_per_s (GPid        pid,
                             guint       seconds,
                             const char *tmp)
{
  g_autofree char *strace = g_find_program_in_path ("strace");
  g_autofree char *pid_arg = g_strdup_printf ("%d", (int) pid);
  g_autofree char *summary_path = g_build_filename (tmp, "strace-summary", NULL);
  g_autofree char *summary = NULL;
  g_autoptr(GSubprocess) tracer = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) lines = NULL;
  gint64 started;
  double elapsed_s;
  guint64 calls = 0;

  if (strace == NULL)
    return -1;

  g_remove (summary_path);
  tracer = g_subprocess_new (G_SUBPROCESS_FLAGS_STDERR_SILENCE, &error, strace, "-f", "-c",
                             "-e", "trace=poll,ppoll,epoll_wait,epoll_pwait", "-o", summary_path,
                             "-p", pid_arg, NULL);
  if (tracer == NULL)
    g_error ("Could not start strace: %s", error->message);

  /* strace says nothing when it has attached; a second is more than it takes. */
  nearby_test_run_for_ms (1000);
  started = g_get_monotonic_time ();
  nearby_test_run_for_ms (seconds * 1000);
  g_subprocess_send_signal (tracer, SIGINT);
  g_subprocess_wait (tracer, NULL, NULL);
  elapsed_s = (g_get_monotonic_time () - started) / 1e6;

  if (!g_file_get_contents (summary_path, &summary, NULL, &error))
    g_error ("strace left no summary: %s", error->message);

  /* "% time     seconds  usecs/call     calls    errors syscall": calls is the 4th column. */
  lines = g_strsplit (summary, "\n", 0);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_auto(GStrv) columns = g_strsplit_set (g_strstrip (lines[i]), " \t", 0);
      g_autoptr(GPtrArray) words = g_ptr_array_new ();
      const char *syscall;

      for (guint j = 0; columns[j] != NULL; j++)
        if (*columns[j] != '\0')
          g_ptr_array_add (words, columns[j]);
      if (words->len < 5)
        continue;
      syscall = words->pdata[words->len - 1];
      if (g_str_equal (syscall, "poll") || g_str_equal (syscall, "ppoll")
          || g_str_equal (syscall, "epoll_wait") || g_str_equal (syscall, "epoll_pwait"))
        calls += g_ascii_strtoull (words->pdata[3], NULL, 10);
    }

  /* The second before the count began is not in the summary's time, but it is in its calls:
   * counted in the time too, so that the figure errs high rather than low. */
  return calls / (elapsed_s + 1.0);
}

typedef struct {
  char   *name;
  double  per_s;
} ThreadCount;

static int
thread_count_compare (gconstpointer a,
                      gconstpointer b)
{
  const ThreadCount *x = a;
  const ThreadCount *y = b;

  return (x->per_s < y->per_s) - (x->per_s > y->per_s);
}

char *
bench_process_wakeups_by_thread (GPid        pid,
                                 guint       seconds,
                                 const char *tmp)
{
  g_autofree char *strace = g_find_program_in_path ("strace");
  g_autofree char *pid_arg = g_strdup_printf ("%d", (int) pid);
  g_autofree char *trace_path = g_build_filename (tmp, "strace-threads", NULL);
  g_autofree char *trace = NULL;
  g_autoptr(GSubprocess) tracer = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GHashTable) by_name = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GHashTable) names = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, g_free);
  g_autoptr(GArray) counts = g_array_new (FALSE, FALSE, sizeof (ThreadCount));
  g_autoptr(GString) said = g_string_new (NULL);
  g_auto(GStrv) lines = NULL;
  g_autoptr(GDir) tasks = NULL;
  g_autofree char *task_dir = g_strdup_printf ("/proc/%d/task", (int) pid);
  GHashTableIter iter;
  gpointer key, value;
  gint64 started;
  double elapsed_s;
  const char *tid_name;

  if (strace == NULL)
    return NULL;

  g_remove (trace_path);
  tracer = g_subprocess_new (G_SUBPROCESS_FLAGS_STDERR_SILENCE, &error, strace, "-f",
                             "-e", "trace=poll,ppoll,epoll_wait,epoll_pwait", "-o", trace_path,
                             "-p", pid_arg, NULL);
  if (tracer == NULL)
    g_error ("Could not start strace: %s", error->message);

  nearby_test_run_for_ms (1000);
  started = g_get_monotonic_time ();
  nearby_test_run_for_ms (seconds * 1000);

  /* Thread names while they all still run. */
  tasks = g_dir_open (task_dir, 0, NULL);
  while (tasks != NULL && (tid_name = g_dir_read_name (tasks)) != NULL)
    {
      g_autofree char *comm_path = g_build_filename (task_dir, tid_name, "comm", NULL);
      char *comm = NULL;

      if (g_file_get_contents (comm_path, &comm, NULL, NULL))
        g_hash_table_insert (names, GINT_TO_POINTER (atoi (tid_name)), g_strstrip (comm));
    }

  g_subprocess_send_signal (tracer, SIGINT);
  g_subprocess_wait (tracer, NULL, NULL);
  elapsed_s = (g_get_monotonic_time () - started) / 1e6;

  if (!g_file_get_contents (trace_path, &trace, NULL, &error))
    g_error ("strace left no trace: %s", error->message);

  /* "TID poll([...], 2, -1) = 1", or "TID poll(... <unfinished ...>" and later "TID <...
   * poll resumed> ...": a call is counted where it starts. */
  lines = g_strsplit (trace, "\n", 0);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      char *end = NULL;
      int tid = (int) g_ascii_strtoll (lines[i], &end, 10);
      const char *name;

      if (end == lines[i] || strstr (end, "resumed>") != NULL
          || (strstr (end, "poll(") == NULL && strstr (end, "epoll_wait(") == NULL
              && strstr (end, "epoll_pwait(") == NULL))
        continue;

      name = g_hash_table_lookup (names, GINT_TO_POINTER (tid));
      if (name == NULL)
        name = "(thread gone)";
      g_hash_table_insert (by_name, g_strdup (name),
                           GUINT_TO_POINTER (GPOINTER_TO_UINT (g_hash_table_lookup (by_name,
                                                                                  name)) + 1));
    }

  g_hash_table_iter_init (&iter, by_name);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      ThreadCount count = { key, GPOINTER_TO_UINT (value) / (elapsed_s + 1.0) };

      g_array_append_val (counts, count);
    }
  g_array_sort (counts, thread_count_compare);
  for (guint i = 0; i < counts->len; i++)
    {
      ThreadCount *count = &g_array_index (counts, ThreadCount, i);

      g_string_append_printf (said, "%s%s %.1f", i > 0 ? ", " : "", count->name, count->per_s);
    }

  return g_string_free (g_steal_pointer (&said), counts->len == 0);
}

static void
child_output_line_cb (GObject      *object,
                      GAsyncResult *result,
                      gpointer      user_data)
{
  BenchChildOutput *reading = user_data;
  g_autofree char *line = g_data_input_stream_read_line_finish (G_DATA_INPUT_STREAM (object),
                                                                result, NULL, NULL);

  if (line == NULL)
    {
      reading->ended = TRUE;
      g_object_unref (object);
      return;
    }

  g_string_append_printf (reading->output, "%s\n", line);
  if (reading->marker != NULL && strstr (line, reading->marker) != NULL)
    reading->seen = TRUE;

  g_data_input_stream_read_line_async (G_DATA_INPUT_STREAM (object), G_PRIORITY_DEFAULT, NULL,
                                       child_output_line_cb, reading);
}

void
bench_child_output_read (BenchChildOutput *reading,
                         GInputStream     *stream)
{
  GDataInputStream *lines = g_data_input_stream_new (stream);

  /* The stream holds itself until the end is read. */
  g_data_input_stream_read_line_async (lines, G_PRIORITY_DEFAULT, NULL, child_output_line_cb,
                                       reading);
}
