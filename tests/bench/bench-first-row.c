/* bench-first-row.c: from a beacon's first advertisement to its row showing the page's title
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 *   xvfb-run -a -s "-screen 0 1280x800x24 -ac" \
 *     meson test -C _build --benchmark bench-first-row --verbose
 *
 * The real app (NearbyApplication, its window, scanner, object list, page loader and resolver)
 * runs in this process under X, on the mock bluetoothd (tests/bluez_nearby.py) on a private
 * bus that stands in for the system and the session bus. Look-ups are allowed as after the first-run choice (privacy-choice-made), in
 * developer mode, which is what lets the app fetch http pages from this computer without asking.
 * The pages come from a SoupServer on a thread of this process (bench-server.c) that answers in
 * 0 ms or in 50 ms.
 *
 * t0 is the moment the mock is asked to add a device advertising the beacon's Eddystone-URL
 * frame; the end is the first frame (GdkFrameClock::after-paint) after which the row's title
 * label, mapped, shows the page's title. In between, each step is stamped: the scanner's
 * sighting, the object list announcing the object (its batching tick), the server receiving the
 * page and the icon requests, the page reaching the object, and the row entering the list.
 *
 * Two situations, BENCH_FIRST_ROW_RUNS (10) runs each, per server latency:
 *   - alone: the first object in an empty list (the list was idle: no tick was running);
 *   - joining: another beacon is already listed and advertising, so the list ticks.
 *
 * Without a display the benchmark is skipped (exit status 77).
 */

#include "config.h"

#include <adwaita.h>
#include <stdlib.h>
#include <string.h>

#include "bench-server.h"
#include "bench-util.h"
#include "bluez-mock-harness.h"
#include "nearby-application.h"
#include "nearby-object-list.h"
#include "nearby-object-row.h"
#include "nearby-window.h"

typedef enum {
  STEP_ADVERT,        /* the mock is asked to add the device */
  STEP_SIGHTING,      /* the scanner emits its first sighting */
  STEP_ADDED,         /* the object list announces the object: the page loader starts */
  STEP_PAGE_REQUEST,  /* the server receives GET /p/N */
  STEP_ICON_REQUEST,  /* the server receives GET /i/N.png */
  STEP_PAGE_SET,      /* the resolved page reaches the object */
  STEP_IN_MODEL,      /* the object enters the list model the window shows */
  STEP_PAINTED,       /* a frame was painted with the title in the row */
  N_STEPS
} Step;

static const char *step_names[N_STEPS] = {
  "advert", "sighting", "announced", "page GET", "icon GET", "page set", "row in list", "painted",
};

typedef struct {
  NearbyApplication *app;
  GtkWidget         *window;
  GListModel        *shown;
  BluezMock          mock;

  /* The run under way */
  char              *address;
  char              *url;
  char              *title;
  NearbyObject      *object;
  gint64             at[N_STEPS];
} Bench;

static Bench bench;

static void
stamp (Step step)
{
  if (bench.url != NULL && bench.at[step] == 0)
    bench.at[step] = g_get_monotonic_time ();
}

/* What the app shows */

/* BENCH_FIRST_ROW_VERBOSE: every change of the object list, during a run. */
static void
print_list_change (GListModel *model,
                   guint       position,
                   guint       removed,
                   guint       added,
                   gpointer    user_data)
{
  if (bench.url != NULL)
    g_print ("# list changed at %u: -%u +%u, %+.1f ms into the run\n", position, removed, added,
             (g_get_monotonic_time () - bench.at[STEP_ADVERT]) / 1000.0);
}

static gboolean
row_shows_title (GtkWidget  *widget,
                 const char *title)
{
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      if (GTK_IS_LABEL (child) && gtk_widget_get_mapped (child) &&
          g_strcmp0 (gtk_label_get_label (GTK_LABEL (child)), title) == 0)
        {
          for (GtkWidget *up = child; up != NULL; up = gtk_widget_get_parent (up))
            {
              if (NEARBY_IS_OBJECT_ROW (up))
                return TRUE;
            }
        }
      if (row_shows_title (child, title))
        return TRUE;
    }

  return FALSE;
}

static void
on_after_paint (GdkFrameClock *clock,
                gpointer       user_data)
{
  if (bench.url != NULL && bench.at[STEP_PAINTED] == 0 && bench.at[STEP_PAGE_SET] != 0 &&
      row_shows_title (bench.window, bench.title))
    stamp (STEP_PAINTED);
}

static void
on_sighting (NearbySource         *source,
             const NearbySighting *sighting,
             gpointer              user_data)
{
  if (bench.address != NULL && g_strcmp0 (sighting->address, bench.address) == 0)
    stamp (STEP_SIGHTING);
}

static void
on_page_changed (NearbyObject *object,
                 GParamSpec   *pspec,
                 gpointer      user_data)
{
  NearbyPage *page = nearby_object_get_page (object);

  if (object == bench.object && page != NULL && g_strcmp0 (page->title, bench.title) == 0)
    stamp (STEP_PAGE_SET);
}

static void
on_object_added (NearbyObjectList *list,
                 NearbyObject     *object,
                 gpointer          user_data)
{
  if (bench.url == NULL || g_strcmp0 (nearby_object_get_url (object), bench.url) != 0)
    return;

  stamp (STEP_ADDED);
  g_set_object (&bench.object, object);
  g_signal_connect (object, "notify::page", G_CALLBACK (on_page_changed), NULL);
}

static void
on_shown_changed (GListModel *model,
                  guint       position,
                  guint       removed,
                  guint       added,
                  gpointer    user_data)
{
  for (guint i = position; i < position + added && bench.object != NULL; i++)
    {
      g_autoptr(GObject) item = g_list_model_get_item (model, i);

      if (item == G_OBJECT (bench.object))
        stamp (STEP_IN_MODEL);
    }
}

/* The mock */

static char *
add_beacon (const char *address,
            const char *url,
            int         rssi)
{
  g_autoptr(GVariant) reply = NULL;
  char *path = NULL;

  reply = bluez_mock_call (&bench.mock, "/", BLUEZ_MOCK_IFACE, "AddBeacon",
                           g_variant_new ("(ss@a{sv})", "hci0", address,
                                          bench_eddystone_url_properties (url, rssi)),
                           "(o)");
  g_variant_get (reply, "(o)", &path);

  return path;
}

static void
remove_beacon (const char *path)
{
  g_autoptr(GVariant) reply = NULL;

  reply = bluez_mock_call (&bench.mock, "/", BLUEZ_MOCK_IFACE, "RemoveBeacon",
                           g_variant_new ("(o)", path), NULL);
}

/* A beacon that stays: an RSSI update every half second keeps it from expiring. */
static gboolean
keep_advertising (gpointer user_data)
{
  const char *path = user_data;
  static int jitter;
  GVariantBuilder changed;

  g_variant_builder_init (&changed, G_VARIANT_TYPE_VARDICT);
  g_variant_builder_add (&changed, "{sv}", "RSSI", g_variant_new_int16 (-70 - (jitter++ % 2)));
  g_dbus_connection_call (bench.mock.bus, "org.bluez", "/", BLUEZ_MOCK_IFACE, "UpdateDevice",
                          g_variant_new ("(oa{sv}as)", path, &changed, NULL),
                          NULL, G_DBUS_CALL_FLAGS_NO_AUTO_START, -1, NULL, NULL, NULL);

  return G_SOURCE_CONTINUE;
}

/* Runs */

typedef struct {
  gint64 at_us[N_STEPS];      /* since the advert, -1 when not seen */
  guint  round_trips;
} Sample;

/* What is measured from a run's stamps: an event's offset, or the time between two. */
typedef enum {
  MEASURE_TOTAL,
  MEASURE_OVERHEAD,
  MEASURE_TICK,
  MEASURE_LOOKUP,
  MEASURE_LOOKUP_START,
  MEASURE_LOOKUP_END,
  MEASURE_RANKING,
  MEASURE_PAINT,
  N_MEASURES
} Measure;

static const char *measure_names[N_MEASURES] = {
  "advert -> title painted",
  "overhead: total - round trips x latency",
  "  sighting -> announced (list tick)",
  "  announced -> page set (look-up)",
  "    announced -> page GET received",
  "    icon GET received -> page set",
  "  announced -> row in list (ranking)",
  "  page set and row in list -> painted",
};

static void
one_run (BenchServer *server,
         guint        index,
         Sample      *sample)
{
  g_autofree char *path = NULL;

  memset (bench.at, 0, sizeof bench.at);
  g_clear_object (&bench.object);
  g_free (bench.address);
  g_free (bench.url);
  g_free (bench.title);
  bench.address = g_strdup_printf ("C0:FF:EE:01:%02X:%02X", index / 256, index % 256);
  /* An Eddystone-URL frame holds 17 bytes of address: "127.0.0.1:PORT/p/N" is too long. */
  bench.url = g_strdup_printf ("http://[::1]:%u/p/%u", bench_server_get_port (server), index);
  bench.title = bench_server_page_title (index);

  bench.at[STEP_ADVERT] = g_get_monotonic_time ();
  path = add_beacon (bench.address, bench.url, -45);
  WAIT_UNTIL (bench.at[STEP_PAINTED] != 0);

  bench.at[STEP_PAGE_REQUEST] = bench_server_page_arrival (server, index);
  bench.at[STEP_ICON_REQUEST] = bench_server_icon_arrival (server, index);
  sample->round_trips = (bench.at[STEP_PAGE_REQUEST] != 0) + (bench.at[STEP_ICON_REQUEST] != 0);
  for (Step step = STEP_ADVERT; step < N_STEPS; step++)
    sample->at_us[step] = bench.at[step] != 0 ? bench.at[step] - bench.at[STEP_ADVERT] : -1;

  if (g_getenv ("BENCH_FIRST_ROW_VERBOSE") != NULL)
    {
      g_print ("# run %u:", index);
      for (Step step = STEP_SIGHTING; step < N_STEPS; step++)
        g_print (" %s %+.1f", step_names[step], sample->at_us[step] / 1000.0);
      g_print ("\n");
    }

  remove_beacon (path);
  g_clear_pointer (&bench.url, g_free);
}

static gint64
measure (const Sample *sample,
         Measure       what,
         guint         latency_ms)
{
  const gint64 *at = sample->at_us;

  switch (what)
    {
    case MEASURE_TOTAL:
      return at[STEP_PAINTED];
    case MEASURE_OVERHEAD:
      return at[STEP_PAINTED] - (gint64) sample->round_trips * latency_ms * 1000;
    case MEASURE_TICK:
      return at[STEP_ADDED] - at[STEP_SIGHTING];
    case MEASURE_LOOKUP:
      return at[STEP_PAGE_SET] - at[STEP_ADDED];
    case MEASURE_LOOKUP_START:
      return at[STEP_PAGE_REQUEST] - at[STEP_ADDED];
    case MEASURE_LOOKUP_END:
      return at[STEP_PAGE_SET] - at[STEP_ICON_REQUEST];
    case MEASURE_RANKING:
      return at[STEP_IN_MODEL] - at[STEP_ADDED];
    case MEASURE_PAINT:
      return at[STEP_PAINTED] - MAX (at[STEP_PAGE_SET], at[STEP_IN_MODEL]);
    case N_MEASURES:
    default:
      g_assert_not_reached ();
    }
}

static void
print_series (const char   *situation,
              guint         latency_ms,
              const Sample *samples,
              guint         n)
{
  guint round_trips = 0;

  for (guint i = 0; i < n; i++)
    round_trips = MAX (round_trips, samples[i].round_trips);

  g_print ("\n%s, server answering in %u ms: %u runs; %u round trips (page, icon)\n",
           situation, latency_ms, n, round_trips);
  for (Measure what = MEASURE_TOTAL; what < N_MEASURES; what++)
    {
      g_autoptr(GArray) values = g_array_sized_new (FALSE, FALSE, sizeof (gint64), n);

      for (guint i = 0; i < n; i++)
        {
          gint64 value = measure (&samples[i], what, latency_ms);

          g_array_append_val (values, value);
        }
      g_array_sort (values, bench_compare_gint64);
      g_print ("  %-42s p50 %7.1f ms   max %7.1f ms\n", measure_names[what],
               g_array_index (values, gint64, (n - 1) / 2) / 1000.0,
               g_array_index (values, gint64, n - 1) / 1000.0);
    }
}

static void
wait_for_empty_list (void)
{
  WAIT_UNTIL (nearby_object_list_get_n_objects (nearby_application_get_objects (bench.app)) == 0 &&
              g_list_model_get_n_items (bench.shown) == 0);
}

static void
bench_first_row (void)
{
  guint n_runs = 10;
  guint latencies[] = { 0, 50 };
  BenchServer *servers[G_N_ELEMENTS (latencies)];
  g_autoptr(GSettings) settings = g_settings_new (APP_ID);
  g_autoptr(GError) error = NULL;
  g_autofree char *background_path = NULL;
  g_autofree Sample *samples = NULL;
  NearbySource *source = NULL;
  GdkFrameClock *clock;
  guint keep_id;
  guint index = 1;

  n_runs = bench_env_uint ("BENCH_FIRST_ROW_RUNS", n_runs);
  samples = g_new0 (Sample, n_runs);

  for (guint i = 0; i < G_N_ELEMENTS (latencies); i++)
    servers[i] = bench_server_start (latencies[i], 1);

  bluez_mock_set_up (&bench.mock);
  bluez_mock_start (&bench.mock);
  bluez_mock_add_adapter (&bench.mock, "hci0", TRUE);

  /* As after the first-run choice; developer mode lets http pages on this computer be looked
   * up without asking. Objects leave 5 s after their last advert, so runs start from an empty
   * list sooner. */
  g_settings_set_boolean (settings, "privacy-choice-made", TRUE);
  g_settings_set_string (settings, "lookup-policy", "automatic");
  g_settings_set_boolean (settings, "developer-mode", TRUE);
  g_settings_set_uint (settings, "stale-seconds", 3);
  g_settings_set_uint (settings, "expiry-seconds", 5);

  bench.app = nearby_application_new ();
  g_application_set_flags (G_APPLICATION (bench.app), G_APPLICATION_NON_UNIQUE);
  g_application_register (G_APPLICATION (bench.app), NULL, &error);
  g_assert_no_error (error);
  g_application_activate (G_APPLICATION (bench.app));

  bench.window = GTK_WIDGET (gtk_application_get_active_window (GTK_APPLICATION (bench.app)));
  g_assert_true (NEARBY_IS_WINDOW (bench.window));
  WAIT_UNTIL (gtk_widget_get_mapped (bench.window));
  g_object_get (bench.window, "source", &source, "objects", &bench.shown, NULL);
  WAIT_UNTIL (nearby_source_get_state (source) == NEARBY_SOURCE_STATE_SCANNING);

  g_signal_connect (source, "sighting", G_CALLBACK (on_sighting), NULL);
  g_signal_connect (nearby_application_get_objects (bench.app), "object-added",
                    G_CALLBACK (on_object_added), NULL);
  g_signal_connect (bench.shown, "items-changed", G_CALLBACK (on_shown_changed), NULL);
  if (g_getenv ("BENCH_FIRST_ROW_VERBOSE") != NULL)
    g_signal_connect (nearby_application_get_objects (bench.app), "items-changed",
                      G_CALLBACK (print_list_change), NULL);
  clock = gtk_widget_get_frame_clock (bench.window);
  g_signal_connect (clock, "after-paint", G_CALLBACK (on_after_paint), NULL);

  /* A first run warms up what happens once per process: the history database, the page
   * loader's first look-up, the row's first build. */
  {
    Sample warm_up;

    one_run (servers[0], index++, &warm_up);
    wait_for_empty_list ();
  }

  g_print ("\ntime to a useful row (%s build, GSK_RENDERER=%s, list frozen: %s)\n",
           NEARBY_BUILDTYPE, g_getenv ("GSK_RENDERER"),
           nearby_object_list_get_frozen (nearby_application_get_objects (bench.app)) ? "yes" : "no");

  for (guint l = 0; l < G_N_ELEMENTS (latencies); l++)
    {
      for (guint i = 0; i < n_runs; i++)
        {
          one_run (servers[l], index++, &samples[i]);
          wait_for_empty_list ();
        }
      print_series ("alone: the first object in an empty list", latencies[l], samples, n_runs);
    }

  /* Another beacon, listed and advertising all along: the list is ticking when the new one
   * comes. */
  background_path = add_beacon ("C0:FF:EE:02:00:01", "https://example.com/", -70);
  keep_id = g_timeout_add (500, keep_advertising, background_path);
  WAIT_UNTIL (g_list_model_get_n_items (bench.shown) == 1);
  /* Past one tick and one rank interval: the runs measure a list in its steady state, not a
   * second beacon arriving right behind the first. */
  nearby_test_run_for_ms (1500);
  for (guint l = 0; l < G_N_ELEMENTS (latencies); l++)
    {
      for (guint i = 0; i < n_runs; i++)
        {
          one_run (servers[l], index++, &samples[i]);
          /* Let the run's object leave, and the tick phase drift. */
          WAIT_UNTIL (g_list_model_get_n_items (bench.shown) == 1);
          nearby_test_run_for_ms (g_random_int_range (0, 250));
        }
      print_series ("joining: a new object while another is listed", latencies[l], samples,
                    n_runs);
    }
  g_source_remove (keep_id);

  g_signal_handlers_disconnect_by_func (clock, on_after_paint, NULL);
  gtk_window_destroy (GTK_WINDOW (bench.window));
  g_clear_object (&bench.object);
  g_clear_object (&bench.shown);
  g_clear_object (&source);
  g_application_quit (G_APPLICATION (bench.app));
  g_clear_object (&bench.app);
  for (guint i = 0; i < G_N_ELEMENTS (latencies); i++)
    bench_server_stop (servers[i], &(double) { 0 });
  bluez_mock_tear_down (&bench.mock);
  g_clear_pointer (&bench.address, g_free);
  g_clear_pointer (&bench.title, g_free);
}

/* As harness_run_tests_on_private_system_bus(), for the system and the session bus alike; but
 * the app keeps its connections until the process ends, so the bus is stopped without waiting
 * for them (g_test_dbus_down() would, and so would unreferencing @bus). */
static int
run_on_private_bus (void)
{
  GTestDBus *bus = g_test_dbus_new (G_TEST_DBUS_NONE);
  GBusType types[] = { G_BUS_TYPE_SYSTEM, G_BUS_TYPE_SESSION };
  int status;

  g_test_dbus_up (bus);
  g_setenv ("DBUS_SYSTEM_BUS_ADDRESS", g_test_dbus_get_bus_address (bus), TRUE);

  status = g_test_run ();

  for (guint i = 0; i < G_N_ELEMENTS (types); i++)
    {
      g_autoptr(GDBusConnection) connection = g_bus_get_sync (types[i], NULL, NULL);

      if (connection != NULL)
        g_dbus_connection_set_exit_on_close (connection, FALSE);
    }
  g_test_dbus_stop (bus);

  return status;
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *data_home = NULL;
  int status;

  if (g_getenv ("DISPLAY") == NULL && g_getenv ("WAYLAND_DISPLAY") == NULL)
    {
      g_printerr ("bench-first-row: no display (run it under xvfb-run): skipped\n");
      return 77;
    }

  /* A fresh history each time: a page cached by an earlier run would skip the network. */
  data_home = nearby_test_make_temp_dir ("bench-first-row");
  g_setenv ("XDG_DATA_HOME", data_home, TRUE);
  g_setenv ("GSK_RENDERER", "cairo", FALSE);
  /* The private session bus has no accessibility bus, and under G_DEBUG=fatal-warnings GTK's
   * "Unable to acquire the address of the accessibility bus" would end the run; the row's title
   * is read off the widget, so the bridge is not needed. */
  g_setenv ("GTK_A11Y", "none", FALSE);
  g_setenv ("NO_AT_BRIDGE", "1", FALSE);

  g_test_init (&argc, &argv, NULL);
  if (!gtk_init_check ())
    {
      g_printerr ("bench-first-row: cannot open the display: skipped\n");
      return 77;
    }
  adw_init ();

  g_test_add_func ("/bench/first-row", bench_first_row);
  status = run_on_private_bus ();

  nearby_test_remove_tree (data_home);

  return status;
}
