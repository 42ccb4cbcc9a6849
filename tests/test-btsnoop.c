/* test-btsnoop.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <gio/gio.h>
#include <string.h>

#include "btsnoop-writer.h"
#include "nearby-advert.h"
#include "nearby-btsnoop.h"
#include "nearby-test-utils.h"

/* 2026-05-04T12:00:00Z */
#define T0 G_GINT64_CONSTANT (1777896000000000)

static const guint8 ad_lamp[] = { 0x02, 0x01, 0x06, 0x05, 0xff, 0x34, 0x12, 0x01, 0x02 };

typedef struct {
  GPtrArray *reports;   /* of NearbyBtsnoopReport with data copied */
  GPtrArray *errors;    /* of messages */
} Played;

static void
report_free (gpointer data)
{
  NearbyBtsnoopReport *report = data;

  g_free ((gpointer) report->data);
  g_free (report);
}

/* Reads every report and every error of @bytes, as a replay would. */
static void
play (GBytes *bytes,
      Played *played)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(NearbyBtsnoopReader) reader = nearby_btsnoop_reader_new (bytes, &error);
  guint guard = 0;

  g_assert_no_error (error);
  played->reports = g_ptr_array_new_with_free_func (report_free);
  played->errors = g_ptr_array_new_with_free_func (g_free);

  for (;;)
    {
      NearbyBtsnoopReport report;
      g_autoptr(GError) record_error = NULL;

      g_assert_cmpuint (guard++, <, 10000);
      if (nearby_btsnoop_reader_next (reader, &report, &record_error))
        {
          NearbyBtsnoopReport *copy = g_memdup2 (&report, sizeof report);

          copy->data = g_memdup2 (report.data, report.data_len);
          g_ptr_array_add (played->reports, copy);
        }
      else if (record_error != NULL)
        {
          g_assert_true (g_error_matches (record_error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA));
          g_ptr_array_add (played->errors, g_strdup (record_error->message));
        }
      else
        break;
    }
}

static void
played_clear (Played *played)
{
  g_ptr_array_unref (played->reports);
  g_ptr_array_unref (played->errors);
}

static NearbyBtsnoopReport *
report_at (Played *played,
           guint   i)
{
  g_assert_cmpuint (i, <, played->reports->len);
  return played->reports->pdata[i];
}

static void
test_legacy_reports (void)
{
  guint8 beacon[31];
  gsize beacon_len = nearby_test_ad_eddystone_url ("https://example.com/a", -20, beacon);
  NearbyTestBtsnoop *writer = nearby_test_btsnoop_new (NEARBY_BTSNOOP_DATALINK_HCI_UART);
  g_autoptr(GByteArray) event = nearby_test_le_event_new (NEARBY_BTSNOOP_LE_ADVERTISING_REPORT);
  g_autoptr(GBytes) bytes = NULL;
  NearbyAdvertFrame frames[NEARBY_ADVERT_MAX_FRAMES];
  NearbyBtsnoopReport *report;
  Played played;

  /* Three devices in one event: public, random static, random resolvable. */
  nearby_test_le_event_add_legacy (event, 0x03, 0x00, "00:1A:7D:DA:71:13", beacon, beacon_len, -61);
  nearby_test_le_event_add_legacy (event, 0x00, 0x01, "C0:FF:EE:00:00:01", ad_lamp,
                                   sizeof ad_lamp, -80);
  nearby_test_le_event_add_legacy (event, 0x04, 0x01, "5A:00:00:00:00:02", NULL, 0, 127);
  nearby_test_btsnoop_add_command (writer, T0);
  nearby_test_btsnoop_add_event (writer, T0 + 1500, event);
  bytes = nearby_test_btsnoop_free (writer);

  play (bytes, &played);
  g_assert_cmpuint (played.errors->len, ==, 0);
  g_assert_cmpuint (played.reports->len, ==, 3);

  report = report_at (&played, 0);
  g_assert_cmpuint (report->record, ==, 2);
  g_assert_cmpint (report->time_us, ==, T0 + 1500);
  g_assert_cmpuint (report->subevent, ==, NEARBY_BTSNOOP_LE_ADVERTISING_REPORT);
  g_assert_cmpuint (report->event_type, ==, 0x03);
  g_assert_cmpstr (report->address, ==, "00:1A:7D:DA:71:13");
  g_assert_cmpint (report->address_type, ==, NEARBY_BTSNOOP_ADDRESS_PUBLIC);
  g_assert_cmpint (report->rssi, ==, -61);
  g_assert_cmpmem (report->data, report->data_len, beacon, beacon_len);

  /* The frame codec reads it as a live scan would read bluetoothd's ServiceData. */
  g_assert_cmpuint (nearby_advert_decode_payload (report->data, report->data_len, frames), ==, 1);
  g_assert_cmpstr (frames[0].frame.url, ==, "https://example.com/a");
  g_assert_cmpint (frames[0].frame.tx_power, ==, -20);
  g_assert_cmpuint (frames[0].frame.service_uuid, ==, NEARBY_UUID16_EDDYSTONE);

  report = report_at (&played, 1);
  g_assert_cmpstr (report->address, ==, "C0:FF:EE:00:00:01");
  g_assert_cmpint (report->address_type, ==, NEARBY_BTSNOOP_ADDRESS_RANDOM_STATIC);
  g_assert_cmpint (report->rssi, ==, -80);
  g_assert_cmpmem (report->data, report->data_len, ad_lamp, sizeof ad_lamp);
  /* A lamp is no beacon. */
  g_assert_cmpuint (nearby_advert_decode_payload (report->data, report->data_len, frames), ==, 0);

  report = report_at (&played, 2);
  g_assert_cmpstr (report->address, ==, "5A:00:00:00:00:02");
  g_assert_cmpint (report->address_type, ==, NEARBY_BTSNOOP_ADDRESS_RESOLVABLE);
  g_assert_cmpint (report->rssi, ==, 127);
  g_assert_cmpuint (report->data_len, ==, 0);

  played_clear (&played);
}

static void
test_extended_fragments (void)
{
  guint8 big[300];
  NearbyTestBtsnoop *writer = nearby_test_btsnoop_new (NEARBY_BTSNOOP_DATALINK_HCI_UNENCAPSULATED);
  g_autoptr(GByteArray) first = NULL;
  g_autoptr(GByteArray) second = NULL;
  g_autoptr(GByteArray) third = NULL;
  g_autoptr(GByteArray) fourth = NULL;
  g_autoptr(GBytes) bytes = NULL;
  NearbyBtsnoopReport *report;
  Played played;

  /* Bytes that would not fit one event: split in two. */
  for (guint i = 0; i < sizeof big; i++)
    big[i] = (guint8) i;

  /* Piece one of the big advertisement, and a whole one from an anonymous advertiser. */
  first = nearby_test_le_event_new (NEARBY_BTSNOOP_LE_EXTENDED_ADVERTISING_REPORT);
  nearby_test_le_event_add_extended (first, 0x0020, 0x01, "3C:00:00:00:00:07", 2, big, 150, -70);
  nearby_test_le_event_add_extended (first, 0x0000, 0xff, "00:00:00:00:00:00", 1, ad_lamp,
                                     sizeof ad_lamp, -90);
  nearby_test_btsnoop_add_event (writer, T0, first);

  /* Its second piece, with a piece of the same address in another set, which is cut short. */
  second = nearby_test_le_event_new (NEARBY_BTSNOOP_LE_EXTENDED_ADVERTISING_REPORT);
  nearby_test_le_event_add_extended (second, 0x0000, 0x01, "3C:00:00:00:00:07", 2, big + 150, 150,
                                     -71);
  nearby_test_le_event_add_extended (second, 0x0020, 0x01, "3C:00:00:00:00:07", 3, big, 10, -72);
  nearby_test_btsnoop_add_event (writer, T0 + 100, second);

  third = nearby_test_le_event_new (NEARBY_BTSNOOP_LE_EXTENDED_ADVERTISING_REPORT);
  nearby_test_le_event_add_extended (third, 0x0040, 0x01, "3C:00:00:00:00:07", 3, big + 10, 5,
                                     -73);
  nearby_test_btsnoop_add_event (writer, T0 + 200, third);

  /* An address with its top bit set, in two pieces (the key of its pieces fills 64 bits). */
  fourth = nearby_test_le_event_new (NEARBY_BTSNOOP_LE_EXTENDED_ADVERTISING_REPORT);
  nearby_test_le_event_add_extended (fourth, 0x0020, 0x01, "FF:FF:FF:FF:FF:FF", 15, big, 20, -74);
  nearby_test_le_event_add_extended (fourth, 0x0000, 0x01, "FF:FF:FF:FF:FF:FF", 15, big + 20, 20,
                                     -75);
  nearby_test_btsnoop_add_event (writer, T0 + 300, fourth);
  bytes = nearby_test_btsnoop_free (writer);

  play (bytes, &played);
  g_assert_cmpuint (played.errors->len, ==, 0);
  g_assert_cmpuint (played.reports->len, ==, 4);
  report = report_at (&played, 3);
  g_assert_cmpstr (report->address, ==, "FF:FF:FF:FF:FF:FF");
  g_assert_cmpint (report->address_type, ==, NEARBY_BTSNOOP_ADDRESS_RANDOM_STATIC);
  g_assert_cmpmem (report->data, report->data_len, big, 40);

  report = report_at (&played, 0);
  g_assert_cmpint (report->address_type, ==, NEARBY_BTSNOOP_ADDRESS_ANONYMOUS);
  g_assert_cmpint (report->rssi, ==, -90);
  g_assert_cmpmem (report->data, report->data_len, ad_lamp, sizeof ad_lamp);

  report = report_at (&played, 1);
  g_assert_cmpuint (report->record, ==, 2);
  g_assert_cmpstr (report->address, ==, "3C:00:00:00:00:07");
  g_assert_cmpint (report->address_type, ==, NEARBY_BTSNOOP_ADDRESS_NON_RESOLVABLE);
  g_assert_cmpint (report->rssi, ==, -71);
  g_assert_false (report->truncated);
  g_assert_cmpmem (report->data, report->data_len, big, sizeof big);

  report = report_at (&played, 2);
  g_assert_cmpuint (report->record, ==, 3);
  g_assert_true (report->truncated);
  g_assert_cmpmem (report->data, report->data_len, big, 15);

  played_clear (&played);
}

static void
test_directed (void)
{
  NearbyTestBtsnoop *writer = nearby_test_btsnoop_new (NEARBY_BTSNOOP_DATALINK_LINUX_MONITOR);
  g_autoptr(GByteArray) event =
    nearby_test_le_event_new (NEARBY_BTSNOOP_LE_DIRECTED_ADVERTISING_REPORT);
  g_autoptr(GBytes) bytes = NULL;
  NearbyBtsnoopReport *report;
  Played played;

  nearby_test_le_event_add_directed (event, 0x01, 0x03, "D0:00:00:00:00:09", -40);
  nearby_test_le_event_add_directed (event, 0x01, 0x02, "00:00:00:00:00:0A", -41);
  nearby_test_btsnoop_add_event (writer, T0, event);
  bytes = nearby_test_btsnoop_free (writer);

  play (bytes, &played);
  g_assert_cmpuint (played.errors->len, ==, 0);
  g_assert_cmpuint (played.reports->len, ==, 2);
  report = report_at (&played, 0);
  g_assert_cmpuint (report->subevent, ==, NEARBY_BTSNOOP_LE_DIRECTED_ADVERTISING_REPORT);
  g_assert_cmpstr (report->address, ==, "D0:00:00:00:00:09");
  g_assert_cmpint (report->address_type, ==, NEARBY_BTSNOOP_ADDRESS_RANDOM_STATIC);
  g_assert_cmpint (report->rssi, ==, -40);
  g_assert_cmpuint (report->data_len, ==, 0);
  report = report_at (&played, 1);
  g_assert_cmpint (report->address_type, ==, NEARBY_BTSNOOP_ADDRESS_PUBLIC);

  played_clear (&played);
}

/* Each datalink frames the same event its own way; non-events (commands, other opcodes and
 * controllers' packets) are passed over in silence. */
static void
test_datalinks (void)
{
  const guint32 datalinks[] = {
    NEARBY_BTSNOOP_DATALINK_HCI_UNENCAPSULATED,
    NEARBY_BTSNOOP_DATALINK_HCI_UART,
    NEARBY_BTSNOOP_DATALINK_LINUX_MONITOR,
  };

  for (guint i = 0; i < G_N_ELEMENTS (datalinks); i++)
    {
      NearbyTestBtsnoop *writer = nearby_test_btsnoop_new (datalinks[i]);
      g_autoptr(GByteArray) event = nearby_test_le_event_new (NEARBY_BTSNOOP_LE_ADVERTISING_REPORT);
      g_autoptr(GBytes) bytes = NULL;
      static const guint8 acl[] = { 0x02, 0x01, 0x20, 0x00, 0x00 };
      Played played;

      nearby_test_le_event_add_legacy (event, 0x00, 0x00, "00:00:00:00:00:01", ad_lamp,
                                       sizeof ad_lamp, -50);
      nearby_test_btsnoop_add_command (writer, T0);
      /* Data, sent by the host (1001, 1002), or on a second controller as an ACL packet (2001). */
      nearby_test_btsnoop_add_record (writer, sizeof acl, sizeof acl,
                                      datalinks[i] == NEARBY_BTSNOOP_DATALINK_LINUX_MONITOR
                                      ? 0x10005 : 0, T0, acl, sizeof acl);
      nearby_test_btsnoop_add_event (writer, T0 + 1, event);
      bytes = nearby_test_btsnoop_free (writer);

      play (bytes, &played);
      g_assert_cmpuint (played.errors->len, ==, 0);
      g_assert_cmpuint (played.reports->len, ==, 1);
      g_assert_cmpuint (report_at (&played, 0)->record, ==, 3);
      g_assert_cmpstr (report_at (&played, 0)->address, ==, "00:00:00:00:00:01");
      played_clear (&played);
    }
}

static void
assert_header_error (const guint8 *data,
                     gsize         len,
                     const char   *expected)
{
  g_autoptr(GBytes) bytes = g_bytes_new (data, len);
  g_autoptr(GError) error = NULL;
  g_autoptr(NearbyBtsnoopReader) reader = nearby_btsnoop_reader_new (bytes, &error);

  g_assert_null (reader);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
  g_assert_cmpstr (error->message, ==, expected);
}

static void
test_bad_headers (void)
{
  static const guint8 json[] = "{\"time\":\"2026-05-04T12:00:00.000Z\"}\n";
  static const guint8 short_header[] = "btsnoop\0\0\0";
  static const guint8 version2[] = "btsnoop\0\0\0\0\x02\0\0\x03\xe9";
  static const guint8 ethernet[] = "btsnoop\0\0\0\0\x01\0\0\0\x01";

  assert_header_error (json, sizeof json - 1,
                       "not a btsnoop capture: it does not start with “btsnoop”");
  assert_header_error (json, 0, "not a btsnoop capture: it does not start with “btsnoop”");
  assert_header_error (short_header, 10, "the btsnoop header is cut short: 10 of 16 bytes");
  assert_header_error (version2, 16, "btsnoop version 2 is not known (only version 1 is)");
  assert_header_error (ethernet, 16,
                       "btsnoop datalink 1 is not known: Nearby reads 1001 (HCI), 1002 (HCI UART) "
                       "and 2001 (Linux monitor)");
}

static GByteArray *
lamp_event (const char *address)
{
  GByteArray *event = nearby_test_le_event_new (NEARBY_BTSNOOP_LE_ADVERTISING_REPORT);

  nearby_test_le_event_add_legacy (event, 0x00, 0x00, address, ad_lamp, sizeof ad_lamp, -50);
  return event;
}

/* A record that cannot be read is said with its number; the records around it still play. */
static void
test_bad_records (void)
{
  NearbyTestBtsnoop *writer = nearby_test_btsnoop_new (NEARBY_BTSNOOP_DATALINK_HCI_UART);
  g_autoptr(GByteArray) one = lamp_event ("00:00:00:00:00:01");
  g_autoptr(GByteArray) three = lamp_event ("00:00:00:00:00:03");
  g_autoptr(GByteArray) five = lamp_event ("00:00:00:00:00:05");
  g_autoptr(GByteArray) two_reports = lamp_event ("00:00:00:00:00:06");
  g_autoptr(GBytes) bytes = NULL;
  guint8 long_event[] = { 0x04, 0x3e, 0x30, 0x02, 0x01 };
  guint8 empty_meta[] = { 0x04, 0x3e, 0x00 };
  Played played;

  nearby_test_btsnoop_add_event (writer, T0, one);
  /* Record 2: the event claims more than the record has. */
  nearby_test_btsnoop_add_record (writer, sizeof long_event, sizeof long_event, 3, T0 + 1,
                                  long_event, sizeof long_event);
  nearby_test_btsnoop_add_event (writer, T0 + 2, three);
  /* Record 4: an LE Meta event without its subevent. */
  nearby_test_btsnoop_add_record (writer, sizeof empty_meta, sizeof empty_meta, 3, T0 + 3,
                                  empty_meta, sizeof empty_meta);
  nearby_test_btsnoop_add_event (writer, T0 + 4, five);
  /* Record 6: two reports claimed, one there: the one there still plays. */
  two_reports->data[3] = 2;
  nearby_test_btsnoop_add_event (writer, T0 + 5, two_reports);
  /* Record 7: a length past the end of the file. */
  nearby_test_btsnoop_add_record (writer, 200, 200, 3, T0 + 6, one->data, one->len);
  bytes = nearby_test_btsnoop_free (writer);

  play (bytes, &played);
  g_assert_cmpuint (played.reports->len, ==, 4);
  g_assert_cmpstr (report_at (&played, 0)->address, ==, "00:00:00:00:00:01");
  g_assert_cmpstr (report_at (&played, 1)->address, ==, "00:00:00:00:00:03");
  g_assert_cmpstr (report_at (&played, 2)->address, ==, "00:00:00:00:00:05");
  g_assert_cmpstr (report_at (&played, 3)->address, ==, "00:00:00:00:00:06");

  g_assert_cmpuint (played.errors->len, ==, 4);
  g_assert_cmpstr (played.errors->pdata[0], ==,
                   "record 2: the event says 48 bytes of parameters, the record holds 2");
  g_assert_cmpstr (played.errors->pdata[1], ==, "record 4: the LE Meta event has no subevent");
  g_assert_cmpstr (played.errors->pdata[2], ==,
                   "record 6: advertising report 2 of 2 runs past the end of its event");
  g_assert_cmpstr (played.errors->pdata[3], ==,
                   "record 7: its length, 200 bytes, runs past the end of the file (23 bytes "
                   "left)");
  played_clear (&played);
}

static void
test_truncated_file (void)
{
  NearbyTestBtsnoop *writer = nearby_test_btsnoop_new (NEARBY_BTSNOOP_DATALINK_HCI_UART);
  g_autoptr(GByteArray) one = lamp_event ("00:00:00:00:00:01");
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GBytes) cut = NULL;
  Played played;

  nearby_test_btsnoop_add_event (writer, T0, one);
  nearby_test_btsnoop_add_event (writer, T0 + 1, one);
  bytes = nearby_test_btsnoop_free (writer);
  /* The second record's header ends after 10 of its 24 bytes, as a log copied while written. */
  cut = g_bytes_new_from_bytes (bytes, 0, 16 + 24 + one->len + 1 + 10);

  play (cut, &played);
  g_assert_cmpuint (played.reports->len, ==, 1);
  g_assert_cmpuint (played.errors->len, ==, 1);
  g_assert_cmpstr (played.errors->pdata[0], ==,
                   "record 2: the file ends inside the record’s header (10 of 24 bytes)");
  played_clear (&played);
}

/* An extended advertisement that never says it is complete does not grow without bound. */
static void
test_endless_fragments (void)
{
  NearbyTestBtsnoop *writer = nearby_test_btsnoop_new (NEARBY_BTSNOOP_DATALINK_HCI_UART);
  g_autoptr(GBytes) bytes = NULL;
  guint8 piece[200] = { 0 };
  Played played;

  for (guint i = 0; i < 10; i++)
    {
      g_autoptr(GByteArray) event =
        nearby_test_le_event_new (NEARBY_BTSNOOP_LE_EXTENDED_ADVERTISING_REPORT);

      nearby_test_le_event_add_extended (event, 0x0020, 0x00, "00:00:00:00:00:08", 0, piece,
                                         sizeof piece, -60);
      nearby_test_btsnoop_add_event (writer, T0 + i, event);
    }
  bytes = nearby_test_btsnoop_free (writer);

  play (bytes, &played);
  g_assert_cmpuint (played.reports->len, ==, 0);
  g_assert_cmpuint (played.errors->len, ==, 1);
  g_assert_cmpstr (played.errors->pdata[0], ==,
                   "record 9: an extended advertisement from 00:00:00:00:00:08 grows past 1650 "
                   "bytes");
  played_clear (&played);
}

static void
test_timestamps (void)
{
  /* A record stamped 0x00E03AB44A676000 µs after year 0 is 2000-01-01T00:00:00Z... as
   * Wireshark reads it. */
  NearbyTestBtsnoop *writer = nearby_test_btsnoop_new (NEARBY_BTSNOOP_DATALINK_HCI_UART);
  g_autoptr(GByteArray) one = lamp_event ("00:00:00:00:00:01");
  g_autoptr(GBytes) bytes = NULL;
  Played played;

  nearby_test_btsnoop_add_event (writer, G_GINT64_CONSTANT (946684800) * G_USEC_PER_SEC + 7, one);
  bytes = nearby_test_btsnoop_free (writer);
  g_assert_cmpmem ((const guint8 *) g_bytes_get_data (bytes, NULL) + 16 + 16, 8,
                   "\x00\xe0\x3a\xb4\x4a\x67\x60\x07", 8);

  play (bytes, &played);
  g_assert_cmpint (report_at (&played, 0)->time_us, ==,
                   G_GINT64_CONSTANT (946684800) * G_USEC_PER_SEC + 7);
  played_clear (&played);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/btsnoop/legacy-reports", test_legacy_reports);
  g_test_add_func ("/btsnoop/extended-fragments", test_extended_fragments);
  g_test_add_func ("/btsnoop/directed", test_directed);
  g_test_add_func ("/btsnoop/datalinks", test_datalinks);
  g_test_add_func ("/btsnoop/bad-headers", test_bad_headers);
  g_test_add_func ("/btsnoop/bad-records", test_bad_records);
  g_test_add_func ("/btsnoop/truncated-file", test_truncated_file);
  g_test_add_func ("/btsnoop/endless-fragments", test_endless_fragments);
  g_test_add_func ("/btsnoop/timestamps", test_timestamps);

  return g_test_run ();
}
