/* nearby-source.h: anything that reports beacon sightings
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "nearby-frame.h"

G_BEGIN_DECLS

#define NEARBY_RSSI_UNKNOWN 127

/* The beacon configuration services a device says it offers: BlueZ lists the service UUIDs a
 * device advertises in Device1's UUIDs (and, once connected, those it resolved). */
typedef enum {
  NEARBY_CONFIG_OFFER_EDDYSTONE = 1 << 0,   /* a3c87500-8ed3-4bdf-8a39-a01bebede295 */
  NEARBY_CONFIG_OFFER_URIBEACON = 1 << 1,   /* ee0c2080-8786-40ba-ab96-99b91ac981d8 */
} NearbyConfigOffer;

/* One advertisement (or one changed property) seen from one device. */
typedef struct {
  char        *address;      /* as the source reports it, e.g. "C0:FF:EE:00:00:01" */
  gint64       time_us;      /* g_get_real_time() when it was observed */
  int          rssi;         /* dBm, or NEARBY_RSSI_UNKNOWN */
  NearbyFrame  frame;        /* decoded frame, possibly with an error */
  guint8       raw[NEARBY_ADV_MAX];
  gsize        raw_len;      /* the service or manufacturer data the frame came from */
  guint        config_offer; /* NearbyConfigOffer flags; 0 when the source does not know */
} NearbySighting;

#define NEARBY_TYPE_SIGHTING (nearby_sighting_get_type ())
GType           nearby_sighting_get_type (void) G_GNUC_CONST;
NearbySighting *nearby_sighting_new      (const char           *address,
                                          gint64                time_us,
                                          int                   rssi,
                                          const NearbyFrame    *frame,
                                          const guint8         *raw,
                                          gsize                 raw_len);
NearbySighting *nearby_sighting_copy     (const NearbySighting *sighting);
void            nearby_sighting_free     (NearbySighting       *sighting);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (NearbySighting, nearby_sighting_free)

typedef enum {
  NEARBY_SOURCE_STATE_STARTING,        /* not known yet */
  NEARBY_SOURCE_STATE_NO_SERVICE,      /* bluetoothd is not running */
  NEARBY_SOURCE_STATE_NO_ADAPTER,
  NEARBY_SOURCE_STATE_OFF,             /* adapter not powered */
  NEARBY_SOURCE_STATE_RFKILL_BLOCKED,  /* airplane mode or a radio switch, or not ready */
  NEARBY_SOURCE_STATE_SCANNING,
  NEARBY_SOURCE_STATE_FINISHED,        /* a finite source (a replay) has nothing more */
  NEARBY_SOURCE_STATE_ERROR,
} NearbySourceState;

#define NEARBY_TYPE_SOURCE_STATE (nearby_source_state_get_type ())
GType nearby_source_state_get_type (void) G_GNUC_CONST;
const char *nearby_source_state_to_string (NearbySourceState state);

#define NEARBY_TYPE_SOURCE (nearby_source_get_type ())
G_DECLARE_INTERFACE (NearbySource, nearby_source, NEARBY, SOURCE, GObject)

/* Implementations have the properties "state" (NearbySourceState) and "state-message"
 * (a human sentence for the state, NULL when scanning) and emit "sighting". */
struct _NearbySourceInterface
{
  GTypeInterface parent_iface;

  void (*sighting) (NearbySource         *self,
                    const NearbySighting *sighting);

  /* Optional: see nearby_source_dup_display_host(). */
  char *(*dup_display_host) (NearbySource *self,
                             const char   *url);
};

NearbySourceState nearby_source_get_state         (NearbySource         *self);
char             *nearby_source_dup_state_message (NearbySource         *self);
void              nearby_source_emit_sighting     (NearbySource         *self,
                                                   const NearbySighting *sighting);
/* The host a made-up object of @url stands for (the demo's street), for rows to show instead of
 * where its page is really served; NULL for every real object. */
char             *nearby_source_dup_display_host  (NearbySource         *self,
                                                   const char           *url);

/* For implementations that keep their state in @state and @message (owned by the source): sets
 * them and notifies "state" and "state-message" for what changed, once both hold their new
 * values, so that a handler of one sees the other up to date. */
void              nearby_source_update_state      (NearbySource         *self,
                                                   NearbySourceState    *state,
                                                   char                **message,
                                                   NearbySourceState     new_state,
                                                   const char           *new_message);

G_END_DECLS
