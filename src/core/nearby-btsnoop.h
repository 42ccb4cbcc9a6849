/* nearby-btsnoop.h: the advertising reports in a btsnoop capture (Android's HCI snoop log,
 * `btmon -w`)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define NEARBY_BTSNOOP_MAGIC     "btsnoop\0"
#define NEARBY_BTSNOOP_MAGIC_LEN 8

/* The datalinks that carry HCI events: what Android writes (1001, 1002) and what btmon writes. */
#define NEARBY_BTSNOOP_DATALINK_HCI_UNENCAPSULATED 1001
#define NEARBY_BTSNOOP_DATALINK_HCI_UART           1002
#define NEARBY_BTSNOOP_DATALINK_LINUX_MONITOR      2001

/* Microseconds from 1 January of year 0 (the format's epoch) to the Unix epoch. */
#define NEARBY_BTSNOOP_UNIX_EPOCH_US G_GINT64_CONSTANT (0x00dcddb30f2f8000)

/* The LE Meta subevents that carry advertising reports. */
#define NEARBY_BTSNOOP_LE_ADVERTISING_REPORT          0x02
#define NEARBY_BTSNOOP_LE_DIRECTED_ADVERTISING_REPORT 0x0B
#define NEARBY_BTSNOOP_LE_EXTENDED_ADVERTISING_REPORT 0x0D

/* An extended advertisement reassembled from its fragments is at most this long. */
#define NEARBY_BTSNOOP_AD_MAX 1650

typedef enum {
  NEARBY_BTSNOOP_ADDRESS_PUBLIC,
  NEARBY_BTSNOOP_ADDRESS_RANDOM_STATIC,
  NEARBY_BTSNOOP_ADDRESS_RESOLVABLE,      /* random, resolvable private */
  NEARBY_BTSNOOP_ADDRESS_NON_RESOLVABLE,  /* random, non-resolvable private */
  NEARBY_BTSNOOP_ADDRESS_ANONYMOUS,       /* an extended advertisement without an address */
} NearbyBtsnoopAddressType;

/* "public", "random-static", "resolvable", "non-resolvable", "anonymous" */
const char *nearby_btsnoop_address_type_to_string (NearbyBtsnoopAddressType type);

/* One advertising report: what the controller heard from one device at one moment. */
typedef struct {
  guint                     record;       /* the record it ended in, counting from 1 */
  gint64                    time_us;      /* Unix time, from the record's timestamp */
  guint8                    subevent;     /* NEARBY_BTSNOOP_LE_*_REPORT */
  guint16                   event_type;   /* the report's event type or properties, as sent */
  NearbyBtsnoopAddressType  address_type;
  char                      address[18];  /* "C0:FF:EE:00:00:01", most significant byte first */
  int                       rssi;         /* dBm; 127 means unavailable */
  gboolean                  truncated;    /* extended: the controller gave up on the rest */
  const guint8             *data;         /* AD structures (NULL when none); valid until
                                           * the next call */
  gsize                     data_len;
} NearbyBtsnoopReport;

typedef struct _NearbyBtsnoopReader NearbyBtsnoopReader;

/* TRUE when @data starts as a btsnoop file does. */
gboolean             nearby_btsnoop_has_magic  (const guint8  *data,
                                                gsize          len);

/* Reads the file header of @bytes; NULL with a G_IO_ERROR_INVALID_DATA error for a file that
 * is not a btsnoop capture, of another version, or of a datalink without HCI events. */
NearbyBtsnoopReader *nearby_btsnoop_reader_new (GBytes        *bytes,
                                                GError       **error);
void                 nearby_btsnoop_reader_free (NearbyBtsnoopReader *self);

/* The next advertising report, in file order: TRUE and @report filled. FALSE with @error set
 * for a record that cannot be read (the message starts "record N: "): calling again goes on
 * with the next record whose place is known. FALSE without an error at the end. */
gboolean             nearby_btsnoop_reader_next (NearbyBtsnoopReader  *self,
                                                 NearbyBtsnoopReport  *report,
                                                 GError              **error);

guint32              nearby_btsnoop_reader_get_datalink  (NearbyBtsnoopReader *self);
/* Records read so far. */
guint                nearby_btsnoop_reader_get_n_records (NearbyBtsnoopReader *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (NearbyBtsnoopReader, nearby_btsnoop_reader_free)

G_END_DECLS
