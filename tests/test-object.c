/* test-object.c: one object: its nearest device, its signal history, its frames, its key
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "object-list-fixture.h"

static void
test_nearest_device (Fixture       *fixture,
                     gconstpointer  data)
{
  NearbyObject *object;
  GArray *samples;

  /* One URL on two beacons, one at 1 m and one at 10 m: the object is 1 m away. */
  for (int i = 0; i < 10; i++, fixture->clock.now_us += SECOND / 10)
    {
      emit_url (fixture, "C0:FF:EE:00:00:01", "https://museum.example/room-3", 1.0);
      emit_url (fixture, "C0:FF:EE:00:00:02", "https://museum.example/room-3", 10.0);
    }
  nearby_object_list_flush (fixture->list);

  g_assert_cmpuint (n_items (fixture), ==, 1);
  object = item (fixture, 0);
  g_assert_cmpfloat_with_epsilon (nearby_object_get_distance (object), 1.0, 0.05);
  g_assert_cmpint (nearby_object_get_bucket (object), ==, NEARBY_BUCKET_NEAR);

  /* The near one goes quiet: once it is stale, the far one tells where the object is. */
  for (int i = 0; i < 120; i++, fixture->clock.now_us += SECOND / 10)
    emit_url (fixture, "C0:FF:EE:00:00:02", "https://museum.example/room-3", 10.0);
  nearby_object_list_flush (fixture->list);
  g_assert_cmpfloat_with_epsilon (nearby_object_get_distance (object), 10.0, 0.5);
  g_assert_cmpint (nearby_object_get_bucket (object), ==, NEARBY_BUCKET_FAR);
  g_assert_false (nearby_object_get_stale (object));

  /* The signal history for the inspector has samples, oldest first. */
  samples = nearby_object_dup_samples (object);
  g_assert_cmpuint (samples->len, ==, 2);
  g_assert_cmpint (g_array_index (samples, NearbyObjectSample, 0).time_us, <,
                   g_array_index (samples, NearbyObjectSample, 1).time_us);
  g_assert_cmpfloat_with_epsilon (g_array_index (samples, NearbyObjectSample, 1).distance, 10.0, 0.5);
  g_array_unref (samples);

  /* After the expiry time the silent device is forgotten, the object is not. */
  for (int i = 0; i < 250; i++, fixture->clock.now_us += SECOND / 10)
    emit_url (fixture, "C0:FF:EE:00:00:02", "https://museum.example/room-3", 10.0);
  nearby_object_list_flush (fixture->list);
  g_assert_cmpuint (nearby_object_get_n_devices (object), ==, 1);
  g_assert_null (nearby_object_list_get_object_by_address (fixture->list, "C0:FF:EE:00:00:01"));
  g_assert_cmpuint (n_items (fixture), ==, 1);
}

/* Checks that @object's history holds one sample per tick from @first_us to @last_us, oldest
 * first, at the distance the beacon was sent from. */
static void
assert_history (NearbyObject *object,
                gint64        first_us,
                gint64        last_us,
                gint64        step_us,
                double        metres)
{
  g_autoptr(GArray) samples = nearby_object_dup_samples (object);

  g_assert_cmpuint (samples->len, ==, (last_us - first_us) / step_us + 1);
  for (guint i = 0; i < samples->len; i++)
    {
      const NearbyObjectSample *sample = &g_array_index (samples, NearbyObjectSample, i);

      g_assert_cmpint (sample->time_us, ==, first_us + i * step_us);
      g_assert_cmpfloat_with_epsilon (sample->distance, metres, metres * 0.05);
    }
}

static void
test_signal_history (Fixture       *fixture,
                     gconstpointer  data)
{
  const gint64 step = NEARBY_OBJECT_LIST_TICK_INTERVAL_DEFAULT * (SECOND / 1000);
  const gint64 start = fixture->clock.now_us;
  NearbyObject *object;

  /* One sighting per tick: the history grows with the time the beacon has been in sight... */
  for (int i = 0; i < 20; i++, fixture->clock.now_us += step)
    {
      emit_url (fixture, "C0:FF:EE:00:00:01", "https://museum.example/room-3", 2.0);
      nearby_object_list_flush (fixture->list);
    }
  object = item (fixture, 0);
  assert_history (object, start, fixture->clock.now_us - step, step, 2.0);

  /* ...up to the last NEARBY_OBJECT_HISTORY_US, however long it stays. */
  for (int i = 20; i < 90 * 4; i++, fixture->clock.now_us += step)
    {
      emit_url (fixture, "C0:FF:EE:00:00:01", "https://museum.example/room-3", 2.0);
      nearby_object_list_flush (fixture->list);
    }
  assert_history (object, fixture->clock.now_us - step - NEARBY_OBJECT_HISTORY_US, fixture->clock.now_us - step, step, 2.0);
}

/* The inspector shows the bytes behind each frame: the last ones of each kind, per device. */
static void
test_raw_bytes_per_kind (Fixture       *fixture,
                         gconstpointer  data)
{
  static const guint8 url_bytes[] = { 0x10, 0xec, 0x03, 'b', 'u', 's', 0x07 };
  static const guint8 tlm_bytes[] = { 0x20, 0x00, 0x0b, 0xb8, 0x80, 0x00,
                                      0x00, 0x00, 0x00, 0x2a, 0x00, 0x00, 0x00, 0x10 };
  static const guint8 newer_url_bytes[] = { 0x10, 0xec, 0x03, 'b', 'u', 's', 0x00 };
  NearbyFrame url = url_frame ("https://bus.example/");
  NearbyFrame tlm = tlm_frame ();
  NearbySighting sighting = { 0 };
  const NearbyObjectDevice *device;
  const guint8 *raw;
  gsize len = 99;

  sighting.address = (char *) "C0:FF:EE:00:00:08";
  sighting.time_us = fixture->clock.now_us;
  sighting.rssi = rssi_at (1.0);
  sighting.frame = url;
  memcpy (sighting.raw, url_bytes, sizeof url_bytes);
  sighting.raw_len = sizeof url_bytes;
  nearby_source_emit_sighting (NEARBY_SOURCE (fixture->source), &sighting);

  sighting.frame = tlm;
  memset (sighting.raw, 0, sizeof sighting.raw);
  memcpy (sighting.raw, tlm_bytes, sizeof tlm_bytes);
  sighting.raw_len = sizeof tlm_bytes;
  nearby_source_emit_sighting (NEARBY_SOURCE (fixture->source), &sighting);
  nearby_object_list_flush (fixture->list);

  device = nearby_object_lookup_device (nearby_object_list_get_object_by_key (fixture->list,
                                                                              "https://bus.example/"),
                                        "C0:FF:EE:00:00:08");
  g_assert_nonnull (device);

  /* A TLM frame arriving under the same key does not overwrite the URL frame's bytes. */
  raw = nearby_object_device_get_raw (device, NEARBY_FRAME_KIND_URL, &len);
  g_assert_cmpmem (raw, len, url_bytes, sizeof url_bytes);
  raw = nearby_object_device_get_raw (device, NEARBY_FRAME_KIND_TLM, &len);
  g_assert_cmpmem (raw, len, tlm_bytes, sizeof tlm_bytes);
  g_assert_null (nearby_object_device_get_raw (device, NEARBY_FRAME_KIND_UID, &len));
  g_assert_cmpuint (len, ==, 0);

  /* A newer URL frame replaces the old bytes. */
  sighting.frame = url;
  memcpy (sighting.raw, newer_url_bytes, sizeof newer_url_bytes);
  sighting.raw_len = sizeof newer_url_bytes;
  nearby_source_emit_sighting (NEARBY_SOURCE (fixture->source), &sighting);
  nearby_object_list_flush (fixture->list);
  raw = nearby_object_device_get_raw (device, NEARBY_FRAME_KIND_URL, &len);
  g_assert_cmpmem (raw, len, newer_url_bytes, sizeof newer_url_bytes);

  /* A source that gives no bytes (a replay of an old capture) leaves none rather than stale ones;
   * one that claims more than a frame can hold is not trusted. */
  sighting.raw_len = 0;
  nearby_source_emit_sighting (NEARBY_SOURCE (fixture->source), &sighting);
  sighting.frame = tlm;
  sighting.raw_len = sizeof sighting.raw + 1;
  nearby_source_emit_sighting (NEARBY_SOURCE (fixture->source), &sighting);
  nearby_object_list_flush (fixture->list);
  g_assert_null (nearby_object_device_get_raw (device, NEARBY_FRAME_KIND_URL, &len));
  g_assert_cmpuint (len, ==, 0);
  g_assert_null (nearby_object_device_get_raw (device, NEARBY_FRAME_KIND_TLM, &len));
  g_assert_nonnull (nearby_object_device_get_frame (device, NEARBY_FRAME_KIND_URL));
}

static void
test_path_loss_exponent (Fixture       *fixture,
                         gconstpointer  data)
{
  NearbyObject *object;

  emit_url (fixture, "C0:FF:EE:00:06:01", "https://hall.example/", 8.0);
  nearby_object_list_flush (fixture->list);
  object = item (fixture, 0);
  g_assert_cmpfloat_with_epsilon (nearby_object_get_distance (object), 8.0, 0.1);
  g_assert_cmpint (nearby_object_get_bucket (object), ==, NEARBY_BUCKET_FAR);

  /* Indoors, n = 3: the same signal is a nearer object, for devices already known too. */
  nearby_object_list_set_path_loss_exponent (fixture->list, 3.0);
  nearby_object_list_flush (fixture->list);
  g_assert_cmpfloat_with_epsilon (nearby_object_get_distance (object), 4.0, 0.1);
  g_assert_cmpint (nearby_object_get_bucket (object), ==, NEARBY_BUCKET_NEAR);
}

static void
test_history_score (void)
{
  gint64 now = 1000 * 24 * 3600 * SECOND;
  gint64 day = 24 * 3600 * SECOND;

  g_assert_cmpfloat (nearby_object_compute_history_score (0, now, now), ==, 0.0);
  g_assert_cmpfloat_with_epsilon (nearby_object_compute_history_score (1, now, now), 1.0, 1e-9);
  /* More visits rank higher, but ten times the visits is not ten times the score. */
  g_assert_cmpfloat (nearby_object_compute_history_score (10, now, now), >,
                     nearby_object_compute_history_score (3, now, now));
  g_assert_cmpfloat (nearby_object_compute_history_score (10, now, now), <, 4.0);
  /* Two weeks halve it; a habit from last year counts less than one visit yesterday. */
  g_assert_cmpfloat_with_epsilon (nearby_object_compute_history_score (1, now - 14 * day, now),
                                  0.5, 1e-9);
  g_assert_cmpfloat (nearby_object_compute_history_score (50, now - 365 * day, now), <,
                     nearby_object_compute_history_score (1, now - day, now));
}

static void
test_identity_keys (void)
{
  char key[NEARBY_OBJECT_KEY_MAX];
  NearbyFrame frame = { 0 };

  frame.kind = NEARBY_FRAME_KIND_IBEACON;
  for (guint i = 0; i < 16; i++)
    frame.ibeacon_uuid[i] = (guint8) (0x10 + i);
  frame.ibeacon_major = 1;
  frame.ibeacon_minor = 65535;
  g_assert_cmpint (nearby_object_key_for_frame (&frame, "AA:BB", key), ==, 1);
  g_assert_cmpstr (key, ==, "ibeacon:10111213-1415-1617-1819-1a1b1c1d1e1f/1/65535");

  frame = uid_frame (0x2a);
  g_assert_cmpint (nearby_object_key_for_frame (&frame, "AA:BB", key), ==, 2);
  g_assert_cmpstr (key, ==, "eddystone-uid:abababababababababab/00000000002a");

  frame.kind = NEARBY_FRAME_KIND_EID;
  g_assert_cmpint (nearby_object_key_for_frame (&frame, "AA:BB", key), ==, 0);
  g_assert_cmpstr (key, ==, "address:AA:BB");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  add_fixture_test ("/object/nearest-device", test_nearest_device);
  add_fixture_test ("/object/signal-history", test_signal_history);
  add_fixture_test ("/object/raw-bytes-per-kind", test_raw_bytes_per_kind);
  add_fixture_test ("/object/path-loss-exponent", test_path_loss_exponent);
  g_test_add_func ("/object/history-score", test_history_score);
  g_test_add_func ("/object/identity-keys", test_identity_keys);

  return g_test_run ();
}
