/* nearby-advert.h: the beacon frames in a Device1's ServiceData and ManufacturerData
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

#include "nearby-frame.h"

G_BEGIN_DECLS

/* A ServiceData dict holds one entry per UUID the device ever advertised: a handful at most. */
#define NEARBY_ADVERT_MAX_FRAMES 8

typedef struct {
  NearbyFrame   frame;
  const guint8 *raw;      /* points into the variant it was decoded from */
  gsize         raw_len;
} NearbyAdvertFrame;

/* Decodes the beacon frames of a Device1 ServiceData (a{sv} of ay) and ManufacturerData
 * (a{qv} of ay). Either may be NULL or of any type: wrong types yield no frames. Frames that are
 * not beacons at all are left out; invalid beacon frames are kept, with their error. */
guint nearby_advert_decode (GVariant          *service_data,
                            GVariant          *manufacturer_data,
                            NearbyAdvertFrame  frames[NEARBY_ADVERT_MAX_FRAMES]);

/* One AD structure of an advertising payload: its type and the bytes after it. */
typedef struct {
  guint8        type;
  const guint8 *value;
  gsize         len;
} NearbyAdStructure;

/* Steps through the AD structures of @payload from *@pos (0 to start), skipping the zeros that
 * pad a legacy advertisement: TRUE with the next one in @ad, FALSE at the end or at a structure
 * that runs past it. */
gboolean nearby_advert_next_structure (const guint8      *payload,
                                       gsize              len,
                                       gsize             *pos,
                                       NearbyAdStructure *ad);

/* The same frames from the AD structures of an advertising report as the controller passed it
 * on (a capture's), so that a capture shows what a live scan of the same radio would: service
 * data of the Eddystone and UriBeacon UUIDs, Apple's manufacturer data. A structure that runs
 * past the end ends the walk; the frames before it are kept. */
guint nearby_advert_decode_payload (const guint8      *payload,
                                    gsize              len,
                                    NearbyAdvertFrame  frames[NEARBY_ADVERT_MAX_FRAMES]);

G_END_DECLS
