/* nearby-object-list.h: the objects around, ranked, as a GListModel
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "nearby-object.h"
#include "nearby-source.h"

G_BEGIN_DECLS

/* Returns the current time in microseconds, on the same clock as NearbySighting.time_us
 * (g_get_real_time() unless a test says otherwise). */
typedef gint64 (*NearbyClockFunc) (gpointer user_data);

#define NEARBY_OBJECT_LIST_STALE_TIMEOUT_DEFAULT  10000 /* ms */
#define NEARBY_OBJECT_LIST_EXPIRY_TIMEOUT_DEFAULT 30000 /* ms */
#define NEARBY_OBJECT_LIST_TICK_INTERVAL_DEFAULT  250   /* ms */
#define NEARBY_OBJECT_LIST_RANK_INTERVAL_DEFAULT  1000  /* ms */
/* While frozen, a shown object that expired stays (faded) so that the rows under the pointer do
 * not move, but for no longer than another expiry timeout, at most this long... */
#define NEARBY_OBJECT_LIST_FROZEN_KEEP_MAX        60000 /* ms */
/* ...and no more of them than this: past it, those heard longest ago leave. */
#define NEARBY_OBJECT_LIST_FROZEN_KEEP_MAX_OBJECTS 100

#define NEARBY_TYPE_OBJECT_LIST (nearby_object_list_get_type ())
G_DECLARE_FINAL_TYPE (NearbyObjectList, nearby_object_list, NEARBY, OBJECT_LIST, GObject)

/* @source may be NULL; more can be added. */
NearbyObjectList *nearby_object_list_new                 (NearbySource         *source);
void              nearby_object_list_add_source          (NearbyObjectList     *self,
                                                          NearbySource         *source);
/* What a source's "sighting" signal does; for sources that are not NearbySources. */
void              nearby_object_list_add_sighting        (NearbyObjectList     *self,
                                                          const NearbySighting *sighting);

/* Any object the list tracks, shown or filtered out. */
NearbyObject     *nearby_object_list_get_object_by_key   (NearbyObjectList     *self,
                                                          const char           *key);
NearbyObject     *nearby_object_list_get_object_by_address (NearbyObjectList   *self,
                                                            const char         *address);
guint             nearby_object_list_get_n_objects       (NearbyObjectList     *self);

/* Applies pending sightings now instead of at the next tick (tests, and the CLI at exit). */
void              nearby_object_list_flush               (NearbyObjectList     *self);
void              nearby_object_list_set_clock           (NearbyObjectList     *self,
                                                          NearbyClockFunc       clock,
                                                          gpointer              user_data);

guint             nearby_object_list_get_stale_timeout   (NearbyObjectList     *self);
void              nearby_object_list_set_stale_timeout   (NearbyObjectList     *self,
                                                          guint                 timeout_ms);
guint             nearby_object_list_get_expiry_timeout  (NearbyObjectList     *self);
void              nearby_object_list_set_expiry_timeout  (NearbyObjectList     *self,
                                                          guint                 timeout_ms);
guint             nearby_object_list_get_tick_interval   (NearbyObjectList     *self);
void              nearby_object_list_set_tick_interval   (NearbyObjectList     *self,
                                                          guint                 interval_ms);
guint             nearby_object_list_get_rank_interval   (NearbyObjectList     *self);
void              nearby_object_list_set_rank_interval   (NearbyObjectList     *self,
                                                          guint                 interval_ms);
gboolean          nearby_object_list_get_frozen          (NearbyObjectList     *self);
void              nearby_object_list_set_frozen          (NearbyObjectList     *self,
                                                          gboolean              frozen);
gboolean          nearby_object_list_get_held            (NearbyObjectList     *self);
void              nearby_object_list_set_held            (NearbyObjectList     *self,
                                                          gboolean              held);
gboolean          nearby_object_list_get_show_non_browsable (NearbyObjectList  *self);
void              nearby_object_list_set_show_non_browsable (NearbyObjectList  *self,
                                                             gboolean           show);
gboolean          nearby_object_list_get_show_invisible  (NearbyObjectList     *self);
void              nearby_object_list_set_show_invisible  (NearbyObjectList     *self,
                                                          gboolean              show);
double            nearby_object_list_get_path_loss_exponent (NearbyObjectList  *self);
void              nearby_object_list_set_path_loss_exponent (NearbyObjectList  *self,
                                                             double             exponent);
guint             nearby_object_list_get_n_invalid      (NearbyObjectList     *self);
guint64           nearby_object_list_get_n_sightings     (NearbyObjectList     *self);

G_END_DECLS
