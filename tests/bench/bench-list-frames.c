/* bench-list-frames.c: frame times of the main window showing 2 000 objects with RSSI churn
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 *   xvfb-run -a -s "-screen 0 1280x800x24 -ac" \
 *     meson test -C _build --benchmark bench-list-frames --verbose
 *
 * The real NearbyWindow (its list view and object rows) shows a NearbyObjectList fed by an
 * in-process source of 2 000 still beacons, each sighted 5 times a second. Two phases in one
 * process, on the same window and list:
 *
 *   - baseline: the same sightings with a constant RSSI (nothing to show changes);
 *   - churn: the RSSI of every sighting has Gaussian noise (3 dB), as a real radio's does.
 *
 * A tick callback keeps the frame clock running in both phases, so every frame is counted: the
 * interval between two "after-paint"s says how smooth the window is, the time from
 * "before-paint" to "after-paint" how much work a frame was. Also counted: how often the rows
 * move (reorders), which for still beacons is movement nobody asked for.
 *
 * Without a display it exits 77 (skipped). BENCH_LIST_OBJECTS, BENCH_LIST_RATE,
 * BENCH_LIST_SECONDS and BENCH_LIST_NOISE as for bench-list-model.
 */

#include "config.h"

#include <adwaita.h>

#include "bench-churn-source.h"
#include "bench-util.h"
#include "nearby-resources.h"
#include "nearby-window.h"

#define WARM_UP_SECONDS 5.0
#define N_VISIBLE_ROWS  10

typedef struct {
  gint64  last_after_paint_us;
  gint64  before_paint_us;
  GArray *intervals_ms;
  GArray *work_ms;
  gboolean recording;
} FrameLog;

/* Time spent in the list's "items-changed" handlers (the list view's among them). */
typedef struct {
  gint64  started_us;
  GArray *handling_ms;
} ChangeLog;

static void
on_items_changed_first (GListModel *model,
                        guint       position,
                        guint       removed,
                        guint       added,
                        ChangeLog  *log)
{
  log->started_us = g_get_monotonic_time ();
}

static void
on_items_changed_last (GListModel *model,
                       guint       position,
                       guint       removed,
                       guint       added,
                       ChangeLog  *log)
{
  double ms = (g_get_monotonic_time () - log->started_us) / 1000.0;

  g_array_append_val (log->handling_ms, ms);
}

typedef struct {
  const char *name;
  double      fps;
  double      interval_p50, interval_p99, interval_max;
  double      work_p50, work_p99, work_max;
  double      cpu_per_second;
  double      reorders_per_second;
  double      rows_per_reorder;
  double      visible_moved_per_second;
  gboolean    frozen;
  double      change_max_ms;
  guint       n_changes;
} Phase;

static void
on_before_paint (GdkFrameClock *clock,
                 FrameLog      *log)
{
  log->before_paint_us = g_get_monotonic_time ();
}

static void
on_after_paint (GdkFrameClock *clock,
                FrameLog      *log)
{
  gint64 now = g_get_monotonic_time ();

  if (log->recording && log->last_after_paint_us != 0)
    {
      double interval = (now - log->last_after_paint_us) / 1000.0;
      double work = (now - log->before_paint_us) / 1000.0;

      g_array_append_val (log->intervals_ms, interval);
      g_array_append_val (log->work_ms, work);
    }
  log->last_after_paint_us = now;
}

/* Asks for the next frame, every frame: idle frames are counted too. */
static gboolean
keep_ticking (GtkWidget     *widget,
              GdkFrameClock *clock,
              gpointer       user_data)
{
  return G_SOURCE_CONTINUE;
}

/* A new list and window, fed for the warm-up, then measured for @seconds. */
static Phase
run_phase (const char *name,
           guint       n_objects,
           double      rate,
           double      noise_db,
           double      seconds)
{
  g_autoptr(BenchChurnSource) source = bench_churn_source_new (n_objects, rate, noise_db);
  g_autoptr(NearbyObjectList) list = nearby_object_list_new (NEARBY_SOURCE (source));
  GtkWindow *window;
  GdkFrameClock *clock;
  BenchOrderWatch watch;
  FrameLog log = { 0 };
  ChangeLog changes = { 0, g_array_new (FALSE, FALSE, sizeof (double)) };
  Phase phase = { name };
  guint tick_id;
  double cpu_start;
  gint64 start_us;
  guint n_frames;

  /* Connected before the window's: the first handler to run, and the last. */
  g_signal_connect (list, "items-changed", G_CALLBACK (on_items_changed_first), &changes);
  g_signal_connect_after (list, "items-changed", G_CALLBACK (on_items_changed_last), &changes);
  /* The list, not the first-run page: without an application, nothing else tells the window. */
  window = GTK_WINDOW (nearby_window_new (NULL, NEARBY_SOURCE (source), G_LIST_MODEL (list), NULL,
                                          FALSE));
  /* As the app does: the order holds still while the person points at the list. */
  g_object_bind_property (window, "list-engaged", list, "frozen", G_BINDING_SYNC_CREATE);
  gtk_window_present (window);

  log.intervals_ms = g_array_new (FALSE, FALSE, sizeof (double));
  log.work_ms = g_array_new (FALSE, FALSE, sizeof (double));
  clock = gtk_widget_get_frame_clock (GTK_WIDGET (window));
  g_signal_connect (clock, "before-paint", G_CALLBACK (on_before_paint), &log);
  g_signal_connect (clock, "after-paint", G_CALLBACK (on_after_paint), &log);
  tick_id = gtk_widget_add_tick_callback (GTK_WIDGET (window), keep_ticking, NULL, NULL);

  bench_order_watch_init (&watch, G_LIST_MODEL (list), N_VISIBLE_ROWS);
  bench_churn_source_start (source);
  nearby_test_run_for_ms ((guint) (WARM_UP_SECONDS * 1000));
  if (g_list_model_get_n_items (G_LIST_MODEL (list)) != n_objects)
    g_error ("%s: the list shows %u objects, not %u", name,
             g_list_model_get_n_items (G_LIST_MODEL (list)), n_objects);

  bench_order_watch_reset (&watch);
  g_array_set_size (changes.handling_ms, 0);
  log.recording = TRUE;
  cpu_start = nearby_test_cpu_seconds ();
  start_us = g_get_monotonic_time ();

  nearby_test_run_for_ms ((guint) (seconds * 1000));

  log.recording = FALSE;
  seconds = (g_get_monotonic_time () - start_us) / (double) G_USEC_PER_SEC;
  n_frames = log.intervals_ms->len;
  if (n_frames < 2)
    g_error ("%s: only %u frames were painted in %.0f s", name, n_frames, seconds);

  phase.fps = n_frames / seconds;
  phase.interval_p50 = bench_percentile (log.intervals_ms, 50);
  phase.interval_p99 = bench_percentile (log.intervals_ms, 99);
  phase.interval_max = g_array_index (log.intervals_ms, double, n_frames - 1);
  phase.work_p50 = bench_percentile (log.work_ms, 50);
  phase.work_p99 = bench_percentile (log.work_ms, 99);
  phase.work_max = g_array_index (log.work_ms, double, n_frames - 1);
  phase.cpu_per_second = (nearby_test_cpu_seconds () - cpu_start) / seconds;
  phase.reorders_per_second = watch.n_reorders / seconds;
  phase.rows_per_reorder = watch.n_reorders > 0
                           ? (double) watch.n_rows_moved / watch.n_reorders : 0.0;
  phase.visible_moved_per_second = watch.n_visible_moved / seconds;
  phase.frozen = nearby_object_list_get_frozen (list);
  phase.n_changes = changes.handling_ms->len;
  phase.change_max_ms = phase.n_changes > 0 ? bench_percentile (changes.handling_ms, 100) : 0.0;

  bench_churn_source_stop (source);
  bench_order_watch_clear (&watch);
  gtk_widget_remove_tick_callback (GTK_WIDGET (window), tick_id);
  g_signal_handlers_disconnect_by_data (clock, &log);
  gtk_window_destroy (window);
  g_array_unref (log.intervals_ms);
  g_array_unref (log.work_ms);
  g_signal_handlers_disconnect_by_data (list, &changes);
  g_array_unref (changes.handling_ms);

  return phase;
}

static void
print_phase (const Phase *phase)
{
  g_print ("  %-30s %6.1f %8.1f %8.1f %8.1f %8.2f %8.2f %8.1f %7.2f %9.2f %9.1f %8.2f\n",
           phase->name, phase->fps, phase->interval_p50, phase->interval_p99, phase->interval_max,
           phase->work_p50, phase->work_p99, phase->work_max, phase->cpu_per_second,
           phase->reorders_per_second, phase->rows_per_reorder, phase->visible_moved_per_second);
}

int
main (int   argc,
      char *argv[])
{
  BenchChurnLoad workload = bench_churn_load_from_env ();
  g_autoptr(GSettings) settings = NULL;
  g_autoptr(GtkCssProvider) css = NULL;
  g_autofree char *display = NULL;
  g_autofree char *churn_name = NULL;
  GTestDBus *bus;
  Phase still, churn;

  if (g_getenv ("DISPLAY") == NULL && g_getenv ("WAYLAND_DISPLAY") == NULL)
    {
      g_print ("bench-list-frames needs a display (run it under xvfb-run): skipped\n");
      return 77;
    }

  /* Never the person's own settings; and the fastest renderer under Xvfb unless told. */
  g_setenv ("GSETTINGS_BACKEND", "memory", TRUE);
  g_setenv ("GSK_RENDERER", "cairo", FALSE);
  /* No accessibility bus on the private session bus: not measured (see README.md). */
  g_setenv ("GTK_A11Y", "none", FALSE);

  /* GTK wants a session bus (accessibility, portals): a private one. */
  display = g_strdup (g_getenv ("DISPLAY"));
  bus = g_test_dbus_new (G_TEST_DBUS_NONE);
  g_test_dbus_up (bus);
  /* g_test_dbus_up() unsets DISPLAY, against D-Bus autolaunch. */
  if (display != NULL)
    g_setenv ("DISPLAY", display, TRUE);

  gtk_init ();
  adw_init ();
  g_resources_register (nearby_get_resource ());
  css = gtk_css_provider_new ();
  gtk_css_provider_load_from_resource (css, "/io/github/nearbyweb/Nearby/style.css");
  gtk_style_context_add_provider_for_display (gdk_display_get_default (), GTK_STYLE_PROVIDER (css),
                                              GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);

  /* The list, not the first-run page. */
  settings = g_settings_new (APP_ID);
  g_settings_set_boolean (settings, "privacy-choice-made", TRUE);

  g_print ("bench-list-frames (%s build, GSK_RENDERER=%s, GTK_A11Y=%s): %u objects x %.1f "
           "sightings/s, %.0f s each phase\n", NEARBY_BUILDTYPE, g_getenv ("GSK_RENDERER"),
           g_getenv ("GTK_A11Y"), workload.n_objects, workload.rate, workload.seconds);

  still = run_phase ("baseline: constant RSSI", workload.n_objects, workload.rate, 0,
                     workload.seconds);
  churn_name = g_strdup_printf ("churn: RSSI noise %.0f dB", workload.noise_db);
  churn = run_phase (churn_name, workload.n_objects, workload.rate, workload.noise_db,
                     workload.seconds);

  g_print ("  %-30s %6s %8s %8s %8s %8s %8s %8s %7s %9s %9s %8s\n", "", "fps", "int p50",
           "int p99", "int max", "work p50", "work p99", "work max", "CPU s/s", "reorder/s",
           "rows/reo", "top10/s");
  g_print ("  %-30s %6s %8s %8s %8s %8s %8s %8s\n", "", "", "ms", "ms", "ms", "ms", "ms", "ms");
  print_phase (&still);
  print_phase (&churn);
  g_print ("  list changes handled (items-changed, list view included): baseline %u, longest "
           "%.1f ms; churn %u, longest %.1f ms\n", still.n_changes, still.change_max_ms,
           churn.n_changes, churn.change_max_ms);
  g_print ("  churn / baseline: frame interval p50 %.2f x, p99 %.2f x; frame work p99 %.2f x; "
           "fps %.2f x; CPU %.2f x\n",
           churn.interval_p50 / still.interval_p50, churn.interval_p99 / still.interval_p99,
           churn.work_p99 / still.work_p99, churn.fps / still.fps,
           churn.cpu_per_second / still.cpu_per_second);
  if (still.frozen || churn.frozen)
    g_print ("  the list was frozen (pointer or focus on it) at the end of a phase: "
             "reorders were held back\n");

  /* GTK keeps its session connection to the end: stop the bus without waiting for that. */
  g_test_dbus_stop (bus);

  return 0;
}
