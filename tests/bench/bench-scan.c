/* bench-scan.c: the cost of scanning under a flood of RSSI updates
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 *   meson test -C _build --benchmark bench-scan --verbose
 *
 * The mock bluetoothd (tests/bluez_nearby.py, FloodRssi) changes the RSSI of every device at a
 * fixed rate. The same flood is measured twice in this process, on a private system bus:
 *
 *   - floor: a GDBus subscriber that only counts the PropertiesChanged signals;
 *   - Nearby: NearbyScanner feeding a NearbyObjectList, as the app runs them.
 *
 * Then, when python3-bleak is installed (BENCH_SCAN_BLEAK=0 skips it), the peer: a BleakScanner
 * decoding Eddystone-URL in its detection callback, in its own process (bench_scan_bleak.py),
 * under the same flood; its CPU is that process's own.
 *
 * For each: CPU seconds of this process (getrusage, every thread) per 10 000 signals, and the lag
 * from a signal's arrival (read off the socket by the GDBus worker thread, seen by a connection
 * filter) to its handling on the main thread (the floor's callback; the object list having taken
 * the sighting). The size of the flood can be changed with BENCH_SCAN_DEVICES, BENCH_SCAN_RATE
 * (updates per device per second) and BENCH_SCAN_SECONDS.
 */

#include "config.h"

#include <gio/gio.h>
#include <stdio.h>
#include <string.h>

#include "bench-util.h"
#include "bluez-mock-harness.h"
#include "nearby-object-list.h"
#include "nearby-scanner.h"

#define DEVICE_IFACE    "org.bluez.Device1"
#define DEVICE_PREFIX   "/org/bluez/hci0/dev_"

/* Signals that arrived, in arrival order: written by the GDBus worker thread, read by the main
 * thread, which handles the signals in the same order. */
typedef struct {
  GMutex  lock;
  GArray *arrival_us;
  guint   next_handled;
  GArray *lag_us;
} LagClock;

static LagClock lag_clock;

typedef struct {
  const char *name;
  guint       signals_sent;
  guint64     signals_handled;
  double      flood_seconds;
  double      cpu_seconds;
  double      catch_up_seconds;
  gint64      lag_p50_us;
  gint64      lag_p99_us;
  gint64      lag_max_us;
  guint       urls_decoded;
} Result;

static GDBusMessage *
stamp_arrival (GDBusConnection *connection,
               GDBusMessage    *message,
               gboolean         incoming,
               gpointer         user_data)
{
  const char *path;

  if (!incoming || g_dbus_message_get_message_type (message) != G_DBUS_MESSAGE_TYPE_SIGNAL)
    return message;

  path = g_dbus_message_get_path (message);
  if (path != NULL && g_str_has_prefix (path, DEVICE_PREFIX)
      && g_strcmp0 (g_dbus_message_get_member (message), "PropertiesChanged") == 0)
    {
      gint64 now = g_get_monotonic_time ();

      g_mutex_lock (&lag_clock.lock);
      if (lag_clock.arrival_us != NULL)
        g_array_append_val (lag_clock.arrival_us, now);
      g_mutex_unlock (&lag_clock.lock);
    }

  return message;
}

static void
lag_clock_start (void)
{
  g_mutex_lock (&lag_clock.lock);
  g_clear_pointer (&lag_clock.arrival_us, g_array_unref);
  g_clear_pointer (&lag_clock.lag_us, g_array_unref);
  lag_clock.arrival_us = g_array_sized_new (FALSE, FALSE, sizeof (gint64), 100000);
  lag_clock.lag_us = g_array_sized_new (FALSE, FALSE, sizeof (gint64), 100000);
  lag_clock.next_handled = 0;
  g_mutex_unlock (&lag_clock.lock);
}

/* Called on the main thread for each flood signal handled, in order. */
static void
lag_clock_handled (void)
{
  gint64 now = g_get_monotonic_time ();

  g_mutex_lock (&lag_clock.lock);
  if (lag_clock.arrival_us != NULL && lag_clock.next_handled < lag_clock.arrival_us->len)
    {
      gint64 lag = now - g_array_index (lag_clock.arrival_us, gint64, lag_clock.next_handled++);

      g_array_append_val (lag_clock.lag_us, lag);
    }
  g_mutex_unlock (&lag_clock.lock);
}

static void
lag_clock_stop (Result *result)
{
  g_mutex_lock (&lag_clock.lock);
  if (lag_clock.lag_us->len > 0)
    {
      GArray *lags = lag_clock.lag_us;

      g_array_sort (lags, bench_compare_gint64);
      result->lag_p50_us = g_array_index (lags, gint64, lags->len / 2);
      result->lag_p99_us = g_array_index (lags, gint64, MIN (lags->len - 1, lags->len * 99 / 100));
      result->lag_max_us = g_array_index (lags, gint64, lags->len - 1);
    }
  g_clear_pointer (&lag_clock.arrival_us, g_array_unref);
  g_clear_pointer (&lag_clock.lag_us, g_array_unref);
  g_mutex_unlock (&lag_clock.lock);
}

/* The mock */

static GVariant *
url_props (guint index)
{
  g_autofree char *url = g_strdup_printf ("https://example.com/%u", index);

  return bench_eddystone_url_properties (url, -90);
}

static void
add_beacons (BluezMock *mock,
             guint      n_devices)
{
  for (guint i = 0; i < n_devices; i++)
    {
      g_autofree char *address = g_strdup_printf ("C0:FF:EE:00:%02X:%02X", i / 256, i % 256);
      g_autoptr(GVariant) reply = NULL;

      reply = bluez_mock_call (mock, "/", BLUEZ_MOCK_IFACE, "AddBeacon",
                               g_variant_new ("(ss@a{sv})", "hci0", address, url_props (i)),
                               "(o)");
    }
}

/* Floods, and waits until @handled has caught up with what was sent. */
static void
flood (BluezMock     *mock,
       guint          rate,
       guint          seconds,
       const guint64 *handled,
       Result        *result)
{
  double cpu_before;
  gint64 started, finished;

  lag_clock_start ();
  cpu_before = nearby_test_cpu_seconds ();
  started = g_get_monotonic_time ();
  result->signals_sent = bluez_mock_flood_rssi (mock, rate, seconds * 1000);
  finished = g_get_monotonic_time ();
  WAIT_UNTIL (*handled >= result->signals_sent);
  result->catch_up_seconds = (g_get_monotonic_time () - finished) / 1e6;
  result->cpu_seconds = nearby_test_cpu_seconds () - cpu_before;
  result->flood_seconds = (finished - started) / 1e6;
  result->signals_handled = *handled;
  lag_clock_stop (result);
}

/* The floor */

static void
on_properties_changed (GDBusConnection *connection,
                       const char      *sender,
                       const char      *path,
                       const char      *interface,
                       const char      *signal,
                       GVariant        *parameters,
                       gpointer         data)
{
  (*(guint64 *) data)++;
  lag_clock_handled ();
}

static void
measure_floor (BluezMock *mock,
               guint      rate,
               guint      seconds,
               Result    *result)
{
  guint64 n_handled = 0;
  guint subscription;

  subscription = g_dbus_connection_signal_subscribe (mock->bus, "org.bluez",
                                                     "org.freedesktop.DBus.Properties",
                                                     "PropertiesChanged", NULL, DEVICE_IFACE,
                                                     G_DBUS_SIGNAL_FLAGS_NONE,
                                                     on_properties_changed, &n_handled, NULL);
  flood (mock, rate, seconds, &n_handled, result);
  g_dbus_connection_signal_unsubscribe (mock->bus, subscription);
}

/* Nearby */

static void
on_sighting (NearbySource         *source,
             const NearbySighting *sighting,
             guint64              *n_sightings)
{
  (*n_sightings)++;
  lag_clock_handled ();
}

static void
measure_nearby (BluezMock *mock,
                guint      n_devices,
                guint      rate,
                guint      seconds,
                Result    *result)
{
  g_autoptr(NearbyScanner) scanner = nearby_scanner_new (NULL);
  g_autoptr(NearbyObjectList) list = nearby_object_list_new (NEARBY_SOURCE (scanner));
  guint64 n_sightings = 0;

  /* Connected after the list's own handler: a sighting counts once the list has taken it. */
  g_signal_connect (scanner, "sighting", G_CALLBACK (on_sighting), &n_sightings);
  WAIT_UNTIL (nearby_source_get_state (NEARBY_SOURCE (scanner)) == NEARBY_SOURCE_STATE_SCANNING);
  WAIT_UNTIL ((nearby_object_list_flush (list),
               nearby_object_list_get_n_objects (list) == n_devices));

  n_sightings = 0;
  flood (mock, rate, seconds, &n_sightings, result);

  /* Let the list apply what it took, inside the measurement's process but after it: the tick
   * runs every 250 ms, so its cost is in the CPU figure already, up to one tick. */
  nearby_object_list_flush (list);
  g_assert_cmpuint (nearby_object_list_get_n_objects (list), ==, n_devices);
}

/* The peer: bleak, in its own process (tests/bench/bench_scan_bleak.py) */

static guint
count_devices (BluezMock *mock)
{
  g_autoptr(GVariant) reply = NULL;
  g_autoptr(GVariant) objects = NULL;
  GVariantIter iter;
  const char *path;
  guint n_devices = 0;

  reply = bluez_mock_call (mock, "/", "org.freedesktop.DBus.ObjectManager", "GetManagedObjects",
                           NULL, "(a{oa{sa{sv}}})");
  objects = g_variant_get_child_value (reply, 0);
  g_variant_iter_init (&iter, objects);
  while (g_variant_iter_next (&iter, "{&o@a{sa{sv}}}", &path, NULL))
    n_devices += g_str_has_prefix (path, DEVICE_PREFIX);

  return n_devices;
}

/* Returns FALSE, and says why, when bleak cannot run here. */
static gboolean
measure_bleak (BluezMock *mock,
               guint      n_devices,
               guint      rate,
               guint      seconds,
               Result    *result)
{
  g_autofree char *script = g_test_build_filename (G_TEST_DIST, "bench", "bench_scan_bleak.py",
                                                   NULL);
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GDataInputStream) output = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *ready = NULL;
  g_autofree char *sent = NULL;
  g_autofree char *done = NULL;
  guint callbacks = 0;
  gint64 started;

  /* Nearby's scanner sent StopDiscovery as it went away, and bluetoothd (so the mock) drops
   * temporary beacons when discovery ends: without new ones, the flood would have no device to
   * update. Wait for the drop, then put the same beacons back before bleak asks for them. */
  WAIT_UNTIL (count_devices (mock) == 0);
  add_beacons (mock, n_devices);

  process = g_subprocess_new (G_SUBPROCESS_FLAGS_STDIN_PIPE | G_SUBPROCESS_FLAGS_STDOUT_PIPE,
                              &error, PYTHON3, script, NULL);
  g_assert_no_error (error);
  output = g_data_input_stream_new (g_subprocess_get_stdout_pipe (process));
  ready = g_data_input_stream_read_line (output, NULL, NULL, &error);
  g_assert_no_error (error);
  if (g_strcmp0 (ready, "ready") != 0)
    {
      g_subprocess_wait (process, NULL, NULL);
      g_print ("  bleak: not run (%s)\n",
               g_subprocess_get_if_exited (process) && g_subprocess_get_exit_status (process) == 77
               ? "python3-bleak is not installed" : "its scanner did not start against the mock");
      return FALSE;
    }

  started = g_get_monotonic_time ();
  result->signals_sent = bluez_mock_flood_rssi (mock, rate, seconds * 1000);
  result->flood_seconds = (g_get_monotonic_time () - started) / 1e6;

  /* The script stops once it has counted what was sent, or when callbacks stopped coming. */
  sent = g_strdup_printf ("sent %u\n", result->signals_sent);
  g_output_stream_write_all (g_subprocess_get_stdin_pipe (process), sent, strlen (sent), NULL,
                             NULL, &error);
  g_assert_no_error (error);
  g_output_stream_close (g_subprocess_get_stdin_pipe (process), NULL, &error);
  g_assert_no_error (error);
  done = g_data_input_stream_read_line (output, NULL, NULL, &error);
  g_assert_no_error (error);
  g_subprocess_wait_check (process, NULL, &error);
  g_assert_no_error (error);
  if (done == NULL
      || sscanf (done, "done %u %lf %u", &callbacks, &result->cpu_seconds,
                 &result->urls_decoded) != 3)
    g_error ("Unexpected output from %s: %s", script, done);
  result->signals_handled = callbacks;
  result->lag_p50_us = result->lag_p99_us = result->lag_max_us = -1;

  return TRUE;
}

static void
print_result (const Result *result,
              const Result *floor_result)
{
  double cpu_per_10k = result->cpu_seconds * 10000 / MAX (result->signals_sent, 1);
  double floor_per_10k = floor_result->cpu_seconds * 10000 / MAX (floor_result->signals_sent, 1);

  g_print ("  %-34s %7u %8.0f/s %10.3f s ", result->name, result->signals_sent,
           result->signals_sent / result->flood_seconds, cpu_per_10k);
  if (result->lag_p50_us >= 0)
    g_print ("%9.2f ms %9.2f ms %9.2f ms", result->lag_p50_us / 1000.0,
             result->lag_p99_us / 1000.0, result->lag_max_us / 1000.0);
  else
    g_print ("%12s %12s %12s", "n/a", "n/a", "n/a");
  g_print (" %7.2f x\n", cpu_per_10k / floor_per_10k);
}

static void
bench_scan (void)
{
  guint n_devices = bench_env_uint ("BENCH_SCAN_DEVICES", 300);
  guint rate = bench_env_uint ("BENCH_SCAN_RATE", 10);
  guint seconds = bench_env_uint ("BENCH_SCAN_SECONDS", 10);
  Result floor_result = { .name = "floor: GDBus subscriber, counting" };
  Result nearby_result = { .name = "NearbyScanner + NearbyObjectList" };
  Result bleak_result = { .name = "peer: BleakScanner + URL decode" };
  gboolean bleak_ran;
  BluezMock mock = { NULL, };
  guint filter;

  bluez_mock_set_up (&mock);
  bluez_mock_start (&mock);
  bluez_mock_add_adapter (&mock, "hci0", TRUE);
  add_beacons (&mock, n_devices);
  filter = g_dbus_connection_add_filter (mock.bus, stamp_arrival, NULL, NULL);

  measure_floor (&mock, rate, seconds, &floor_result);
  measure_nearby (&mock, n_devices, rate, seconds, &nearby_result);

  g_dbus_connection_remove_filter (mock.bus, filter);
  if (g_strcmp0 (g_getenv ("BENCH_SCAN_BLEAK"), "0") != 0)
    bleak_ran = measure_bleak (&mock, n_devices, rate, seconds, &bleak_result);
  else
    {
      g_print ("  bleak: not run (BENCH_SCAN_BLEAK=0)\n");
      bleak_ran = FALSE;
    }
  bluez_mock_tear_down (&mock);

  g_print ("\nscan load (%s build): %u devices x %u/s for %u s, from the mock bluetoothd\n",
           NEARBY_BUILDTYPE, n_devices, rate, seconds);
  g_print ("  %-34s %7s %10s %12s %12s %12s %12s %9s\n", "", "signals", "sent at",
           "CPU/10k sig", "lag p50", "lag p99", "lag max", "CPU ratio");
  print_result (&floor_result, &floor_result);
  print_result (&nearby_result, &floor_result);
  if (bleak_ran)
    print_result (&bleak_result, &floor_result);
  g_print ("  (lag: from the signal's arrival in this process to its handling on the main thread)\n");
  g_print ("  handled: floor %" G_GUINT64_FORMAT " signals, Nearby %" G_GUINT64_FORMAT
           " sightings\n", floor_result.signals_handled, nearby_result.signals_handled);
  if (bleak_ran)
    g_print ("  bleak: %" G_GUINT64_FORMAT " callbacks seen of %u signals sent, %u URLs decoded"
             " (CPU of the bleak process alone)\n",
             bleak_result.signals_handled, bleak_result.signals_sent, bleak_result.urls_decoded);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/bench/scan", bench_scan);

  return harness_run_tests_on_private_system_bus ();
}
