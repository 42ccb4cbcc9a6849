/* bench-list-model.c: CPU of the object list under RSSI churn, against minimal bookkeeping
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 *   meson test -C _build --benchmark bench-list-model --verbose
 *
 * 2 000 still beacons, each sighted 5 times a second with a noisy RSSI (10 000 sightings a
 * second), fed in process by a timer-driven NearbySource for 20 s, twice:
 *
 *   - floor: the sightings go into a GHashTable keyed by address that keeps the last RSSI (the
 *     least bookkeeping anything can do with them);
 *   - Nearby: the sightings go into a NearbyObjectList, as in the app (no window).
 *
 * CPU is getrusage(RUSAGE_SELF) over the measured seconds, source included in both. The same
 * run counts how often the list reorders its rows: the beacons do not move, only their RSSI is
 * noisy, so every reorder is one the person did not ask for. It counts them twice: right after
 * the beacons appeared (the CPU measurement), and again 100 s after, as the list settles.
 *
 * BENCH_LIST_OBJECTS, BENCH_LIST_RATE (per object per second), BENCH_LIST_SECONDS,
 * BENCH_LIST_NOISE (dB, standard deviation) and BENCH_LIST_LATE_START (s) change the load;
 * BENCH_LIST_CALM_START=1 gives every beacon's first sighting its mean RSSI.
 */

#include "config.h"

#include "bench-churn-source.h"
#include "bench-util.h"

#define WARM_UP_SECONDS 2.0
#define N_VISIBLE_ROWS  10

typedef struct {
  double  cpu_per_second;
  double  sightings_per_second;
} Load;

static void
on_floor_sighting (NearbySource         *source,
                   const NearbySighting *sighting,
                   GHashTable           *last_rssi)
{
  int *rssi = g_hash_table_lookup (last_rssi, sighting->address);

  if (rssi == NULL)
    {
      rssi = g_new (int, 1);
      g_hash_table_insert (last_rssi, g_strdup (sighting->address), rssi);
    }
  *rssi = sighting->rssi;
}

/* Why the rows moved: how many objects changed their ranking distance or bucket. */
typedef struct {
  GHashTable *rank_distance;   /* object -> last ranking distance, as a boxed double */
  GHashTable *bucket;
  guint64     n_distance_changes;
  guint64     n_bucket_changes;
} RankLog;

static void
on_list_changed (GListModel *model,
                 guint       position,
                 guint       removed,
                 guint       added,
                 RankLog    *log)
{
  guint n_items = g_list_model_get_n_items (model);

  for (guint i = 0; i < n_items; i++)
    {
      g_autoptr(NearbyObject) object = g_list_model_get_item (model, i);
      double distance = nearby_object_get_rank_distance (object);
      int bucket = nearby_object_get_bucket (object);
      double *known = g_hash_table_lookup (log->rank_distance, object);

      if (known == NULL)
        {
          known = g_new (double, 1);
          *known = distance;
          g_hash_table_insert (log->rank_distance, object, known);
          g_hash_table_insert (log->bucket, object, GINT_TO_POINTER (bucket + 1));
          continue;
        }
      if (*known != distance)
        log->n_distance_changes++;
      if (GPOINTER_TO_INT (g_hash_table_lookup (log->bucket, object)) != bucket + 1)
        log->n_bucket_changes++;
      *known = distance;
      g_hash_table_insert (log->bucket, object, GINT_TO_POINTER (bucket + 1));
    }
}

/* Runs @source for the warm-up, then measures it for @seconds. */
static Load
measure (BenchChurnSource *source,
         double            seconds,
         BenchOrderWatch  *watch,
         double            noise_after_start)
{
  Load load;
  double cpu_start;
  guint64 emitted_start;
  gint64 start_us;

  bench_churn_source_start (source);
  if (noise_after_start >= 0)
    bench_churn_source_set_noise (source, noise_after_start);
  nearby_test_run_for_ms ((guint) (WARM_UP_SECONDS * 1000));

  if (watch != NULL)
    bench_order_watch_reset (watch);
  emitted_start = bench_churn_source_get_n_emitted (source);
  cpu_start = nearby_test_cpu_seconds ();
  start_us = g_get_monotonic_time ();

  nearby_test_run_for_ms ((guint) (seconds * 1000));

  seconds = (g_get_monotonic_time () - start_us) / (double) G_USEC_PER_SEC;
  load.cpu_per_second = (nearby_test_cpu_seconds () - cpu_start) / seconds;
  load.sightings_per_second = (bench_churn_source_get_n_emitted (source) - emitted_start) / seconds;

  return load;
}

int
main (int   argc,
      char *argv[])
{
  BenchChurnLoad workload = bench_churn_load_from_env ();
  g_autoptr(BenchChurnSource) floor_source = NULL;
  g_autoptr(BenchChurnSource) list_source = NULL;
  g_autoptr(GHashTable) last_rssi = NULL;
  g_autoptr(NearbyObjectList) list = NULL;
  double late_start = bench_env_double ("BENCH_LIST_LATE_START", 100);
  gboolean calm_start = bench_env_double ("BENCH_LIST_CALM_START", 0) != 0;
  BenchOrderWatch watch, early, late;
  RankLog rank_log = { 0 };
  Load floor_load, list_load;

  g_print ("bench-list-model (%s build): %u objects x %.1f sightings/s, RSSI noise %.1f dB%s, "
           "%.0f s each\n", NEARBY_BUILDTYPE, workload.n_objects, workload.rate,
           workload.noise_db, calm_start ? " (not on the first sighting)" : "", workload.seconds);

  floor_source = bench_churn_source_new (workload.n_objects, workload.rate, workload.noise_db);
  last_rssi = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_signal_connect (floor_source, "sighting", G_CALLBACK (on_floor_sighting), last_rssi);
  floor_load = measure (floor_source, workload.seconds, NULL, -1);
  bench_churn_source_stop (floor_source);
  if (g_hash_table_size (last_rssi) != workload.n_objects)
    g_error ("The floor saw %u addresses, not %u", g_hash_table_size (last_rssi),
             workload.n_objects);

  /* With BENCH_LIST_CALM_START, every beacon's first sighting has its mean RSSI: what the
   * ranking does once it starts from the right distances. */
  list_source = bench_churn_source_new (workload.n_objects, workload.rate,
                                        calm_start ? 0 : workload.noise_db);
  list = nearby_object_list_new (NEARBY_SOURCE (list_source));
  bench_order_watch_init (&watch, G_LIST_MODEL (list), N_VISIBLE_ROWS);
  rank_log.rank_distance = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  rank_log.bucket = g_hash_table_new (NULL, NULL);
  g_signal_connect (list, "items-changed", G_CALLBACK (on_list_changed), &rank_log);
  list_load = measure (list_source, workload.seconds, &watch, calm_start ? workload.noise_db : -1);
  early = watch;

  /* The same list, later: how much of the churn is the settling of first impressions. */
  late_start = MAX (late_start, WARM_UP_SECONDS + workload.seconds);
  nearby_test_run_for_ms ((guint) ((late_start - WARM_UP_SECONDS - workload.seconds) * 1000));
  bench_order_watch_reset (&watch);
  nearby_test_run_for_ms ((guint) (workload.seconds * 1000));
  late = watch;
  bench_churn_source_stop (list_source);
  if (g_list_model_get_n_items (G_LIST_MODEL (list)) != workload.n_objects)
    g_error ("The list shows %u objects, not %u", g_list_model_get_n_items (G_LIST_MODEL (list)),
             workload.n_objects);

  g_print ("  %-40s %10s %14s\n", "", "CPU s/s", "sightings/s");
  g_print ("  %-40s %10.3f %14.0f\n", "floor: GHashTable address -> last RSSI",
           floor_load.cpu_per_second, floor_load.sightings_per_second);
  g_print ("  %-40s %10.3f %14.0f\n", "NearbyObjectList",
           list_load.cpu_per_second, list_load.sightings_per_second);
  g_print ("  list CPU = %.2f x floor (%.1f us per sighting, floor %.1f us)\n",
           list_load.cpu_per_second / floor_load.cpu_per_second,
           1e6 * list_load.cpu_per_second / list_load.sightings_per_second,
           1e6 * floor_load.cpu_per_second / floor_load.sightings_per_second);
  g_print ("  reorders of still beacons, %.0f - %.0f s after they appeared: %.2f/s, %.1f rows "
           "moved per reorder, %.2f rows/s among the first %u\n",
           WARM_UP_SECONDS, WARM_UP_SECONDS + workload.seconds, early.n_reorders / workload.seconds,
           early.n_reorders > 0 ? (double) early.n_rows_moved / early.n_reorders : 0.0,
           early.n_visible_moved / workload.seconds, N_VISIBLE_ROWS);
  g_print ("  reorders of still beacons, %.0f - %.0f s after they appeared: %.2f/s, %.1f rows "
           "moved per reorder, %.2f rows/s among the first %u\n",
           late_start, late_start + workload.seconds,
           late.n_reorders / workload.seconds,
           late.n_reorders > 0 ? (double) late.n_rows_moved / late.n_reorders : 0.0,
           late.n_visible_moved / workload.seconds, N_VISIBLE_ROWS);
  g_print ("  behind them: %" G_GUINT64_FORMAT " ranking-distance and %" G_GUINT64_FORMAT
           " bucket changes over the whole run\n",
           rank_log.n_distance_changes, rank_log.n_bucket_changes);

  g_signal_handlers_disconnect_by_data (list, &rank_log);
  g_hash_table_unref (rank_log.rank_distance);
  g_hash_table_unref (rank_log.bucket);
  bench_order_watch_clear (&watch);

  return 0;
}
