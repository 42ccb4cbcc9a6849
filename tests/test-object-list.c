/* test-object-list.c: sightings merged into objects, expiry and the view filters
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <time.h>

#include "object-list-fixture.h"

static void
test_merge_by_url (Fixture       *fixture,
                   gconstpointer  data)
{
  NearbyObject *object;

  emit_url (fixture, "C0:FF:EE:00:00:01", "https://example.com/", 2.0);
  emit_url (fixture, "C0:FF:EE:00:00:01", "https://example.com/", 2.0);
  emit_url (fixture, "C0:FF:EE:00:00:02", "https://example.com/", 3.0);
  emit_url (fixture, "C0:FF:EE:00:00:03", "https://example.org/", 3.0);

  /* Nothing is shown before the tick. */
  g_assert_cmpuint (n_items (fixture), ==, 0);
  g_assert_cmpuint (fixture->n_changes, ==, 0);

  nearby_object_list_flush (fixture->list);
  g_assert_cmpuint (n_items (fixture), ==, 2);
  g_assert_cmpuint (fixture->n_changes, ==, 1);

  object = nearby_object_list_get_object_by_key (fixture->list, "https://example.com/");
  g_assert_nonnull (object);
  g_assert_cmpstr (nearby_object_get_url (object), ==, "https://example.com/");
  g_assert_true (nearby_object_get_browsable (object));
  g_assert_cmpuint (nearby_object_get_n_devices (object), ==, 2);
  g_assert_nonnull (nearby_object_lookup_device (object, "C0:FF:EE:00:00:02"));
  g_assert_true (nearby_object_list_get_object_by_address (fixture->list, "C0:FF:EE:00:00:02")
                 == object);
  g_assert_cmpint (nearby_object_get_last_seen (object), ==, fixture->clock.now_us);
  g_assert_cmpint (nearby_object_get_tx_power (object), ==, TX_POWER);
  g_assert_cmpint (nearby_object_get_bucket (object), ==, NEARBY_BUCKET_NEAR);
  g_assert_cmpuint (nearby_object_list_get_n_objects (fixture->list), ==, 2);
  g_assert_cmpuint (nearby_object_list_get_n_sightings (fixture->list), ==, 4);
}

static void
test_url_tlm_rotation (Fixture       *fixture,
                       gconstpointer  data)
{
  NearbyFrame tlm = tlm_frame ();
  NearbyObject *object;
  const NearbyObjectDevice *device;

  nearby_object_list_set_show_non_browsable (fixture->list, TRUE);

  /* TLM first: until the URL comes round, the device is an object of its own. */
  emit_frame (fixture, "C0:FF:EE:00:00:07", &tlm, rssi_at (2.0));
  nearby_object_list_flush (fixture->list);
  g_assert_cmpuint (n_items (fixture), ==, 1);
  object = item (fixture, 0);
  g_assert_cmpstr (nearby_object_get_key (object), ==, "address:C0:FF:EE:00:00:07");
  g_assert_false (nearby_object_get_browsable (object));
  g_assert_null (nearby_object_get_url (object));

  /* Then it rotates URL and TLM frames under the same service-data key: one object. */
  fixture->clock.now_us += SECOND;
  for (int i = 0; i < 20; i++, fixture->clock.now_us += SECOND / 10)
    {
      if (i % 2 == 0)
        emit_url (fixture, "C0:FF:EE:00:00:07", "https://bus.example/stop/42", 2.0);
      else
        emit_frame (fixture, "C0:FF:EE:00:00:07", &tlm, rssi_at (2.0));
    }
  nearby_object_list_flush (fixture->list);

  g_assert_cmpuint (nearby_object_list_get_n_objects (fixture->list), ==, 1);
  g_assert_cmpuint (n_items (fixture), ==, 1);
  g_assert_null (nearby_object_list_get_object_by_key (fixture->list,
                                                       "address:C0:FF:EE:00:00:07"));
  object = item (fixture, 0);
  g_assert_cmpstr (nearby_object_get_url (object), ==, "https://bus.example/stop/42");
  g_assert_cmpuint (fixture->removed_objects->len, ==, 1);

  device = nearby_object_lookup_device (object, "C0:FF:EE:00:00:07");
  g_assert_nonnull (device);
  g_assert_nonnull (nearby_object_device_get_frame (device, NEARBY_FRAME_KIND_URL));
  g_assert_nonnull (nearby_object_device_get_frame (device, NEARBY_FRAME_KIND_TLM));
  g_assert_cmpuint (nearby_object_device_get_frame (device, NEARBY_FRAME_KIND_TLM)->battery_mv,
                    ==, 3000);
  g_assert_null (nearby_object_device_get_frame (device, NEARBY_FRAME_KIND_UID));
  /* TLM frames carry no calibrated power: the distance comes from the URL frame's. */
  g_assert_cmpfloat_with_epsilon (nearby_object_get_distance (object), 2.0, 0.1);
  /* Its history came along: first seen with the TLM frame. */
  g_assert_cmpint (nearby_object_get_first_seen (object), ==, 1000 * SECOND);
}

/* A beacon with two URL slots: two objects, each with the device. */
static void
test_two_urls_one_device (Fixture       *fixture,
                          gconstpointer  data)
{
  NearbyObject *first;
  NearbyObject *second;

  for (int i = 0; i < 20; i++, fixture->clock.now_us += SECOND / 10)
    emit_url (fixture, "C0:FF:EE:00:08:01",
              i % 2 == 0 ? "https://slot.example/one" : "https://slot.example/two", 2.0);
  nearby_object_list_flush (fixture->list);

  g_assert_cmpuint (n_items (fixture), ==, 2);
  first = nearby_object_list_get_object_by_key (fixture->list, "https://slot.example/one");
  second = nearby_object_list_get_object_by_key (fixture->list, "https://slot.example/two");
  g_assert_nonnull (first);
  g_assert_nonnull (second);
  g_assert_nonnull (nearby_object_lookup_device (first, "C0:FF:EE:00:08:01"));
  g_assert_nonnull (nearby_object_lookup_device (second, "C0:FF:EE:00:08:01"));
  g_assert_cmpfloat_with_epsilon (nearby_object_get_distance (first), 2.0, 0.1);
  g_assert_cmpfloat_with_epsilon (nearby_object_get_distance (second), 2.0, 0.1);

  /* The beacon drops its second slot: that object goes stale and away, the first stays. */
  for (int i = 0; i < 350; i++, fixture->clock.now_us += SECOND / 10)
    emit_url (fixture, "C0:FF:EE:00:08:01", "https://slot.example/one", 2.0);
  nearby_object_list_flush (fixture->list);
  g_assert_cmpuint (n_items (fixture), ==, 1);
  g_assert_cmpstr (url_at (fixture, 0), ==, "https://slot.example/one");
}

/* A place where many beacons send one URL (or one UID): one object with many devices, each found
 * by its address as devices come, go quiet and move to another object. */
static void
test_many_devices (Fixture       *fixture,
                   gconstpointer  data)
{
  NearbyFrame uid = uid_frame (9);
  NearbyObject *object;
  NearbyObject *uid_object;
  char address[32];

  for (int i = 0; i < 12; i++)
    {
      g_snprintf (address, sizeof address, "C0:FF:EE:00:09:%02X", i);
      emit_url (fixture, address, "https://hall.example/", 1.0 + i);
    }
  nearby_object_list_flush (fixture->list);
  g_assert_cmpuint (n_items (fixture), ==, 1);
  object = item (fixture, 0);
  g_assert_cmpuint (nearby_object_get_n_devices (object), ==, 12);
  for (int i = 0; i < 12; i++)
    {
      g_snprintf (address, sizeof address, "C0:FF:EE:00:09:%02X", i);
      g_assert_cmpstr (nearby_object_device_get_address (nearby_object_lookup_device (object, address)),
                       ==, address);
      g_assert_true (nearby_object_list_get_object_by_address (fixture->list, address) == object);
    }
  g_assert_null (nearby_object_lookup_device (object, "C0:FF:EE:00:09:FF"));
  g_assert_cmpfloat_with_epsilon (nearby_object_get_distance (object), 1.0, 0.05);

  /* The odd ones go quiet past the expiry time: forgotten, the others still found. */
  for (int t = 0; t < 35; t++, fixture->clock.now_us += SECOND)
    {
      for (int i = 0; i < 12; i += 2)
        {
          g_snprintf (address, sizeof address, "C0:FF:EE:00:09:%02X", i);
          emit_url (fixture, address, "https://hall.example/", 1.0 + i);
        }
      nearby_object_list_flush (fixture->list);
    }
  g_assert_cmpuint (nearby_object_get_n_devices (object), ==, 6);
  for (int i = 0; i < 12; i++)
    {
      g_snprintf (address, sizeof address, "C0:FF:EE:00:09:%02X", i);
      if (i % 2 == 0)
        g_assert_nonnull (nearby_object_lookup_device (object, address));
      else
        g_assert_null (nearby_object_lookup_device (object, address));
    }

  /* One comes back. */
  emit_url (fixture, "C0:FF:EE:00:09:01", "https://hall.example/", 2.0);
  nearby_object_list_flush (fixture->list);
  g_assert_cmpuint (nearby_object_get_n_devices (object), ==, 7);
  g_assert_nonnull (nearby_object_lookup_device (object, "C0:FF:EE:00:09:01"));

  /* Nine beacons of one UID; the first then sends a URL, and its device moves to that object. */
  for (int i = 0; i < 9; i++)
    {
      g_snprintf (address, sizeof address, "C0:FF:EE:00:0A:%02X", i);
      emit_frame (fixture, address, &uid, rssi_at (3.0));
    }
  nearby_object_list_flush (fixture->list);
  uid_object = nearby_object_list_get_object_by_address (fixture->list, "C0:FF:EE:00:0A:08");
  g_assert_nonnull (uid_object);
  g_assert_cmpuint (nearby_object_get_n_devices (uid_object), ==, 9);

  emit_url (fixture, "C0:FF:EE:00:0A:00", "https://hall.example/", 3.0);
  nearby_object_list_flush (fixture->list);
  g_assert_cmpuint (nearby_object_get_n_devices (uid_object), ==, 8);
  g_assert_null (nearby_object_lookup_device (uid_object, "C0:FF:EE:00:0A:00"));
  g_assert_nonnull (nearby_object_lookup_device (uid_object, "C0:FF:EE:00:0A:08"));
  g_assert_cmpuint (nearby_object_get_n_devices (object), ==, 8);
  g_assert_nonnull (nearby_object_lookup_device (object, "C0:FF:EE:00:0A:00"));
  g_assert_true (nearby_object_list_get_object_by_address (fixture->list, "C0:FF:EE:00:0A:00")
                 == object);
}

static void
test_stale_and_expiry (Fixture       *fixture,
                       gconstpointer  data)
{
  g_autoptr(NearbyObject) object = NULL;
  guint stale_notifications = 0;

  g_assert_cmpuint (nearby_object_list_get_stale_timeout (fixture->list), ==, 10000);
  g_assert_cmpuint (nearby_object_list_get_expiry_timeout (fixture->list), ==, 30000);

  emit_url (fixture, "C0:FF:EE:00:00:01", "https://kiosk.example/", 2.0);
  nearby_object_list_flush (fixture->list);
  object = g_object_ref (item (fixture, 0));
  g_signal_connect (object, "notify::stale", G_CALLBACK (on_notify_count), &stale_notifications);

  fixture->clock.now_us += 9 * SECOND;
  nearby_object_list_flush (fixture->list);
  g_assert_false (nearby_object_get_stale (object));

  fixture->clock.now_us += 2 * SECOND;
  nearby_object_list_flush (fixture->list);
  g_assert_true (nearby_object_get_stale (object));
  g_assert_cmpuint (stale_notifications, ==, 1);
  g_assert_cmpuint (n_items (fixture), ==, 1);

  /* Seen again: fresh. */
  emit_url (fixture, "C0:FF:EE:00:00:01", "https://kiosk.example/", 2.0);
  nearby_object_list_flush (fixture->list);
  g_assert_false (nearby_object_get_stale (object));
  g_assert_cmpuint (stale_notifications, ==, 2);

  fixture->clock.now_us += 29 * SECOND;
  nearby_object_list_flush (fixture->list);
  g_assert_cmpuint (n_items (fixture), ==, 1);

  fixture->clock.now_us += 2 * SECOND;
  nearby_object_list_flush (fixture->list);
  g_assert_cmpuint (n_items (fixture), ==, 0);
  g_assert_null (nearby_object_list_get_object_by_key (fixture->list, "https://kiosk.example/"));
  g_assert_null (nearby_object_list_get_object_by_address (fixture->list, "C0:FF:EE:00:00:01"));
  g_assert_cmpuint (fixture->removed_objects->len, ==, 1);
  g_assert_true (fixture->removed_objects->pdata[0] == object);

  /* Shorter timeouts are properties. */
  nearby_object_list_set_stale_timeout (fixture->list, 1000);
  nearby_object_list_set_expiry_timeout (fixture->list, 2000);
  emit_url (fixture, "C0:FF:EE:00:00:01", "https://kiosk.example/", 2.0);
  fixture->clock.now_us += 1500 * 1000;
  nearby_object_list_flush (fixture->list);
  g_assert_cmpuint (n_items (fixture), ==, 1);
  g_assert_true (nearby_object_get_stale (item (fixture, 0)));
  fixture->clock.now_us += 1000 * 1000;
  nearby_object_list_flush (fixture->list);
  g_assert_cmpuint (n_items (fixture), ==, 0);

  /* A source whose clock runs an hour ahead cannot keep an object alive for that hour. */
  {
    NearbyFrame frame = url_frame ("https://skewed.example/");
    NearbySighting sighting = { 0 };

    sighting.address = (char *) "C0:FF:EE:00:00:09";
    sighting.time_us = fixture->clock.now_us + 3600 * SECOND;
    sighting.rssi = rssi_at (2.0);
    sighting.frame = frame;
    nearby_source_emit_sighting (NEARBY_SOURCE (fixture->source), &sighting);
    nearby_object_list_flush (fixture->list);
    g_assert_cmpuint (n_items (fixture), ==, 1);
    g_assert_cmpint (nearby_object_get_last_seen (item (fixture, 0)), ==, fixture->clock.now_us);
    fixture->clock.now_us += 3 * SECOND;
    nearby_object_list_flush (fixture->list);
    g_assert_cmpuint (n_items (fixture), ==, 0);
  }
}

static void
test_filtering (Fixture       *fixture,
                gconstpointer  data)
{
  NearbyFrame uid = uid_frame (1);
  NearbyFrame invisible = url_frame ("https://hidden.example/");
  NearbyFrame broken = url_frame ("https://broken.example/");
  NearbyFrame nothing = { 0 };
  NearbyObject *object;

  invisible.protocol = NEARBY_PROTOCOL_URIBEACON;
  invisible.service_uuid = NEARBY_UUID16_URIBEACON;
  invisible.invisible = TRUE;
  broken.error = NEARBY_FRAME_ERROR_RESERVED_BYTE;

  emit_url (fixture, "C0:FF:EE:00:05:01", "https://shown.example/", 2.0);
  emit_frame (fixture, "C0:FF:EE:00:05:02", &uid, rssi_at (2.0));
  emit_frame (fixture, "C0:FF:EE:00:05:03", &invisible, rssi_at (2.0));
  emit_frame (fixture, "C0:FF:EE:00:05:04", &broken, rssi_at (2.0));
  emit_frame (fixture, "C0:FF:EE:00:05:05", &nothing, rssi_at (2.0));
  nearby_object_list_flush (fixture->list);

  /* Invalid frames make no object and are counted. */
  g_assert_cmpuint (nearby_object_list_get_n_invalid (fixture->list), ==, 2);
  g_assert_null (nearby_object_list_get_object_by_key (fixture->list, "https://broken.example/"));
  g_assert_cmpuint (nearby_object_list_get_n_objects (fixture->list), ==, 3);

  g_assert_cmpuint (n_items (fixture), ==, 1);
  g_assert_cmpstr (url_at (fixture, 0), ==, "https://shown.example/");

  object = nearby_object_list_get_object_by_key (fixture->list,
                                                 "eddystone-uid:abababababababababab/000000000001");
  g_assert_nonnull (object);
  g_assert_false (nearby_object_get_browsable (object));
  object = nearby_object_list_get_object_by_key (fixture->list, "https://hidden.example/");
  g_assert_nonnull (object);
  g_assert_true (nearby_object_get_invisible (object));

  nearby_object_list_set_show_non_browsable (fixture->list, TRUE);
  nearby_object_list_flush (fixture->list);
  g_assert_cmpuint (n_items (fixture), ==, 2);

  /* An iBeacon's measured power is at 1 m: heard at that power, it is 1 m away. */
  {
    NearbyFrame ibeacon = { 0 };

    ibeacon.protocol = NEARBY_PROTOCOL_IBEACON;
    ibeacon.kind = NEARBY_FRAME_KIND_IBEACON;
    ibeacon.tx_power_known = TRUE;
    ibeacon.tx_power = -59;
    ibeacon.ibeacon_major = 7;
    emit_frame (fixture, "C0:FF:EE:00:05:06", &ibeacon, -59);
    /* Newcomers join at the next ranking, a second after the last. */
    nearby_object_list_flush (fixture->list);
    g_assert_cmpuint (n_items (fixture), ==, 2);
    fixture->clock.now_us += SECOND;
    nearby_object_list_flush (fixture->list);
    object = nearby_object_list_get_object_by_address (fixture->list, "C0:FF:EE:00:05:06");
    g_assert_nonnull (object);
    g_assert_cmpstr (nearby_object_get_key (object), ==,
                     "ibeacon:00000000-0000-0000-0000-000000000000/7/0");
    g_assert_false (nearby_object_get_browsable (object));
    g_assert_cmpfloat_with_epsilon (nearby_object_get_distance (object), 1.0, 0.01);
    g_assert_cmpuint (n_items (fixture), ==, 3);
  }

  nearby_object_list_set_show_invisible (fixture->list, TRUE);
  nearby_object_list_flush (fixture->list);
  g_assert_cmpuint (n_items (fixture), ==, 4);

  nearby_object_list_set_show_non_browsable (fixture->list, FALSE);
  nearby_object_list_set_show_invisible (fixture->list, FALSE);
  nearby_object_list_flush (fixture->list);
  g_assert_cmpuint (n_items (fixture), ==, 1);
  g_assert_cmpstr (url_at (fixture, 0), ==, "https://shown.example/");
}

static void
test_throughput (Fixture       *fixture,
                 gconstpointer  data)
{
  const guint n_devices = 300;
  const guint seconds = 10;
  g_autoptr(GRand) rand = g_rand_new_with_seed (3);
  g_autoptr(GPtrArray) addresses = g_ptr_array_new_with_free_func (g_free);
  NearbyFrame *frames = g_new0 (NearbyFrame, n_devices);
  NearbySighting sighting = { 0 };
  guint n_sightings = 0;
  guint n_ticks = 0;
  clock_t cpu_start;
  double cpu_seconds;

  /* 300 devices broadcasting 100 URLs (three beacons each), plus TLM frames from a third. */
  for (guint i = 0; i < n_devices; i++)
    {
      g_autofree char *url = g_strdup_printf ("https://crowd.example/%u", i % 100);

      g_ptr_array_add (addresses, g_strdup_printf ("C0:FF:EE:01:%02X:%02X", i / 256, i % 256));
      frames[i] = i % 3 == 2 ? tlm_frame () : url_frame (url);
    }
  /* The TLM-only devices should still belong somewhere: give them a URL frame first. */
  for (guint i = 0; i < n_devices; i++)
    {
      g_autofree char *url = g_strdup_printf ("https://crowd.example/%u", i % 100);

      emit_url (fixture, addresses->pdata[i], url, 3.0);
    }

  cpu_start = clock ();
  for (guint tenth = 0; tenth < seconds * 10; tenth++)
    {
      fixture->clock.now_us += SECOND / 10;
      for (guint i = 0; i < n_devices; i++)
        {
          sighting.address = addresses->pdata[i];
          sighting.time_us = fixture->clock.now_us;
          sighting.rssi = rssi_at (1.0 + (i % 40) * 0.5) + g_rand_int_range (rand, -6, 7);
          sighting.frame = frames[i];
          nearby_source_emit_sighting (NEARBY_SOURCE (fixture->source), &sighting);
          n_sightings++;
        }
      /* A tick every 250 ms, as the timer would. */
      if (tenth % 5 == 1 || tenth % 5 == 4)
        {
          nearby_object_list_flush (fixture->list);
          n_ticks++;
        }
    }
  cpu_seconds = (double) (clock () - cpu_start) / CLOCKS_PER_SEC;

  g_test_message ("%u sightings (%u devices x 10/s for %u s) and %u ticks took %.3f s of CPU, "
                  "%.2f us per sighting; %u items-changed",
                  n_sightings, n_devices, seconds, n_ticks, cpu_seconds,
                  cpu_seconds * 1e6 / n_sightings, fixture->n_changes);

  g_assert_cmpuint (n_items (fixture), ==, 100);
  g_assert_cmpuint (nearby_object_list_get_n_objects (fixture->list), ==, 100);
  /* Never a change per sighting: at most one burst per tick. */
  g_assert_cmpuint (fixture->n_changes, <=, n_ticks);
  g_assert_cmpuint (fixture->n_changes, <, n_sightings / 1000);

  g_free (frames);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  add_fixture_test ("/object-list/merge-by-url", test_merge_by_url);
  add_fixture_test ("/object-list/url-tlm-rotation", test_url_tlm_rotation);
  add_fixture_test ("/object-list/two-urls-one-device", test_two_urls_one_device);
  add_fixture_test ("/object-list/many-devices", test_many_devices);
  add_fixture_test ("/object-list/stale-and-expiry", test_stale_and_expiry);
  add_fixture_test ("/object-list/filtering", test_filtering);
  add_fixture_test ("/object-list/throughput", test_throughput);

  return g_test_run ();
}
