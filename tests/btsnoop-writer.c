/* btsnoop-writer.c: btsnoop captures written by the tests, record by record
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <stdio.h>
#include <string.h>

#include "btsnoop-writer.h"
#include "nearby-btsnoop.h"
#include "nearby-frame.h"

static void
append_be32 (GByteArray *bytes,
             guint32     value)
{
  guint8 b[4] = { value >> 24, value >> 16, value >> 8, value };

  g_byte_array_append (bytes, b, 4);
}

NearbyTestBtsnoop *
nearby_test_btsnoop_new (guint32 datalink)
{
  NearbyTestBtsnoop *writer = g_new0 (NearbyTestBtsnoop, 1);

  writer->bytes = g_byte_array_new ();
  writer->datalink = datalink;
  g_byte_array_append (writer->bytes, (const guint8 *) NEARBY_BTSNOOP_MAGIC,
                       NEARBY_BTSNOOP_MAGIC_LEN);
  append_be32 (writer->bytes, 1);
  append_be32 (writer->bytes, datalink);

  return writer;
}

GBytes *
nearby_test_btsnoop_free (NearbyTestBtsnoop *writer)
{
  GBytes *bytes = g_byte_array_free_to_bytes (writer->bytes);

  g_free (writer);
  return bytes;
}

gboolean
nearby_test_btsnoop_save (NearbyTestBtsnoop *writer,
                          const char        *path)
{
  g_autoptr(GBytes) bytes = nearby_test_btsnoop_free (writer);
  gsize len;
  const char *data = g_bytes_get_data (bytes, &len);

  return g_file_set_contents (path, data, (gssize) len, NULL);
}

void
nearby_test_btsnoop_add_record (NearbyTestBtsnoop *writer,
                                guint32            original_len,
                                guint32            included_len,
                                guint32            flags,
                                gint64             unix_us,
                                const guint8      *packet,
                                gsize              len)
{
  guint64 timestamp = (guint64) (unix_us + NEARBY_BTSNOOP_UNIX_EPOCH_US);

  append_be32 (writer->bytes, original_len);
  append_be32 (writer->bytes, included_len);
  append_be32 (writer->bytes, flags);
  append_be32 (writer->bytes, 0);
  append_be32 (writer->bytes, (guint32) (timestamp >> 32));
  append_be32 (writer->bytes, (guint32) timestamp);
  if (len > 0)
    g_byte_array_append (writer->bytes, packet, (guint) len);
}

static void
add_packet (NearbyTestBtsnoop *writer,
            gint64             unix_us,
            gboolean           is_event,
            const guint8      *packet,
            gsize              len)
{
  g_autoptr(GByteArray) framed = g_byte_array_new ();
  guint32 flags;

  switch (writer->datalink)
    {
    case NEARBY_BTSNOOP_DATALINK_HCI_UART:
      g_byte_array_append (framed, (const guint8 *) (is_event ? "\x04" : "\x01"), 1);
      flags = is_event ? 3 : 2;
      break;
    case NEARBY_BTSNOOP_DATALINK_LINUX_MONITOR:
      /* Controller 0; opcode 3 is an event, 2 a command. */
      flags = is_event ? 3 : 2;
      break;
    case NEARBY_BTSNOOP_DATALINK_HCI_UNENCAPSULATED:
    default:
      flags = is_event ? 3 : 2;
      break;
    }
  g_byte_array_append (framed, packet, (guint) len);

  nearby_test_btsnoop_add_record (writer, framed->len, framed->len, flags, unix_us, framed->data,
                                  framed->len);
}

void
nearby_test_btsnoop_add_event (NearbyTestBtsnoop *writer,
                               gint64             unix_us,
                               const GByteArray  *event)
{
  add_packet (writer, unix_us, TRUE, event->data, event->len);
}

void
nearby_test_btsnoop_add_command (NearbyTestBtsnoop *writer,
                                 gint64             unix_us)
{
  /* LE Set Scan Enable: on, no duplicate filter. */
  static const guint8 command[] = { 0x0c, 0x20, 0x02, 0x01, 0x00 };

  add_packet (writer, unix_us, FALSE, command, sizeof command);
}

GByteArray *
nearby_test_le_event_new (guint8 subevent)
{
  GByteArray *event = g_byte_array_new ();
  guint8 header[] = { 0x3e, 2, subevent, 0 };

  g_byte_array_append (event, header, sizeof header);
  return event;
}

static void
append_address (GByteArray *event,
                const char *address)
{
  guint8 b[6];
  unsigned int v[6];

  g_assert_cmpint (sscanf (address, "%x:%x:%x:%x:%x:%x", &v[0], &v[1], &v[2], &v[3], &v[4], &v[5]),
                   ==, 6);
  for (guint i = 0; i < 6; i++)
    b[i] = (guint8) v[5 - i];
  g_byte_array_append (event, b, 6);
}

/* Counts the report in and sets the parameter length. */
static void
close_report (GByteArray *event)
{
  event->data[3]++;
  g_assert_cmpuint (event->len - 2, <=, 255);
  event->data[1] = (guint8) (event->len - 2);
}

void
nearby_test_le_event_add_legacy (GByteArray   *event,
                                 guint8        event_type,
                                 guint8        address_type,
                                 const char   *address,
                                 const guint8 *ad,
                                 gsize         ad_len,
                                 gint8         rssi)
{
  guint8 len = (guint8) ad_len;

  g_byte_array_append (event, &event_type, 1);
  g_byte_array_append (event, &address_type, 1);
  append_address (event, address);
  g_byte_array_append (event, &len, 1);
  if (ad_len > 0)
    g_byte_array_append (event, ad, (guint) ad_len);
  g_byte_array_append (event, (const guint8 *) &rssi, 1);
  close_report (event);
}

void
nearby_test_le_event_add_extended (GByteArray   *event,
                                   guint16       event_type,
                                   guint8        address_type,
                                   const char   *address,
                                   guint8        sid,
                                   const guint8 *ad,
                                   gsize         ad_len,
                                   gint8         rssi)
{
  /* Primary PHY 1M, no secondary PHY, no TX power (127), no periodic advertising, no direct
   * address. */
  guint8 type[2] = { event_type & 0xff, event_type >> 8 };
  guint8 middle[5] = { 0x01, 0x00, sid, 0x7f, (guint8) rssi };
  guint8 tail[9] = { 0 };
  guint8 len = (guint8) ad_len;

  g_byte_array_append (event, type, 2);
  g_byte_array_append (event, &address_type, 1);
  append_address (event, address);
  g_byte_array_append (event, middle, sizeof middle);
  g_byte_array_append (event, tail, sizeof tail);
  g_byte_array_append (event, &len, 1);
  if (ad_len > 0)
    g_byte_array_append (event, ad, (guint) ad_len);
  close_report (event);
}

void
nearby_test_le_event_add_directed (GByteArray *event,
                                   guint8      event_type,
                                   guint8      address_type,
                                   const char *address,
                                   gint8       rssi)
{
  guint8 direct_type = 0x01;

  g_byte_array_append (event, &event_type, 1);
  g_byte_array_append (event, &address_type, 1);
  append_address (event, address);
  g_byte_array_append (event, &direct_type, 1);
  append_address (event, "4A:11:22:33:44:55");
  g_byte_array_append (event, (const guint8 *) &rssi, 1);
  close_report (event);
}

gsize
nearby_test_ad_eddystone_url (const char *url,
                              gint8       tx_power,
                              guint8      out[31])
{
  static const guint8 head[] = { 0x02, 0x01, 0x06, 0x03, 0x03, 0xaa, 0xfe };
  guint8 frame[NEARBY_FRAME_URL_SERVICE_DATA_MAX];
  size_t frame_len = 0;

  g_assert_cmpint (nearby_frame_encode_eddystone_url (url, tx_power, frame, &frame_len, NULL), ==,
                   NEARBY_FRAME_OK);
  memcpy (out, head, sizeof head);
  out[7] = (guint8) (frame_len + 3);
  out[8] = 0x16;
  out[9] = 0xaa;
  out[10] = 0xfe;
  memcpy (out + 11, frame, frame_len);

  return 11 + frame_len;
}
