/* btsnoop-writer.h: btsnoop captures written by the tests, record by record
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct {
  GByteArray *bytes;
  guint32     datalink;
} NearbyTestBtsnoop;

NearbyTestBtsnoop *nearby_test_btsnoop_new        (guint32            datalink);
/* Frees the writer and returns the file's bytes. */
GBytes            *nearby_test_btsnoop_free       (NearbyTestBtsnoop *writer);
gboolean           nearby_test_btsnoop_save       (NearbyTestBtsnoop *writer,
                                                   const char        *path);

/* A record as given: header fields and packet bytes. */
void               nearby_test_btsnoop_add_record (NearbyTestBtsnoop *writer,
                                                   guint32            original_len,
                                                   guint32            included_len,
                                                   guint32            flags,
                                                   gint64             unix_us,
                                                   const guint8      *packet,
                                                   gsize              len);
/* An HCI event from the controller, framed as the writer's datalink frames it. */
void               nearby_test_btsnoop_add_event  (NearbyTestBtsnoop *writer,
                                                   gint64             unix_us,
                                                   const GByteArray  *event);
/* A command from the host (which the reader must pass over). */
void               nearby_test_btsnoop_add_command (NearbyTestBtsnoop *writer,
                                                    gint64             unix_us);

/* An LE Meta event of @subevent, to which reports are added. */
GByteArray *nearby_test_le_event_new          (guint8        subevent);
void        nearby_test_le_event_add_legacy   (GByteArray   *event,
                                               guint8        event_type,
                                               guint8        address_type,
                                               const char   *address,
                                               const guint8 *ad,
                                               gsize         ad_len,
                                               gint8         rssi);
void        nearby_test_le_event_add_extended (GByteArray   *event,
                                               guint16       event_type,
                                               guint8        address_type,
                                               const char   *address,
                                               guint8        sid,
                                               const guint8 *ad,
                                               gsize         ad_len,
                                               gint8         rssi);
void        nearby_test_le_event_add_directed (GByteArray   *event,
                                               guint8        event_type,
                                               guint8        address_type,
                                               const char   *address,
                                               gint8         rssi);

/* The AD structures of an Eddystone-URL beacon for @url (flags, UUID list, service data).
 * Returns the length written to @out (at most 31 bytes). */
gsize       nearby_test_ad_eddystone_url      (const char   *url,
                                               gint8         tx_power,
                                               guint8        out[31]);

G_END_DECLS
