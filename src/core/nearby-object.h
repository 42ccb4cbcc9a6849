/* nearby-object.h: one thing nearby, as the list shows it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "nearby-distance.h"
#include "nearby-frame.h"
#include "nearby-page.h"
#include "nearby-source.h"

G_BEGIN_DECLS

#define NEARBY_TYPE_BUCKET (nearby_bucket_get_type ())
GType nearby_bucket_get_type (void) G_GNUC_CONST;

/* How much signal history an object keeps for the inspector's graph. */
#define NEARBY_OBJECT_HISTORY_US (60 * G_USEC_PER_SEC)

typedef struct {
  gint64 time_us;
  double rssi;      /* smoothed, dBm */
  double distance;  /* smoothed, metres; negative when unknown */
} NearbyObjectSample;

/* One radio broadcasting the object: a beacon, or one address of a beacon that rotates them.
 * Owned by the object; valid until the list's next tick (which may forget silent devices). */
typedef struct _NearbyObjectDevice NearbyObjectDevice;

const char        *nearby_object_device_get_address   (const NearbyObjectDevice *device);
gint64             nearby_object_device_get_last_seen (const NearbyObjectDevice *device);
/* The configuration services (NearbyConfigOffer) the device said it offers in any sighting. */
guint              nearby_object_device_get_config_offer (const NearbyObjectDevice *device);
/* The last frame of @kind this device sent (a beacon rotates URL, UID, TLM... under one service
 * data key), or NULL. */
const NearbyFrame *nearby_object_device_get_frame     (const NearbyObjectDevice *device,
                                                       NearbyFrameKind           kind);
/* The service or manufacturer data that frame was decoded from, or NULL (and *@len 0) when the
 * source gave none. */
const guint8      *nearby_object_device_get_raw       (const NearbyObjectDevice *device,
                                                       NearbyFrameKind           kind,
                                                       gsize                    *len);
const NearbyRssiFilter *nearby_object_device_get_filter (const NearbyObjectDevice *device);

#define NEARBY_TYPE_OBJECT (nearby_object_get_type ())
G_DECLARE_FINAL_TYPE (NearbyObject, nearby_object, NEARBY, OBJECT, GObject)

/* Longest key: a URL frame's URL, or an identity such as "ibeacon:UUID/major/minor". */
#define NEARBY_OBJECT_KEY_MAX (NEARBY_FRAME_URL_MAX + 64)

/* Writes the key a valid @frame from @address files under into @key and returns how strongly
 * it identifies the object: 3 for a URL, 2 for an Eddystone-UID, 1 for an iBeacon, 0 for
 * frames that say nothing stable (TLM, ETLM, EID: the key is then "address:ADDRESS"). */
int           nearby_object_key_for_frame   (const NearbyFrame    *frame,
                                             const char           *address,
                                             char                  key[NEARBY_OBJECT_KEY_MAX]);

NearbyObject *nearby_object_new             (const char           *key);

const char   *nearby_object_get_key         (NearbyObject         *self);
const char   *nearby_object_get_url         (NearbyObject         *self);
gboolean      nearby_object_get_browsable   (NearbyObject         *self);
gboolean      nearby_object_get_invisible   (NearbyObject         *self);
double        nearby_object_get_distance    (NearbyObject         *self);
NearbyBucket  nearby_object_get_bucket      (NearbyObject         *self);
double        nearby_object_get_rssi        (NearbyObject         *self);
int           nearby_object_get_tx_power    (NearbyObject         *self);
gint64        nearby_object_get_first_seen  (NearbyObject         *self);
gint64        nearby_object_get_last_seen   (NearbyObject         *self);
gboolean      nearby_object_get_stale       (NearbyObject         *self);

/* Filled by the resolver. */
const char   *nearby_object_get_title       (NearbyObject         *self);
void          nearby_object_set_title       (NearbyObject         *self,
                                             const char           *title);
const char   *nearby_object_get_description (NearbyObject         *self);
void          nearby_object_set_description (NearbyObject         *self,
                                             const char           *description);
GBytes       *nearby_object_get_icon_data   (NearbyObject         *self);
const char   *nearby_object_get_icon_type   (NearbyObject         *self);
void          nearby_object_set_icon        (NearbyObject         *self,
                                             GBytes               *icon_data,
                                             const char           *icon_type);

/* The resolver's result; sets title, description and icon when it found the page. */
NearbyPage   *nearby_object_get_page        (NearbyObject         *self);
void          nearby_object_set_page        (NearbyObject         *self,
                                             NearbyPage           *page);

/* Filled from the history; they change the ranking. */
gboolean      nearby_object_get_favourite   (NearbyObject         *self);
void          nearby_object_set_favourite   (NearbyObject         *self,
                                             gboolean              favourite);
guint         nearby_object_get_visit_count (NearbyObject         *self);
void          nearby_object_set_visit_count (NearbyObject         *self,
                                             guint                 visit_count);
gint64        nearby_object_get_last_visit  (NearbyObject         *self);
void          nearby_object_set_last_visit  (NearbyObject         *self,
                                             gint64                last_visit_us);
/* A suggested "history-score" from the history's visit statistics: grows with the number of
 * visits (logarithmically, so a daily habit does not bury everything else) and halves for every
 * two weeks since the last one. 0 for never visited. */
double        nearby_object_compute_history_score (guint              visit_count,
                                                   gint64             last_visit_us,
                                                   gint64             now_us);
double        nearby_object_get_history_score (NearbyObject       *self);
void          nearby_object_set_history_score (NearbyObject       *self,
                                               double              score);

guint         nearby_object_get_n_devices   (NearbyObject         *self);
const NearbyObjectDevice *
              nearby_object_get_device      (NearbyObject         *self,
                                             guint                 index);
const NearbyObjectDevice *
              nearby_object_lookup_device   (NearbyObject         *self,
                                             const char           *address);
/* The smoothed signal of the last minute, oldest first. */
GArray       *nearby_object_dup_samples     (NearbyObject         *self);

/* For NearbyObjectList: sightings go in without notifications; nearby_object_refresh() then
 * recomputes what is shown and notifies, at most once per list tick. */
void          nearby_object_add_sighting    (NearbyObject               *self,
                                             const NearbySighting       *sighting,
                                             const NearbyDistanceConfig *config);
/* Changes the model (path-loss exponent, boundaries) of every device; the next refresh shows it. */
void          nearby_object_set_distance_config (NearbyObject           *self,
                                                 const NearbyDistanceConfig *config);
/* Moves the device with @address (and its history) from @self to @target. */
void          nearby_object_move_device     (NearbyObject               *self,
                                             const char                 *address,
                                             NearbyObject               *target);
/* Recomputes distance, bucket and staleness at @now_us, drops devices silent for longer than
 * @forget_after_us (appending their addresses to @forgotten) and notifies what changed.
 * Returns TRUE when something the ranking depends on changed since the last call. */
gboolean      nearby_object_refresh         (NearbyObject               *self,
                                             gint64                      now_us,
                                             gint64                      stale_after_us,
                                             gint64                      forget_after_us,
                                             GPtrArray                  *forgotten);
/* The distance the ranking uses: it moves only when a change of the signal is certain (the calm
 * ranking's change test; with the old ranking, a 1.5x change of the smoothed distance), so that
 * rows do not swap places while nothing moves. */
double        nearby_object_get_rank_distance (NearbyObject             *self);

/* For the list (and, through it, bench-list-calm's baseline): FALSE ranks @self as Nearby 0.x
 * did. TRUE (the default) is the calm ranking. */
void          _nearby_object_set_calm_ranking (NearbyObject           *self,
                                               gboolean                calm);
gboolean      nearby_object_get_calm_ranking  (NearbyObject           *self);

G_END_DECLS
