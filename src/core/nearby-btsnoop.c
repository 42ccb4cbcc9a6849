/* nearby-btsnoop.c: the advertising reports in a btsnoop capture
 *
 * The format is RFC 1761's snoop with Bluetooth datalinks: a 16-byte header (magic, version 1,
 * datalink), then records of a 24-byte big-endian header (original length, included length,
 * flags, cumulative drops, microseconds since year 0) and the packet. Only HCI events matter
 * here, and of them only the LE Meta subevents that carry advertising reports.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "nearby-btsnoop"

#include "config.h"

#include <gio/gio.h>
#include <glib/gi18n.h>
#include <string.h>

#include "nearby-btsnoop.h"

#define FILE_HEADER_LEN   16
#define RECORD_HEADER_LEN 24

#define H4_EVENT           0x04
#define MONITOR_EVENT_PKT  3
#define HCI_EVENT_LE_META  0x3E

/* Extended report event type bits 5-6: the data status. */
#define EXT_STATUS_COMPLETE   0
#define EXT_STATUS_MORE       1
#define EXT_STATUS_TRUNCATED  2

#define LEGACY_REPORT_HEADER_LEN   9   /* event type, address type, address, data length */
#define DIRECTED_REPORT_LEN        16
#define EXTENDED_REPORT_HEADER_LEN 24

typedef struct {
  guint8                   subevent;
  guint16                  event_type;
  NearbyBtsnoopAddressType address_type;
  char                     address[18];
  int                      rssi;
  gboolean                 truncated;
  gsize                    offset;       /* of its data in scratch */
  gsize                    len;
} QueuedReport;

struct _NearbyBtsnoopReader
{
  GBytes       *bytes;
  const guint8 *data;
  gsize         len;
  gsize         pos;
  guint32       datalink;
  gboolean      ended;

  guint         record;
  gint64        record_time_us;

  /* The reports of the record being read, their data in scratch, and what was wrong after
   * them, to be said once they are out. */
  GArray       *queue;
  guint         queue_next;
  GByteArray   *scratch;
  GError       *pending_error;

  /* Extended advertising data still coming: by address, address type and set (SID). */
  GHashTable   *fragments;
};

static guint32
read_be32 (const guint8 *p)
{
  return (guint32) p[0] << 24 | (guint32) p[1] << 16 | (guint32) p[2] << 8 | p[3];
}

gboolean
nearby_btsnoop_has_magic (const guint8 *data,
                          gsize         len)
{
  return data != NULL && len >= NEARBY_BTSNOOP_MAGIC_LEN
         && memcmp (data, NEARBY_BTSNOOP_MAGIC, NEARBY_BTSNOOP_MAGIC_LEN) == 0;
}

const char *
nearby_btsnoop_address_type_to_string (NearbyBtsnoopAddressType type)
{
  switch (type)
    {
    case NEARBY_BTSNOOP_ADDRESS_PUBLIC:
      return "public";
    case NEARBY_BTSNOOP_ADDRESS_RANDOM_STATIC:
      return "random-static";
    case NEARBY_BTSNOOP_ADDRESS_RESOLVABLE:
      return "resolvable";
    case NEARBY_BTSNOOP_ADDRESS_NON_RESOLVABLE:
      return "non-resolvable";
    case NEARBY_BTSNOOP_ADDRESS_ANONYMOUS:
    default:
      return "anonymous";
    }
}

NearbyBtsnoopReader *
nearby_btsnoop_reader_new (GBytes  *bytes,
                           GError **error)
{
  g_autoptr(NearbyBtsnoopReader) self = NULL;
  const guint8 *data;
  gsize len;
  guint32 version;
  guint32 datalink;

  g_return_val_if_fail (bytes != NULL, NULL);

  data = g_bytes_get_data (bytes, &len);
  if (!nearby_btsnoop_has_magic (data, len))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                           _("not a btsnoop capture: it does not start with “btsnoop”"));
      return NULL;
    }
  if (len < FILE_HEADER_LEN)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("the btsnoop header is cut short: %zu of %d bytes"), len, FILE_HEADER_LEN);
      return NULL;
    }

  version = read_be32 (data + 8);
  if (version != 1)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("btsnoop version %u is not known (only version 1 is)"), version);
      return NULL;
    }

  datalink = read_be32 (data + 12);
  if (datalink != NEARBY_BTSNOOP_DATALINK_HCI_UNENCAPSULATED
      && datalink != NEARBY_BTSNOOP_DATALINK_HCI_UART
      && datalink != NEARBY_BTSNOOP_DATALINK_LINUX_MONITOR)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("btsnoop datalink %u is not known: Nearby reads 1001 (HCI), "
                     "1002 (HCI UART) and 2001 (Linux monitor)"), datalink);
      return NULL;
    }

  self = g_new0 (NearbyBtsnoopReader, 1);
  self->bytes = g_bytes_ref (bytes);
  self->data = data;
  self->len = len;
  self->pos = FILE_HEADER_LEN;
  self->datalink = datalink;
  self->queue = g_array_new (FALSE, FALSE, sizeof (QueuedReport));
  self->scratch = g_byte_array_new ();
  self->fragments = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free,
                                           (GDestroyNotify) g_byte_array_unref);

  return g_steal_pointer (&self);
}

void
nearby_btsnoop_reader_free (NearbyBtsnoopReader *self)
{
  if (self == NULL)
    return;

  g_clear_pointer (&self->bytes, g_bytes_unref);
  g_clear_pointer (&self->queue, g_array_unref);
  g_clear_pointer (&self->scratch, g_byte_array_unref);
  g_clear_pointer (&self->fragments, g_hash_table_unref);
  g_clear_error (&self->pending_error);
  g_free (self);
}

guint32
nearby_btsnoop_reader_get_datalink (NearbyBtsnoopReader *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->datalink;
}

guint
nearby_btsnoop_reader_get_n_records (NearbyBtsnoopReader *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->record;
}

static void record_error (NearbyBtsnoopReader *self,
                          const char          *format,
                          ...) G_GNUC_PRINTF (2, 3);

/* Keeps what is wrong with the current record, to be said after its good reports. */
static void
record_error (NearbyBtsnoopReader *self,
              const char          *format,
              ...)
{
  g_autofree char *reason = NULL;
  va_list args;

  if (self->pending_error != NULL)
    return;

  va_start (args, format);
  reason = g_strdup_vprintf (format, args);
  va_end (args);

  /* Translators: "record 7: the event says 40 bytes of parameters, the record holds 12" */
  self->pending_error = g_error_new (G_IO_ERROR, G_IO_ERROR_INVALID_DATA, _("record %u: %s"),
                                     self->record, reason);
}

/* By hand: printf's cost per report is most of reading a capture. */
static void
format_address (const guint8 *lsb_first,
                char          out[18])
{
  static const char hex[] = "0123456789ABCDEF";

  for (guint i = 0; i < 6; i++)
    {
      out[i * 3] = hex[lsb_first[5 - i] >> 4];
      out[i * 3 + 1] = hex[lsb_first[5 - i] & 0xf];
      out[i * 3 + 2] = i < 5 ? ':' : '\0';
    }
}

/* HCI address types: 0 public, 1 random, 2 and 3 the same resolved from a private address. A
 * random address says its kind in its two top bits; the reserved pattern 10 is not static and
 * cannot be resolved. */
static NearbyBtsnoopAddressType
classify_address (guint8        hci_type,
                  const guint8 *lsb_first)
{
  switch (hci_type)
    {
    case 0x00:
    case 0x02:
      return NEARBY_BTSNOOP_ADDRESS_PUBLIC;
    case 0x03:
      return NEARBY_BTSNOOP_ADDRESS_RANDOM_STATIC;
    case 0xFF:
      return NEARBY_BTSNOOP_ADDRESS_ANONYMOUS;
    default:
      switch (lsb_first[5] >> 6)
        {
        case 3:
          return NEARBY_BTSNOOP_ADDRESS_RANDOM_STATIC;
        case 1:
          return NEARBY_BTSNOOP_ADDRESS_RESOLVABLE;
        default:
          return NEARBY_BTSNOOP_ADDRESS_NON_RESOLVABLE;
        }
    }
}

static void
queue_report (NearbyBtsnoopReader *self,
              guint8               subevent,
              guint16              event_type,
              guint8               hci_address_type,
              const guint8        *address,
              gint8                rssi,
              const guint8        *data,
              gsize                len,
              gboolean             truncated)
{
  QueuedReport report = {
    .subevent = subevent,
    .event_type = event_type,
    .address_type = classify_address (hci_address_type, address),
    .rssi = rssi,
    .truncated = truncated,
    .offset = self->scratch->len,
    .len = len,
  };

  format_address (address, report.address);
  if (len > 0)
    g_byte_array_append (self->scratch, data, (guint) len);
  g_array_append_val (self->queue, report);
}

/* An extended advertisement comes in pieces when it does not fit one event: the controller
 * sends "incomplete, more to come" until the last piece, which says complete (or truncated,
 * when it gave up). The pieces of one advertiser and set follow each other, but others' reports
 * may come between them. */
static void
add_extended_report (NearbyBtsnoopReader *self,
                     const guint8        *report,
                     const guint8        *data,
                     gsize                data_len)
{
  guint16 event_type = (guint16) (report[0] | report[1] << 8);
  guint status = (event_type >> 5) & 3;
  guint8 hci_address_type = report[2];
  const guint8 *address = report + 3;
  guint8 sid = report[11];
  gint8 rssi = (gint8) report[13];
  /* Unsigned: an address with its top bit set fills all 64 bits (g_int64_hash reads the same
   * bits). */
  guint64 key = 0;
  GByteArray *pending;

  for (guint i = 0; i < 6; i++)
    key = key << 8 | address[5 - i];
  key = key << 8 | hci_address_type;
  key = key << 8 | sid;

  if (status == 3)
    {
      record_error (self, "%s", _("an extended advertising report has the reserved data "
                                  "status 3"));
      g_hash_table_remove (self->fragments, &key);
      return;
    }

  pending = g_hash_table_lookup (self->fragments, &key);
  if (pending != NULL && pending->len + data_len > NEARBY_BTSNOOP_AD_MAX)
    {
      record_error (self, _("an extended advertisement from %02X:%02X:%02X:%02X:%02X:%02X grows "
                            "past %d bytes"),
                    address[5], address[4], address[3], address[2], address[1], address[0],
                    NEARBY_BTSNOOP_AD_MAX);
      g_hash_table_remove (self->fragments, &key);
      return;
    }

  if (status == EXT_STATUS_MORE)
    {
      if (pending == NULL)
        {
          pending = g_byte_array_new ();
          g_hash_table_insert (self->fragments, g_memdup2 (&key, sizeof key), pending);
        }
      g_byte_array_append (pending, data, (guint) data_len);
      return;
    }

  if (pending != NULL)
    {
      g_byte_array_append (pending, data, (guint) data_len);
      queue_report (self, NEARBY_BTSNOOP_LE_EXTENDED_ADVERTISING_REPORT, event_type,
                    hci_address_type, address, rssi, pending->data, pending->len,
                    status == EXT_STATUS_TRUNCATED);
      g_hash_table_remove (self->fragments, &key);
      return;
    }

  queue_report (self, NEARBY_BTSNOOP_LE_EXTENDED_ADVERTISING_REPORT, event_type, hci_address_type,
                address, rssi, data, data_len, status == EXT_STATUS_TRUNCATED);
}

/* The length of the report at @report, or 0 when it runs past the @left bytes of its event. */
static gsize
report_length (guint8        subevent,
               const guint8 *report,
               gsize         left)
{
  switch (subevent)
    {
    case NEARBY_BTSNOOP_LE_ADVERTISING_REPORT:
      /* The header, the data and the RSSI after it. */
      if (left < LEGACY_REPORT_HEADER_LEN || left - LEGACY_REPORT_HEADER_LEN < report[8] + 1u)
        return 0;
      return LEGACY_REPORT_HEADER_LEN + report[8] + 1;

    case NEARBY_BTSNOOP_LE_DIRECTED_ADVERTISING_REPORT:
      return left < DIRECTED_REPORT_LEN ? 0 : DIRECTED_REPORT_LEN;

    case NEARBY_BTSNOOP_LE_EXTENDED_ADVERTISING_REPORT:
    default:
      if (left < EXTENDED_REPORT_HEADER_LEN || left - EXTENDED_REPORT_HEADER_LEN < report[23])
        return 0;
      return EXTENDED_REPORT_HEADER_LEN + report[23];
    }
}

/* The reports of one advertising report event: a count, then the reports one after another
 * (as controllers send them, and Wireshark reads them, rather than the spec's arrays of each
 * field). */
static void
parse_reports (NearbyBtsnoopReader *self,
               guint8               subevent,
               const guint8        *p,
               gsize                len)
{
  guint n_reports;
  gsize pos = 1;

  if (len < 1)
    {
      record_error (self, "%s", _("the advertising report event has no reports"));
      return;
    }
  n_reports = p[0];

  for (guint i = 0; i < n_reports; i++)
    {
      const guint8 *report = p + pos;
      gsize report_len = report_length (subevent, report, len - pos);

      if (report_len == 0)
        {
          record_error (self, _("advertising report %u of %u runs past the end of its event"),
                        i + 1, n_reports);
          return;
        }

      switch (subevent)
        {
        case NEARBY_BTSNOOP_LE_ADVERTISING_REPORT:
          queue_report (self, subevent, report[0], report[1], report + 2,
                        (gint8) report[report_len - 1], report + LEGACY_REPORT_HEADER_LEN,
                        report[8], FALSE);
          break;

        case NEARBY_BTSNOOP_LE_DIRECTED_ADVERTISING_REPORT:
          /* The address it was directed to (bytes 9 to 14) is ours, or one we resolve: not
           * news. */
          queue_report (self, subevent, report[0], report[1], report + 2, (gint8) report[15],
                        NULL, 0, FALSE);
          break;

        case NEARBY_BTSNOOP_LE_EXTENDED_ADVERTISING_REPORT:
        default:
          add_extended_report (self, report, report + EXTENDED_REPORT_HEADER_LEN, report[23]);
          break;
        }
      pos += report_len;
    }
}

/* The HCI event in the packet of the current record, or NULL for any other packet. */
static const guint8 *
event_of_packet (NearbyBtsnoopReader *self,
                 guint32              flags,
                 const guint8        *packet,
                 gsize                len,
                 gsize               *event_len)
{
  switch (self->datalink)
    {
    case NEARBY_BTSNOOP_DATALINK_HCI_UNENCAPSULATED:
      /* Bit 0: received by the host; bit 1: a command or an event rather than data. */
      if ((flags & 3) != 3)
        return NULL;
      *event_len = len;
      return packet;

    case NEARBY_BTSNOOP_DATALINK_HCI_UART:
      if (len < 1 || packet[0] != H4_EVENT)
        return NULL;
      *event_len = len - 1;
      return packet + 1;

    case NEARBY_BTSNOOP_DATALINK_LINUX_MONITOR:
    default:
      /* The controller's index is in the upper 16 bits, the packet's opcode in the lower. */
      if ((flags & 0xffff) != MONITOR_EVENT_PKT)
        return NULL;
      *event_len = len;
      return packet;
    }
}

static void
parse_packet (NearbyBtsnoopReader *self,
              guint32              flags,
              const guint8        *packet,
              gsize                len)
{
  const guint8 *event;
  gsize event_len = 0;
  gsize param_len;

  event = event_of_packet (self, flags, packet, len, &event_len);
  if (event == NULL)
    return;

  if (event_len < 2)
    {
      record_error (self, g_dngettext (GETTEXT_PACKAGE,
                                       "the HCI event is %zu byte long, shorter than its header",
                                       "the HCI event is %zu bytes long, shorter than its header",
                                       event_len),
                    event_len);
      return;
    }
  if (event[0] != HCI_EVENT_LE_META)
    return;

  param_len = event[1];
  if (param_len > event_len - 2)
    {
      record_error (self, _("the event says %zu bytes of parameters, the record holds %zu"),
                    param_len, event_len - 2);
      return;
    }
  if (param_len < 1)
    {
      record_error (self, "%s", _("the LE Meta event has no subevent"));
      return;
    }

  switch (event[2])
    {
    case NEARBY_BTSNOOP_LE_ADVERTISING_REPORT:
    case NEARBY_BTSNOOP_LE_DIRECTED_ADVERTISING_REPORT:
    case NEARBY_BTSNOOP_LE_EXTENDED_ADVERTISING_REPORT:
      parse_reports (self, event[2], event + 3, param_len - 1);
      break;

    default:
      break;
    }
}

/* Reads the next record into the queue. FALSE at the end of the file, or when the rest of the
 * file cannot be found (pending_error then says why). */
static gboolean
read_record (NearbyBtsnoopReader *self)
{
  const guint8 *header;
  guint32 included_len;
  guint32 flags;
  gint64 timestamp;
  gsize left = self->len - self->pos;

  if (self->ended || left == 0)
    return FALSE;

  self->record++;
  g_array_set_size (self->queue, 0);
  self->queue_next = 0;
  g_byte_array_set_size (self->scratch, 0);

  if (left < RECORD_HEADER_LEN)
    {
      self->ended = TRUE;
      record_error (self, _("the file ends inside the record’s header (%zu of %d bytes)"), left,
                    RECORD_HEADER_LEN);
      return FALSE;
    }

  header = self->data + self->pos;
  included_len = read_be32 (header + 4);
  flags = read_be32 (header + 8);
  timestamp = (gint64) ((guint64) read_be32 (header + 16) << 32 | read_be32 (header + 20));

  if (included_len > left - RECORD_HEADER_LEN)
    {
      self->ended = TRUE;
      record_error (self, _("its length, %u bytes, runs past the end of the file (%zu bytes "
                            "left)"),
                    included_len, left - RECORD_HEADER_LEN);
      return FALSE;
    }

  /* Nothing in a capture is before 1970: an earlier stamp is a broken clock, not history. */
  self->record_time_us = timestamp > NEARBY_BTSNOOP_UNIX_EPOCH_US
                         ? timestamp - NEARBY_BTSNOOP_UNIX_EPOCH_US : 0;
  self->pos += RECORD_HEADER_LEN + included_len;

  parse_packet (self, flags, header + RECORD_HEADER_LEN, included_len);

  return TRUE;
}

gboolean
nearby_btsnoop_reader_next (NearbyBtsnoopReader  *self,
                            NearbyBtsnoopReport  *report,
                            GError              **error)
{
  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (report != NULL, FALSE);

  for (;;)
    {
      if (self->queue_next < self->queue->len)
        {
          const QueuedReport *queued = &g_array_index (self->queue, QueuedReport,
                                                       self->queue_next++);

          report->record = self->record;
          report->time_us = self->record_time_us;
          report->subevent = queued->subevent;
          report->event_type = queued->event_type;
          report->address_type = queued->address_type;
          memcpy (report->address, queued->address, sizeof report->address);
          report->rssi = queued->rssi;
          report->truncated = queued->truncated;
          /* An empty GByteArray has no data at all, and NULL + 0 is undefined behaviour. */
          report->data = queued->len > 0 ? self->scratch->data + queued->offset : NULL;
          report->data_len = queued->len;
          return TRUE;
        }

      if (self->pending_error != NULL)
        {
          g_propagate_error (error, g_steal_pointer (&self->pending_error));
          return FALSE;
        }

      if (!read_record (self) && self->pending_error == NULL)
        return FALSE;
    }
}
