/* test-replay.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

#include "btsnoop-writer.h"
#include "nearby-object-list.h"
#include "nearby-replay.h"
#include "nearby-test-utils.h"

typedef struct {
  GPtrArray *addresses;     /* of each sighting, in order */
  GArray    *rssi;
  GArray    *kinds;
  GArray    *emitted_at;    /* monotonic time of each sighting */
  GArray    *stamped_at;    /* the time_us it carried */
  GArray    *error_lines;
  GPtrArray *error_messages;
} Recorder;

static void
recorder_init (Recorder *recorder)
{
  recorder->addresses = g_ptr_array_new_with_free_func (g_free);
  recorder->rssi = g_array_new (FALSE, FALSE, sizeof (int));
  recorder->kinds = g_array_new (FALSE, FALSE, sizeof (int));
  recorder->emitted_at = g_array_new (FALSE, FALSE, sizeof (gint64));
  recorder->stamped_at = g_array_new (FALSE, FALSE, sizeof (gint64));
  recorder->error_lines = g_array_new (FALSE, FALSE, sizeof (guint));
  recorder->error_messages = g_ptr_array_new_with_free_func (g_free);
}

static void
recorder_clear (Recorder *recorder)
{
  g_ptr_array_unref (recorder->addresses);
  g_array_unref (recorder->rssi);
  g_array_unref (recorder->kinds);
  g_array_unref (recorder->emitted_at);
  g_array_unref (recorder->stamped_at);
  g_array_unref (recorder->error_lines);
  g_ptr_array_unref (recorder->error_messages);
}

static void
on_sighting (NearbySource         *source,
             const NearbySighting *sighting,
             Recorder             *recorder)
{
  gint64 now = g_get_monotonic_time ();
  int kind = sighting->frame.kind;

  g_ptr_array_add (recorder->addresses, g_strdup (sighting->address));
  g_array_append_val (recorder->rssi, sighting->rssi);
  g_array_append_val (recorder->kinds, kind);
  g_array_append_val (recorder->emitted_at, now);
  g_array_append_val (recorder->stamped_at, sighting->time_us);
}

static void
on_line_error (NearbyReplay *replay,
               guint         line,
               const char   *message,
               Recorder     *recorder)
{
  g_array_append_val (recorder->error_lines, line);
  g_ptr_array_add (recorder->error_messages, g_strdup (message));
}

static gboolean
replay_is_done (NearbyReplay *replay)
{
  NearbySourceState state = nearby_source_get_state (NEARBY_SOURCE (replay));

  return state != NEARBY_SOURCE_STATE_STARTING && state != NEARBY_SOURCE_STATE_SCANNING;
}

/* Runs the main context until the replay is neither starting nor scanning. */
static void
wait_until_done (NearbyReplay *replay)
{
  WAIT_UNTIL (replay_is_done (replay));
}

static NearbyReplay *
replay_for (const char *name,
            double      speed,
            Recorder   *recorder)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", name, NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  NearbyReplay *replay = nearby_replay_new (file);

  nearby_replay_set_speed (replay, speed);
  g_signal_connect (replay, "sighting", G_CALLBACK (on_sighting), recorder);
  g_signal_connect (replay, "line-error", G_CALLBACK (on_line_error), recorder);
  return replay;
}

/* The codec is its own piece of work; until it decodes, the decoding checks are skipped. */
static gboolean
codec_decodes (void)
{
  static const guint8 url[] = { 0x10, 0xec, 0x03, 'e', 'x', 'a', 'm', 'p', 'l', 'e', 0x07 };
  NearbyFrame frame;

  return nearby_frame_decode_service_data (NEARBY_UUID16_EDDYSTONE, url, sizeof url, &frame)
         == NEARBY_FRAME_OK;
}

static void
test_good_capture (void)
{
  Recorder recorder;
  g_autoptr(NearbyReplay) replay = NULL;
  gint64 before = g_get_real_time ();
  gint64 started, first_emitted, last_emitted;

  recorder_init (&recorder);
  replay = replay_for ("capture-good.jsonl", 1.0, &recorder);
  g_assert_cmpint (nearby_source_get_state (NEARBY_SOURCE (replay)), ==,
                   NEARBY_SOURCE_STATE_STARTING);

  started = g_get_monotonic_time ();
  nearby_replay_start (replay);
  wait_until_done (replay);

  g_assert_cmpint (nearby_source_get_state (NEARBY_SOURCE (replay)), ==,
                   NEARBY_SOURCE_STATE_FINISHED);
  /* Five advertisements; the blank line is no error. */
  g_assert_cmpuint (recorder.addresses->len, ==, 5);
  g_assert_cmpuint (nearby_replay_get_n_sightings (replay), ==, 5);
  g_assert_cmpuint (recorder.error_lines->len, ==, 0);
  g_assert_cmpuint (nearby_replay_get_n_errors (replay), ==, 0);
  g_assert_null (nearby_replay_get_errors (replay)[0]);
  {
    g_autofree char *message = nearby_source_dup_state_message (NEARBY_SOURCE (replay));

    g_assert_null (message);
  }

  g_assert_cmpstr (recorder.addresses->pdata[0], ==, "C0:FF:EE:00:00:01");
  g_assert_cmpstr (recorder.addresses->pdata[2], ==, "C0:FF:EE:00:00:02");
  g_assert_cmpstr (recorder.addresses->pdata[3], ==, "C0:FF:EE:00:00:03");
  g_assert_cmpint (g_array_index (recorder.rssi, int, 0), ==, -62);
  g_assert_cmpint (g_array_index (recorder.rssi, int, 3), ==, -70);
  /* "rssi": null is "unknown", not a reason to drop the line. */
  g_assert_cmpint (g_array_index (recorder.rssi, int, 4), ==, NEARBY_RSSI_UNKNOWN);

  /* Stamped with the time of the replay, not of the capture (2026-12-03 05:28). */
  for (guint i = 0; i < recorder.stamped_at->len; i++)
    g_assert_cmpint (g_array_index (recorder.stamped_at, gint64, i), >=, before);

  /* The capture spans 300 ms and is replayed at its own pace: the last line cannot come out
   * sooner than that after the start. */
  first_emitted = g_array_index (recorder.emitted_at, gint64, 0);
  last_emitted = g_array_index (recorder.emitted_at, gint64, 4);
  g_assert_cmpint (first_emitted, >=, started);
  g_assert_cmpint (last_emitted - started, >=, 300000);
  for (guint i = 1; i < recorder.emitted_at->len; i++)
    g_assert_cmpint (g_array_index (recorder.emitted_at, gint64, i), >=,
                     g_array_index (recorder.emitted_at, gint64, i - 1));

  if (codec_decodes ())
    {
      g_assert_cmpint (g_array_index (recorder.kinds, int, 0), ==, NEARBY_FRAME_KIND_URL);
      g_assert_cmpint (g_array_index (recorder.kinds, int, 1), ==, NEARBY_FRAME_KIND_TLM);
      g_assert_cmpint (g_array_index (recorder.kinds, int, 2), ==, NEARBY_FRAME_KIND_URL);
      g_assert_cmpint (g_array_index (recorder.kinds, int, 3), ==, NEARBY_FRAME_KIND_IBEACON);
    }

  recorder_clear (&recorder);
}

static void
test_speed (void)
{
  Recorder recorder;
  g_autoptr(NearbyReplay) replay = NULL;
  gint64 started;

  /* Ten times as fast: the 300 ms capture still keeps its order and at least 30 ms. */
  recorder_init (&recorder);
  replay = replay_for ("capture-good.jsonl", 10.0, &recorder);
  g_assert_cmpfloat (nearby_replay_get_speed (replay), ==, 10.0);
  started = g_get_monotonic_time ();
  nearby_replay_start (replay);
  wait_until_done (replay);
  g_assert_cmpuint (recorder.addresses->len, ==, 5);
  g_assert_cmpint (g_array_index (recorder.emitted_at, gint64, 4) - started, >=, 30000);
  recorder_clear (&recorder);
  g_clear_object (&replay);

  /* Speed 0: as fast as the file reads, everything still there. */
  recorder_init (&recorder);
  replay = replay_for ("capture-good.jsonl", 0.0, &recorder);
  nearby_replay_start (replay);
  wait_until_done (replay);
  g_assert_cmpuint (recorder.addresses->len, ==, 5);
  g_assert_cmpint (nearby_source_get_state (NEARBY_SOURCE (replay)), ==,
                   NEARBY_SOURCE_STATE_FINISHED);
  recorder_clear (&recorder);
}

/* An Android HCI snoop log plays as a capture of Nearby's own does: its beacons' reports, in
 * order, at its pace; the record cut short is said with its number, and what follows plays. */
static void
test_btsnoop (void)
{
  Recorder recorder;
  g_autoptr(NearbyReplay) replay = NULL;
  gint64 started;

  recorder_init (&recorder);
  replay = replay_for ("capture-street.btsnoop", 10.0, &recorder);
  started = g_get_monotonic_time ();
  nearby_replay_start (replay);
  wait_until_done (replay);

  g_assert_cmpint (nearby_source_get_state (NEARBY_SOURCE (replay)), ==,
                   NEARBY_SOURCE_STATE_FINISHED);
  /* Four rounds of five beacon frames; the phone, the watch and the lamp are no beacons. */
  g_assert_cmpuint (recorder.addresses->len, ==, 20);
  g_assert_cmpstr (recorder.addresses->pdata[0], ==, "C0:FF:EE:00:00:01");
  g_assert_cmpstr (recorder.addresses->pdata[1], ==, "00:1A:7D:DA:71:13");
  g_assert_cmpstr (recorder.addresses->pdata[2], ==, "D4:00:00:00:00:04");
  g_assert_cmpstr (recorder.addresses->pdata[3], ==, "C0:FF:EE:00:00:01");
  /* The bus stop's advertisement, whole from its two pieces. */
  g_assert_cmpstr (recorder.addresses->pdata[4], ==, "5A:3B:00:00:00:02");
  g_assert_cmpint (g_array_index (recorder.kinds, int, 0), ==, NEARBY_FRAME_KIND_URL);
  g_assert_cmpint (g_array_index (recorder.kinds, int, 2), ==, NEARBY_FRAME_KIND_IBEACON);
  g_assert_cmpint (g_array_index (recorder.kinds, int, 3), ==, NEARBY_FRAME_KIND_TLM);
  g_assert_cmpint (g_array_index (recorder.kinds, int, 4), ==, NEARBY_FRAME_KIND_URL);
  g_assert_cmpint (g_array_index (recorder.rssi, int, 0), ==, -58);
  g_assert_cmpint (g_array_index (recorder.rssi, int, 5), ==, -59);
  g_assert_cmpint (g_array_index (recorder.rssi, int, 4), ==, -67);

  g_assert_cmpuint (recorder.error_lines->len, ==, 1);
  g_assert_cmpuint (g_array_index (recorder.error_lines, guint, 0), ==, 13);
  g_assert_cmpstr (recorder.error_messages->pdata[0], ==,
                   "record 13: the event says 48 bytes of parameters, the record holds 2");
  g_assert_cmpuint (nearby_replay_get_n_errors (replay), ==, 1);

  /* 1.62 s of capture at ten times its pace: not sooner than 162 ms. */
  g_assert_cmpint (g_array_index (recorder.emitted_at, gint64, 19) - started, >=, 162000);
  recorder_clear (&recorder);
}

/* 100 000 reports, a quarter of them beacons, play to their end as fast as they can. */
static void
test_btsnoop_large (void)
{
  g_autofree char *dir = nearby_test_make_temp_dir ("replay-btsnoop-XXXXXX");
  g_autofree char *path = g_build_filename (dir, "large.btsnoop", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(NearbyReplay) replay = NULL;
  NearbyTestBtsnoop *writer = nearby_test_btsnoop_new (NEARBY_BTSNOOP_DATALINK_HCI_UART);
  static const guint8 lamp[] = { 0x02, 0x01, 0x06, 0x05, 0x09, 'L', 'a', 'm', 'p' };
  guint8 beacon[31];
  gsize beacon_len = nearby_test_ad_eddystone_url ("https://example.com/", -20, beacon);

  for (guint i = 0; i < 25000; i++)
    {
      g_autoptr(GByteArray) event = nearby_test_le_event_new (NEARBY_BTSNOOP_LE_ADVERTISING_REPORT);
      char address[18];

      g_snprintf (address, sizeof address, "C0:FF:EE:00:%02X:%02X", i >> 8 & 0xff, i & 0xff);
      nearby_test_le_event_add_legacy (event, 0x03, 0x01, address, beacon, beacon_len, -60);
      for (guint j = 0; j < 3; j++)
        nearby_test_le_event_add_legacy (event, 0x00, 0x00, "00:1A:7D:DA:71:13", lamp,
                                         sizeof lamp, -80);
      nearby_test_btsnoop_add_event (writer, G_GINT64_CONSTANT (1777896000000000) + i * 1000,
                                     event);
    }
  g_assert_true (nearby_test_btsnoop_save (writer, path));

  replay = nearby_replay_new (file);
  nearby_replay_set_speed (replay, 0);
  nearby_replay_start (replay);
  WAIT_UNTIL (replay_is_done (replay));

  g_assert_cmpint (nearby_source_get_state (NEARBY_SOURCE (replay)), ==,
                   NEARBY_SOURCE_STATE_FINISHED);
  g_assert_cmpuint (nearby_replay_get_n_sightings (replay), ==, 25000);
  g_assert_cmpuint (nearby_replay_get_n_errors (replay), ==, 0);
  nearby_test_remove_tree (dir);
}

/* A file that says it is a btsnoop capture but of a datalink without HCI is an error of the
 * whole replay, said in a sentence. */
static void
test_btsnoop_unknown_datalink (void)
{
  g_autofree char *dir = nearby_test_make_temp_dir ("replay-btsnoop-XXXXXX");
  g_autofree char *path = g_build_filename (dir, "ethernet.btsnoop", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(NearbyReplay) replay = NULL;
  g_autofree char *message = NULL;

  g_assert_true (g_file_set_contents (path, "btsnoop\0\0\0\0\1\0\0\0\1", 16, NULL));
  replay = nearby_replay_new (file);
  nearby_replay_start (replay);
  WAIT_UNTIL (replay_is_done (replay));

  g_assert_cmpint (nearby_source_get_state (NEARBY_SOURCE (replay)), ==,
                   NEARBY_SOURCE_STATE_ERROR);
  message = nearby_source_dup_state_message (NEARBY_SOURCE (replay));
  g_assert_cmpstr (message, ==,
                   "Could not read the capture: btsnoop datalink 1 is not known: Nearby reads "
                   "1001 (HCI), 1002 (HCI UART) and 2001 (Linux monitor)");
  nearby_test_remove_tree (dir);
}

static void
test_bad_lines (void)
{
  static const struct {
    guint       line;
    const char *message;
  } expected[] = {
    { 2, "line 2: not JSON" },
    { 3, "line 3: address is missing" },
    { 4, "line 4: time is missing" },
    { 5, "line 5: time “yesterday” is not an ISO 8601 date" },
    { 6, "line 6: raw is not hexadecimal" },
    { 7, "line 7: time goes back 1.000 s from the line before" },
    { 8, "line 8: not a JSON object" },
    { 9, "line 9: rssi is not a number of dBm" },
    { 10, "line 10: neither uuid nor company_id says what raw is" },
    { 11, "line 11: uuid “fe” is not a 16-bit Bluetooth UUID" },
    { 12, "line 12: raw is 32 bytes, longer than an advertisement" },
    { 13, "line 13: company_id is not a 16-bit number" },
    { 14, "line 14: not JSON" },
    { 16, "line 16: not UTF-8 text" },
  };
  Recorder recorder;
  g_autoptr(NearbyReplay) replay = NULL;
  g_autofree char *message = NULL;
  const char * const *errors;

  recorder_init (&recorder);
  replay = replay_for ("capture-bad.jsonl", 0.0, &recorder);
  nearby_replay_start (replay);
  wait_until_done (replay);

  /* Every bad line is skipped with its number and reason... */
  g_assert_cmpint (nearby_source_get_state (NEARBY_SOURCE (replay)), ==,
                   NEARBY_SOURCE_STATE_FINISHED);
  g_assert_cmpuint (recorder.error_lines->len, ==, G_N_ELEMENTS (expected));
  g_assert_cmpuint (nearby_replay_get_n_errors (replay), ==, G_N_ELEMENTS (expected));
  errors = nearby_replay_get_errors (replay);
  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    {
      g_assert_cmpuint (g_array_index (recorder.error_lines, guint, i), ==, expected[i].line);
      g_assert_true (g_str_has_prefix (recorder.error_messages->pdata[i], expected[i].message));
      g_assert_cmpstr (errors[i], ==, recorder.error_messages->pdata[i]);
    }
  g_assert_null (errors[G_N_ELEMENTS (expected)]);

  /* ...and the good ones around them all arrive, the last one without a final newline. */
  g_assert_cmpuint (recorder.addresses->len, ==, 3);
  g_assert_cmpstr (recorder.addresses->pdata[0], ==, "C0:FF:EE:00:00:01");
  g_assert_cmpstr (recorder.addresses->pdata[1], ==, "C0:FF:EE:00:00:02");
  g_assert_cmpstr (recorder.addresses->pdata[2], ==, "C0:FF:EE:00:00:03");
  g_assert_cmpint (g_array_index (recorder.rssi, int, 2), ==, -66);

  /* The end says what was skipped, and why the first one was. */
  message = nearby_source_dup_state_message (NEARBY_SOURCE (replay));
  g_assert_true (g_str_has_prefix (message, "The capture has been replayed, except 14 lines that "
                                            "were skipped. The first one:\nline 2: not JSON"));

  recorder_clear (&recorder);
}

/* A capture none of whose lines could be replayed must not end as if it had been. */
static void
test_all_lines_bad (void)
{
  Recorder recorder;
  g_autoptr(NearbyReplay) replay = NULL;
  g_autofree char *message = NULL;

  recorder_init (&recorder);
  replay = replay_for ("capture-all-bad.jsonl", 0.0, &recorder);
  nearby_replay_start (replay);
  wait_until_done (replay);

  g_assert_cmpint (nearby_source_get_state (NEARBY_SOURCE (replay)), ==,
                   NEARBY_SOURCE_STATE_FINISHED);
  g_assert_cmpuint (recorder.addresses->len, ==, 0);
  g_assert_cmpuint (nearby_replay_get_n_errors (replay), ==, 3);
  message = nearby_source_dup_state_message (NEARBY_SOURCE (replay));
  g_assert_true (g_str_has_prefix (message, "Nothing was replayed: all 3 lines of the capture "
                                            "were skipped. The first one:\nline 1: not JSON"));

  recorder_clear (&recorder);
}

static void
test_empty_file (void)
{
  Recorder recorder;
  g_autoptr(NearbyReplay) replay = NULL;

  recorder_init (&recorder);
  replay = replay_for ("capture-empty.jsonl", 1.0, &recorder);
  nearby_replay_start (replay);
  wait_until_done (replay);

  g_assert_cmpint (nearby_source_get_state (NEARBY_SOURCE (replay)), ==,
                   NEARBY_SOURCE_STATE_FINISHED);
  g_assert_cmpuint (recorder.addresses->len, ==, 0);
  g_assert_cmpuint (recorder.error_lines->len, ==, 0);

  recorder_clear (&recorder);
}

static void
test_missing_file (void)
{
  Recorder recorder;
  g_autoptr(NearbyReplay) replay = NULL;
  g_autofree char *message = NULL;

  recorder_init (&recorder);
  replay = replay_for ("no-such-capture.jsonl", 1.0, &recorder);
  nearby_replay_start (replay);
  wait_until_done (replay);

  g_assert_cmpint (nearby_source_get_state (NEARBY_SOURCE (replay)), ==,
                   NEARBY_SOURCE_STATE_ERROR);
  message = nearby_source_dup_state_message (NEARBY_SOURCE (replay));
  g_assert_nonnull (message);
  g_test_message ("%s", message);
  g_assert_nonnull (strstr (message, "no-such-capture.jsonl"));
  g_assert_nonnull (strstr (message, "No such file"));
  g_assert_cmpuint (recorder.addresses->len, ==, 0);

  recorder_clear (&recorder);
}

/* Lines built to hurt the parser are refused with a reason; the lines after them still play. */
static void
test_hostile_lines (void)
{
  static const char good[] =
    "{\"time\":\"2026-12-03T05:28:22Z\",\"address\":\"%s\",\"rssi\":-60,"
    "\"uuid\":\"feaa\",\"raw\":\"10ec036578616d706c6507\"}\n";
  g_autoptr(GString) capture = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GFile) file = NULL;
  g_autoptr(NearbyReplay) replay = NULL;
  g_autofree char *path = NULL;
  Recorder recorder;
  int fd;

  g_string_append_printf (capture, good, "C0:FF:EE:00:00:01");
  /* 10 000 nested arrays: json-glib would recurse deeper with each (and a long enough line of
   * them overflows the stack). */
  for (guint i = 0; i < 10000; i++)
    g_string_append_c (capture, '[');
  g_string_append_c (capture, '\n');
  /* Brackets inside a string are text, not nesting: that line is fine. */
  g_string_append_printf (capture, good, "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[");
  /* A megabyte of one line. */
  g_string_append (capture, "{\"time\":\"");
  for (guint i = 0; i < 1024 * 1024; i++)
    g_string_append_c (capture, '9');
  g_string_append (capture, "\"}\n");
  g_string_append_printf (capture, good, "C0:FF:EE:00:00:02");

  fd = g_file_open_tmp ("nearby-capture-XXXXXX.jsonl", &path, &error);
  g_assert_no_error (error);
  close (fd);
  g_file_set_contents (path, capture->str, capture->len, &error);
  g_assert_no_error (error);

  recorder_init (&recorder);
  file = g_file_new_for_path (path);
  replay = nearby_replay_new (file);
  nearby_replay_set_speed (replay, 0);
  g_signal_connect (replay, "sighting", G_CALLBACK (on_sighting), &recorder);
  g_signal_connect (replay, "line-error", G_CALLBACK (on_line_error), &recorder);
  nearby_replay_start (replay);
  wait_until_done (replay);

  g_assert_cmpint (nearby_source_get_state (NEARBY_SOURCE (replay)), ==,
                   NEARBY_SOURCE_STATE_FINISHED);
  g_assert_cmpuint (recorder.addresses->len, ==, 3);
  g_assert_cmpstr (recorder.addresses->pdata[1], ==, "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[");
  g_assert_cmpstr (recorder.addresses->pdata[2], ==, "C0:FF:EE:00:00:02");
  g_assert_cmpuint (recorder.error_lines->len, ==, 2);
  g_assert_cmpstr (recorder.error_messages->pdata[0], ==,
                   "line 2: nested too deeply for an advertisement");
  g_assert_cmpuint (g_array_index (recorder.error_lines, guint, 1), ==, 4);
  g_assert_true (g_str_has_suffix (recorder.error_messages->pdata[1],
                                   "bytes long, too long for an advertisement"));

  g_unlink (path);
  recorder_clear (&recorder);
}

static void
test_parse_line (void)
{
  g_autoptr(NearbySighting) sighting = NULL;
  g_autoptr(GError) error = NULL;

  /* The 128-bit form of the service UUID is understood too, and the capture time is kept. */
  sighting = nearby_replay_parse_line ("{\"time\":\"2026-12-03T05:28:22.123456Z\","
                                       "\"address\":\"AA\",\"rssi\":-1,"
                                       "\"uuid\":\"0000FED8-0000-1000-8000-00805F9B34FB\","
                                       "\"raw\":\"00 ec 03 65\"}", &error);
  g_assert_no_error (error);
  g_assert_nonnull (sighting);
  g_assert_cmpint (sighting->time_us % G_USEC_PER_SEC, ==, 123456);
  g_assert_cmpint (sighting->rssi, ==, -1);
  g_assert_cmpuint (sighting->raw_len, ==, 4);
  g_assert_cmpuint (sighting->raw[3], ==, 0x65);
  g_clear_pointer (&sighting, nearby_sighting_free);

  sighting = nearby_replay_parse_line ("{\"time\":\"2026-12-03T05:28:22Z\",\"address\":\"AA\","
                                       "\"uuid\":\"feaa\",\"raw\":\"10\"}", &error);
  g_assert_null (sighting);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
  g_assert_cmpstr (error->message, ==, "rssi is missing");
  g_clear_error (&error);

  /* A device that is no beacon, as `nearby scan --all` writes it from a btsnoop capture: passed
   * over, and said apart from a bad line. */
  sighting = nearby_replay_parse_line ("{\"time\":\"2026-05-04T12:00:00.085Z\","
                                       "\"address\":\"E8:00:00:00:00:07\",\"rssi\":-88,"
                                       "\"protocol\":null,\"raw\":\"020106\"}", &error);
  g_assert_null (sighting);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED);
}

/* Dropping the replay halfway cancels it cleanly: nothing fires afterwards. */
static void
test_dispose_while_waiting (void)
{
  Recorder recorder;
  NearbyReplay *replay;

  recorder_init (&recorder);
  replay = replay_for ("capture-good.jsonl", 0.5, &recorder);
  nearby_replay_start (replay);

  WAIT_UNTIL (recorder.addresses->len >= 1);

  g_signal_handlers_disconnect_by_data (replay, &recorder);
  g_assert_finalize_object (replay);

  /* Let any stray callback run: it must not touch the finalized replay. */
  nearby_test_run_for_ms (300);
  g_assert_cmpuint (recorder.addresses->len, ==, 1);

  recorder_clear (&recorder);
}

/* The replay feeds the object list as the scanner would. */
static void
test_into_object_list (void)
{
  Recorder recorder;
  g_autoptr(NearbyReplay) replay = NULL;
  g_autoptr(NearbyObjectList) list = NULL;
  NearbyObject *object;

  if (!codec_decodes ())
    {
      g_test_skip ("the frame codec does not decode yet");
      return;
    }

  recorder_init (&recorder);
  replay = replay_for ("capture-good.jsonl", 0.0, &recorder);
  list = nearby_object_list_new (NEARBY_SOURCE (replay));
  nearby_object_list_set_show_non_browsable (list, TRUE);
  nearby_replay_start (replay);
  wait_until_done (replay);
  nearby_object_list_flush (list);

  object = nearby_object_list_get_object_by_key (list, "https://example.com");
  g_assert_nonnull (object);
  g_assert_cmpuint (nearby_object_get_n_devices (object), ==, 2);
  g_assert_cmpint (nearby_object_get_tx_power (object), ==, -20);
  g_assert_nonnull (nearby_object_list_get_object_by_key (list,
                    "ibeacon:e2c56db5-dffb-48d2-b060-d0f5a71096e0/1/2"));
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (list)), ==, 2);

  recorder_clear (&recorder);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/replay/good-capture", test_good_capture);
  g_test_add_func ("/replay/speed", test_speed);
  g_test_add_func ("/replay/btsnoop", test_btsnoop);
  g_test_add_func ("/replay/btsnoop-large", test_btsnoop_large);
  g_test_add_func ("/replay/btsnoop-unknown-datalink", test_btsnoop_unknown_datalink);
  g_test_add_func ("/replay/bad-lines", test_bad_lines);
  g_test_add_func ("/replay/all-lines-bad", test_all_lines_bad);
  g_test_add_func ("/replay/empty-file", test_empty_file);
  g_test_add_func ("/replay/missing-file", test_missing_file);
  g_test_add_func ("/replay/hostile-lines", test_hostile_lines);
  g_test_add_func ("/replay/parse-line", test_parse_line);
  g_test_add_func ("/replay/dispose-while-waiting", test_dispose_while_waiting);
  g_test_add_func ("/replay/into-object-list", test_into_object_list);

  return g_test_run ();
}
