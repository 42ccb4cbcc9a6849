/* bench-churn-source.c
 *
 * An in-process source driven by a timer: what the list and the window do with a flood of
 * sightings, without the D-Bus path in between (bench-scan measures that one).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "bench-churn-source"

#include "config.h"

#include <math.h>
#include <string.h>

#include "bench-churn-source.h"
#include "bench-util.h"
#include "nearby-distance.h"

#define TICK_MS        10
#define N_NOISE        8192
#define TX_POWER_0M    -20
#define NEAREST_M      0.5
#define FARTHEST_M     30.0

struct _BenchChurnSource
{
  GObject          parent_instance;

  GPtrArray       *sightings;   /* one per beacon, re-stamped and re-sent */
  double          *mean_rssi;
  double          *noise;       /* standard normal samples */
  guint            noise_next;
  double           noise_db;
  double           total_rate;

  guint            tick_id;
  gint64           started_us;
  guint64          n_emitted;
  guint            next_beacon;
  NearbySourceState state;
};

static void bench_churn_source_iface_init (NearbySourceInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (BenchChurnSource, bench_churn_source, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (NEARBY_TYPE_SOURCE,
                                                      bench_churn_source_iface_init))

enum {
  PROP_0,
  PROP_STATE,
  PROP_STATE_MESSAGE,
  N_PROPS
};

static void
bench_churn_source_iface_init (NearbySourceInterface *iface)
{
}

BenchChurnSource *
bench_churn_source_new (guint  n_beacons,
                        double rate_per_beacon,
                        double noise_db)
{
  BenchChurnSource *self = g_object_new (BENCH_TYPE_CHURN_SOURCE, NULL);
  g_autoptr(GRand) rand = g_rand_new_with_seed (42);

  g_return_val_if_fail (n_beacons > 0, NULL);

  self->sightings = g_ptr_array_new_with_free_func ((GDestroyNotify) nearby_sighting_free);
  self->mean_rssi = g_new (double, n_beacons);
  for (guint i = 0; i < n_beacons; i++)
    {
      /* Spread evenly on a log scale, as the ranking sees distance. */
      double fraction = n_beacons > 1 ? (double) i / (n_beacons - 1) : 0.0;
      double distance = NEAREST_M * pow (FARTHEST_M / NEAREST_M, fraction);

      g_ptr_array_add (self->sightings, bench_beacon_sighting (i, 0, NEARBY_RSSI_UNKNOWN));
      self->mean_rssi[i] = nearby_distance_expected_rssi (TX_POWER_0M, distance,
                                                          NEARBY_PATH_LOSS_DEFAULT);
    }

  /* Box-Muller, once: drawing it per sighting would be the source's cost, not the list's. */
  self->noise = g_new (double, N_NOISE);
  for (guint i = 0; i < N_NOISE; i++)
    {
      double u1 = MAX (g_rand_double (rand), 1e-9);
      double u2 = g_rand_double (rand);

      self->noise[i] = sqrt (-2.0 * log (u1)) * cos (2 * G_PI * u2);
    }

  self->noise_db = noise_db;
  self->total_rate = n_beacons * rate_per_beacon;

  return self;
}

static void
emit_next (BenchChurnSource *self,
           gint64            now_real_us)
{
  NearbySighting *sighting = g_ptr_array_index (self->sightings, self->next_beacon);
  double rssi = self->mean_rssi[self->next_beacon];

  if (self->noise_db > 0)
    {
      rssi += self->noise[self->noise_next] * self->noise_db;
      self->noise_next = (self->noise_next + 1) % N_NOISE;
    }

  sighting->rssi = (int) CLAMP (round (rssi), -110, -20);
  sighting->time_us = now_real_us;
  nearby_source_emit_sighting (NEARBY_SOURCE (self), sighting);

  self->n_emitted++;
  self->next_beacon = (self->next_beacon + 1) % self->sightings->len;
}

/* Emits what is due since the start, so that a late tick catches up and the rate holds. */
static gboolean
on_tick (gpointer user_data)
{
  BenchChurnSource *self = user_data;
  gint64 elapsed_us = g_get_monotonic_time () - self->started_us;
  guint64 due = (guint64) (elapsed_us * self->total_rate / G_USEC_PER_SEC);
  gint64 now_real_us = g_get_real_time ();

  while (self->n_emitted < due)
    emit_next (self, now_real_us);

  return G_SOURCE_CONTINUE;
}

void
bench_churn_source_start (BenchChurnSource *self)
{
  g_return_if_fail (BENCH_IS_CHURN_SOURCE (self));

  if (self->tick_id != 0)
    return;

  self->n_emitted = 0;
  self->started_us = g_get_monotonic_time ();
  self->tick_id = g_timeout_add (TICK_MS, on_tick, self);
  /* Every beacon once at once: the list has them all from the first tick on. */
  for (guint i = 0; i < self->sightings->len; i++)
    emit_next (self, g_get_real_time ());
  self->n_emitted = 0;

  self->state = NEARBY_SOURCE_STATE_SCANNING;
  g_object_notify (G_OBJECT (self), "state");
}

void
bench_churn_source_stop (BenchChurnSource *self)
{
  g_return_if_fail (BENCH_IS_CHURN_SOURCE (self));

  g_clear_handle_id (&self->tick_id, g_source_remove);
}

void
bench_churn_source_set_noise (BenchChurnSource *self,
                              double            noise_db)
{
  g_return_if_fail (BENCH_IS_CHURN_SOURCE (self));

  self->noise_db = noise_db;
}

BenchChurnLoad
bench_churn_load_from_env (void)
{
  BenchChurnLoad load = {
    .n_objects = (guint) bench_env_double ("BENCH_LIST_OBJECTS", 2000),
    .rate = bench_env_double ("BENCH_LIST_RATE", 5),
    .noise_db = bench_env_double ("BENCH_LIST_NOISE", 3),
    .seconds = bench_env_double ("BENCH_LIST_SECONDS", 20),
  };

  return load;
}

guint64
bench_churn_source_get_n_emitted (BenchChurnSource *self)
{
  g_return_val_if_fail (BENCH_IS_CHURN_SOURCE (self), 0);

  return self->n_emitted;
}

static void
bench_churn_source_finalize (GObject *object)
{
  BenchChurnSource *self = BENCH_CHURN_SOURCE (object);

  g_clear_handle_id (&self->tick_id, g_source_remove);
  g_clear_pointer (&self->sightings, g_ptr_array_unref);
  g_free (self->mean_rssi);
  g_free (self->noise);

  G_OBJECT_CLASS (bench_churn_source_parent_class)->finalize (object);
}

static void
bench_churn_source_get_property (GObject    *object,
                                 guint       prop_id,
                                 GValue     *value,
                                 GParamSpec *pspec)
{
  BenchChurnSource *self = BENCH_CHURN_SOURCE (object);

  switch (prop_id)
    {
    case PROP_STATE:
      g_value_set_enum (value, self->state);
      break;

    case PROP_STATE_MESSAGE:
      g_value_set_string (value, NULL);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
bench_churn_source_class_init (BenchChurnSourceClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = bench_churn_source_finalize;
  object_class->get_property = bench_churn_source_get_property;

  g_object_class_override_property (object_class, PROP_STATE, "state");
  g_object_class_override_property (object_class, PROP_STATE_MESSAGE, "state-message");
}

static void
bench_churn_source_init (BenchChurnSource *self)
{
  self->state = NEARBY_SOURCE_STATE_STARTING;
}

/* Counting reorders, for the list benchmarks */

static void
snapshot_order (BenchOrderWatch *watch)
{
  guint n_items = g_list_model_get_n_items (watch->model);

  g_ptr_array_set_size (watch->order, 0);
  for (guint i = 0; i < n_items; i++)
    {
      g_autoptr(GObject) item = g_list_model_get_item (watch->model, i);

      g_ptr_array_add (watch->order, item);
    }
}

static void
on_items_changed (GListModel      *model,
                  guint            position,
                  guint            removed,
                  guint            added,
                  BenchOrderWatch *watch)
{
  if (removed == added && removed > 0)
    {
      guint moved = 0;
      guint visible_moved = 0;

      for (guint i = position; i < position + added; i++)
        {
          g_autoptr(GObject) item = g_list_model_get_item (model, i);

          if (item != g_ptr_array_index (watch->order, i))
            {
              moved++;
              if (i < watch->n_visible)
                visible_moved++;
            }
        }

      if (moved > 0)
        {
          watch->n_reorders++;
          watch->n_rows_moved += moved;
          watch->n_visible_moved += visible_moved;
        }
    }
  else
    {
      watch->n_other_changes++;
    }

  snapshot_order (watch);
}

void
bench_order_watch_init (BenchOrderWatch *watch,
                        GListModel      *model,
                        guint            n_visible)
{
  memset (watch, 0, sizeof *watch);
  watch->model = g_object_ref (model);
  watch->order = g_ptr_array_new ();
  watch->n_visible = n_visible;
  snapshot_order (watch);
  watch->handler_id = g_signal_connect (model, "items-changed", G_CALLBACK (on_items_changed),
                                        watch);
}

void
bench_order_watch_reset (BenchOrderWatch *watch)
{
  watch->n_reorders = 0;
  watch->n_rows_moved = 0;
  watch->n_visible_moved = 0;
  watch->n_other_changes = 0;
}

void
bench_order_watch_clear (BenchOrderWatch *watch)
{
  if (watch->model == NULL)
    return;

  g_clear_signal_handler (&watch->handler_id, watch->model);
  g_clear_pointer (&watch->order, g_ptr_array_unref);
  g_clear_object (&watch->model);
}
