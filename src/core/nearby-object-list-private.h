/* nearby-object-list-private.h: what the list's two files share
 *
 * NearbyObjectList spans nearby-object-list.c (the GObject, its settings and sources, and how
 * sightings are merged into objects) and nearby-object-list-tick.c (what each tick does: expiry,
 * filters, ranking, and the batched changes of the model).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "nearby-object-list.h"

G_BEGIN_DECLS

struct _NearbyObjectList
{
  GObject               parent_instance;

  GPtrArray            *sources;

  /* Every object tracked, in the order first seen; the key table owns the references. */
  GHashTable           *objects_by_key;
  GPtrArray            *objects;
  /* Which object each radio address currently feeds. */
  GHashTable           *objects_by_address;

  /* The model: the shown objects in shown order, and the same as a set. */
  GPtrArray            *items;
  GHashTable           *shown;

  GPtrArray            *added;    /* created since the last tick, announced then */
  GPtrArray            *forgotten_addresses;

  NearbyDistanceConfig  distance_config;
  NearbyClockFunc       clock;
  gpointer              clock_data;

  guint                 tick_id;
  gint64                tick_due_us;   /* monotonic */
  guint                 prompt_tick_id;
  gint64                last_prompt_tick_us;
  gint64                last_rank_us;
  gboolean              ranked_once;
  gboolean              rank_wanted;

  guint                 stale_timeout_ms;
  guint                 expiry_timeout_ms;
  guint                 tick_interval_ms;
  guint                 rank_interval_ms;
  gboolean              frozen;
  /* Nobody sees the model: the objects' notifications wait here, frozen, and the model's
   * changes wait for the release. */
  gboolean              held;
  GPtrArray            *held_objects;
  /* FALSE: rank as Nearby 0.x did (bench-list-calm's baseline). */
  gboolean              calm_ranking;
  gboolean              show_non_browsable;
  gboolean              show_invisible;

  guint                 n_invalid;
  guint                 notified_n_invalid;
  guint64               n_sightings;
};


typedef enum {
  PROP_0,
  PROP_STALE_TIMEOUT,
  PROP_EXPIRY_TIMEOUT,
  PROP_TICK_INTERVAL,
  PROP_RANK_INTERVAL,
  PROP_FROZEN,
  PROP_HELD,
  PROP_SHOW_NON_BROWSABLE,
  PROP_SHOW_INVISIBLE,
  PROP_PATH_LOSS_EXPONENT,
  PROP_N_INVALID,
  PROP_N_ITEMS,
  N_PROPS
} NearbyObjectListProperty;

gint64 _nearby_object_list_now                  (NearbyObjectList         *self);
void   _nearby_object_list_notify               (NearbyObjectList         *self,
                                                 NearbyObjectListProperty  prop_id);
void   _nearby_object_list_emit_object_added    (NearbyObjectList         *self,
                                                 NearbyObject             *object);
void   _nearby_object_list_forget_object        (NearbyObjectList         *self,
                                                 NearbyObject             *object);

/* For bench-list-calm: FALSE ranks objects created from now on as Nearby 0.x did. */
void   _nearby_object_list_set_calm_ranking     (NearbyObjectList         *self,
                                                 gboolean                  calm);

void   _nearby_object_list_ensure_ticking       (NearbyObjectList         *self);
void   _nearby_object_list_schedule_prompt_tick (NearbyObjectList         *self);

G_END_DECLS
