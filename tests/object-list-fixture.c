/* object-list-fixture.c: a NearbyObjectList fed by a test source on a fake clock
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include "nearby-distance.h"
#include "object-list-fixture.h"

static void
on_items_changed (GListModel *model,
                  guint       position,
                  guint       removed,
                  guint       added,
                  Fixture    *fixture)
{
  fixture->n_changes++;
  if (removed > 0 && added > 0)
    fixture->n_moves++;
}

static void
on_object_removed (NearbyObjectList *list,
                   NearbyObject     *object,
                   Fixture          *fixture)
{
  g_ptr_array_add (fixture->removed_objects, g_object_ref (object));
}

void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  fixture->clock.now_us = 1000 * SECOND;
  fixture->source = nearby_test_source_new ();
  fixture->list = nearby_object_list_new (NEARBY_SOURCE (fixture->source));
  fixture->removed_objects = g_ptr_array_new_with_free_func (g_object_unref);
  nearby_object_list_set_clock (fixture->list, nearby_test_clock_now, &fixture->clock);
  g_signal_connect (fixture->list, "items-changed", G_CALLBACK (on_items_changed), fixture);
  g_signal_connect (fixture->list, "object-removed", G_CALLBACK (on_object_removed), fixture);
}

void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  g_clear_pointer (&fixture->removed_objects, g_ptr_array_unref);
  g_assert_finalize_object (fixture->list);
  g_assert_finalize_object (fixture->source);
}

int
rssi_at (double metres)
{
  return (int) lround (nearby_distance_expected_rssi (TX_POWER, metres, NEARBY_PATH_LOSS_DEFAULT));
}

NearbyFrame
url_frame (const char *url)
{
  return nearby_test_url_frame (url, TX_POWER);
}

NearbyFrame
tlm_frame (void)
{
  NearbyFrame frame = { 0 };

  frame.protocol = NEARBY_PROTOCOL_EDDYSTONE;
  frame.kind = NEARBY_FRAME_KIND_TLM;
  frame.service_uuid = NEARBY_UUID16_EDDYSTONE;
  frame.battery_mv = 3000;
  frame.adv_count = 42;
  return frame;
}

NearbyFrame
uid_frame (guint8 instance)
{
  NearbyFrame frame = { 0 };

  frame.protocol = NEARBY_PROTOCOL_EDDYSTONE;
  frame.kind = NEARBY_FRAME_KIND_UID;
  frame.service_uuid = NEARBY_UUID16_EDDYSTONE;
  frame.tx_power_known = TRUE;
  frame.tx_power = TX_POWER;
  memset (frame.namespace_id, 0xab, sizeof frame.namespace_id);
  frame.instance_id[5] = instance;
  return frame;
}

void
emit_frame (Fixture           *fixture,
            const char        *address,
            const NearbyFrame *frame,
            int                rssi)
{
  nearby_test_source_emit (fixture->source, address, fixture->clock.now_us, rssi, frame, NULL, 0);
}

void
emit_url (Fixture    *fixture,
          const char *address,
          const char *url,
          double      metres)
{
  NearbyFrame frame = url_frame (url);

  emit_frame (fixture, address, &frame, rssi_at (metres));
}

NearbyObject *
item (Fixture *fixture,
      guint    position)
{
  NearbyObject *object = g_list_model_get_item (G_LIST_MODEL (fixture->list), position);

  /* The list keeps its own reference; the test only looks. */
  g_object_unref (object);
  return object;
}

guint
n_items (Fixture *fixture)
{
  return g_list_model_get_n_items (G_LIST_MODEL (fixture->list));
}

const char *
url_at (Fixture *fixture,
        guint    position)
{
  return nearby_object_get_url (item (fixture, position));
}

void
on_notify_count (GObject    *object,
                 GParamSpec *pspec,
                 guint      *count)
{
  (*count)++;
}
