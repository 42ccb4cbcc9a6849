/* nearby-object-private.h: what the object and its devices share
 *
 * NearbyObject spans two files: nearby-object.c (the GObject: identity, page, history) and
 * nearby-object-devices.c (the radios broadcasting it: sightings, smoothing, distance shown).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "nearby-object.h"

G_BEGIN_DECLS

typedef struct
{
  NearbyFrame frame;
  /* The bytes the frame was decoded from, for the inspector; raw_len 0 when the source had none. */
  gsize       raw_len;
  guint8      raw[NEARBY_ADV_MAX];
} NearbyDeviceFrame;

struct _NearbyObjectDevice
{
  char              *address;
  gint64             first_seen_us;
  gint64             last_seen_us;
  guint              config_offer;
  NearbyRssiFilter   filter;
  /* The signal as the ranking sees it (see nearby-distance.h). */
  NearbyRankFilter   rank_filter;
  /* The last frame of each kind, allocated when the kind is first seen: a beacon sends one or
   * two kinds of the six, and a slot is 300 bytes. */
  NearbyDeviceFrame *frames[NEARBY_FRAME_N_KINDS];
};

struct _NearbyObject
{
  GObject             parent_instance;

  char               *key;
  char               *url;
  gboolean            browsable;
  gboolean            invisible;

  /* What is shown; recomputed by nearby_object_refresh(). */
  double              distance;
  double              rank_distance;
  /* The level (dBm) the calm ranking last took from the nearest device's rank filter. 127: none
   * yet. */
  double              rank_rssi;
  /* FALSE: the ranking of Nearby 0.x (rank distance anchored by a 1.5x factor, the bucket of the
   * displayed average), kept for bench-list-calm's baseline. */
  gboolean            calm_ranking;
  NearbyBucket        bucket;
  double              rssi;
  int                 tx_power;
  gint64              first_seen_us;
  gint64              last_seen_us;
  gint64              notified_first_seen_us;
  gint64              notified_last_seen_us;
  gboolean            stale;
  gboolean            rank_changed;

  /* Devices in order for the inspector, and by address once there are DEVICES_INDEXED_FROM. */
  GPtrArray          *devices;
  GHashTable         *devices_by_address;

  NearbyObjectSample *samples;
  guint               samples_capacity;
  guint               samples_start;
  guint               samples_len;

  char               *title;
  char               *description;
  GBytes             *icon_data;
  char               *icon_type;
  gboolean            favourite;
  guint               visit_count;
  gint64              last_visit_us;
  double              history_score;

  NearbyPage         *page;
};

typedef enum {
  PROP_0,
  PROP_KEY,
  PROP_URL,
  PROP_BROWSABLE,
  PROP_INVISIBLE,
  PROP_DISTANCE,
  PROP_BUCKET,
  PROP_RSSI,
  PROP_TX_POWER,
  PROP_FIRST_SEEN,
  PROP_LAST_SEEN,
  PROP_STALE,
  PROP_TITLE,
  PROP_DESCRIPTION,
  PROP_ICON_DATA,
  PROP_ICON_TYPE,
  PROP_FAVOURITE,
  PROP_VISIT_COUNT,
  PROP_LAST_VISIT,
  PROP_HISTORY_SCORE,
  PROP_PAGE,
  N_PROPS
} NearbyObjectProperty;

void _nearby_object_notify      (NearbyObject         *self,
                                 NearbyObjectProperty  prop_id);
void _nearby_object_device_free (NearbyObjectDevice   *device);

G_END_DECLS
