/* test-source.c: sightings, and the interface every source of them (scanner, replay, demo)
 * implements
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "nearby-test-utils.h"

/* A sighting owns copies of what it was given, and keeps no more bytes than an advert has. */
static void
test_sighting_copies (void)
{
  NearbyFrame frame = nearby_test_url_frame ("https://bus.example/", -18);
  guint8 raw[NEARBY_ADV_MAX + 10];
  char address[] = "C0:FF:EE:00:00:01";
  g_autoptr(NearbySighting) sighting = NULL;
  g_autoptr(NearbySighting) copy = NULL;
  g_autoptr(NearbySighting) bare = NULL;

  for (guint i = 0; i < sizeof raw; i++)
    raw[i] = (guint8) i;

  sighting = nearby_sighting_new (address, 1000, -60, &frame, raw, sizeof raw);
  address[0] = 'X';
  raw[0] = 0xff;
  g_assert_cmpstr (sighting->address, ==, "C0:FF:EE:00:00:01");
  g_assert_cmpint (sighting->time_us, ==, 1000);
  g_assert_cmpint (sighting->rssi, ==, -60);
  g_assert_cmpstr (sighting->frame.url, ==, "https://bus.example/");
  g_assert_cmpuint (sighting->raw_len, ==, NEARBY_ADV_MAX);
  g_assert_cmpuint (sighting->raw[0], ==, 0);
  g_assert_cmpuint (sighting->raw[NEARBY_ADV_MAX - 1], ==, NEARBY_ADV_MAX - 1);

  sighting->config_offer = NEARBY_CONFIG_OFFER_URIBEACON;
  copy = nearby_sighting_copy (sighting);
  g_assert_cmpuint (copy->config_offer, ==, NEARBY_CONFIG_OFFER_URIBEACON);
  g_assert_true (copy->address != sighting->address);
  g_assert_cmpstr (copy->address, ==, sighting->address);
  g_assert_cmpmem (copy->raw, copy->raw_len, sighting->raw, sighting->raw_len);
  g_assert_cmpstr (copy->frame.url, ==, sighting->frame.url);

  /* No frame and no bytes: a sighting of nothing in particular. */
  bare = nearby_sighting_new ("C0:FF:EE:00:00:02", 0, NEARBY_RSSI_UNKNOWN, NULL, NULL, 5);
  g_assert_cmpint (bare->frame.kind, ==, NEARBY_FRAME_KIND_NONE);
  g_assert_cmpuint (bare->raw_len, ==, 5);

  nearby_sighting_free (NULL);
}

/* Each state has a stable name, the one logs and `nearby scan` fall back to; asked before any
 * source exists, too. */
static void
test_state_names (void)
{
  static const struct {
    NearbySourceState  state;
    const char        *name;
  } names[] = {
    { NEARBY_SOURCE_STATE_STARTING, "starting" },
    { NEARBY_SOURCE_STATE_NO_SERVICE, "no-service" },
    { NEARBY_SOURCE_STATE_NO_ADAPTER, "no-adapter" },
    { NEARBY_SOURCE_STATE_OFF, "off" },
    { NEARBY_SOURCE_STATE_RFKILL_BLOCKED, "rfkill-blocked" },
    { NEARBY_SOURCE_STATE_SCANNING, "scanning" },
    { NEARBY_SOURCE_STATE_FINISHED, "finished" },
    { NEARBY_SOURCE_STATE_ERROR, "error" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    g_assert_cmpstr (nearby_source_state_to_string (names[i].state), ==, names[i].name);
  g_assert_cmpstr (nearby_source_state_to_string (99), ==, "unknown");
}

static void
on_sighting (NearbySource         *source,
             const NearbySighting *sighting,
             GPtrArray            *seen)
{
  g_ptr_array_add (seen, nearby_sighting_copy (sighting));
}

/* What a source emits reaches whoever listens, in order; its state reads through the interface. */
static void
test_interface (void)
{
  g_autoptr(NearbyTestSource) source = nearby_test_source_new ();
  g_autoptr(GPtrArray) seen =
    g_ptr_array_new_with_free_func ((GDestroyNotify) nearby_sighting_free);
  NearbyFrame first = nearby_test_url_frame ("https://a.example/", -20);
  NearbyFrame second = nearby_test_url_frame ("https://b.example/", -20);
  g_autofree char *message = NULL;

  g_signal_connect (source, "sighting", G_CALLBACK (on_sighting), seen);
  nearby_test_source_emit (source, "C0:FF:EE:00:00:01", 1, -50, &first, NULL, 0);
  nearby_test_source_emit (source, "C0:FF:EE:00:00:02", 2, -70, &second, NULL, 0);

  g_assert_cmpuint (seen->len, ==, 2);
  g_assert_cmpstr (((NearbySighting *) seen->pdata[0])->frame.url, ==, "https://a.example/");
  g_assert_cmpstr (((NearbySighting *) seen->pdata[1])->address, ==, "C0:FF:EE:00:00:02");

  g_assert_cmpint (nearby_source_get_state (NEARBY_SOURCE (source)), ==,
                   NEARBY_SOURCE_STATE_SCANNING);
  message = nearby_source_dup_state_message (NEARBY_SOURCE (source));
  g_assert_null (message);
}

typedef struct {
  guint  n_state;
  guint  n_message;
  char  *message_seen_with_state;
} StateWatch;

static void
on_state (NearbySource *source,
          GParamSpec   *pspec,
          StateWatch   *watch)
{
  watch->n_state++;
  g_free (watch->message_seen_with_state);
  watch->message_seen_with_state = nearby_source_dup_state_message (source);
}

static void
on_state_message (NearbySource *source,
                  GParamSpec   *pspec,
                  StateWatch   *watch)
{
  watch->n_message++;
}

/* A source says what changed, once, and a window that hears the new state already reads the
 * sentence that goes with it. */
static void
test_state_changes (void)
{
  g_autoptr(NearbyTestSource) source = nearby_test_source_new ();
  StateWatch watch = { 0 };
  g_autofree char *message = NULL;

  g_signal_connect (source, "notify::state", G_CALLBACK (on_state), &watch);
  g_signal_connect (source, "notify::state-message", G_CALLBACK (on_state_message), &watch);

  nearby_test_source_set_state (source, NEARBY_SOURCE_STATE_OFF, "Bluetooth is off");
  g_assert_cmpuint (watch.n_state, ==, 1);
  g_assert_cmpuint (watch.n_message, ==, 1);
  g_assert_cmpstr (watch.message_seen_with_state, ==, "Bluetooth is off");

  /* Nothing new: nothing said. */
  nearby_test_source_set_state (source, NEARBY_SOURCE_STATE_OFF, "Bluetooth is off");
  g_assert_cmpuint (watch.n_state, ==, 1);
  g_assert_cmpuint (watch.n_message, ==, 1);

  /* Only the sentence changes. */
  nearby_test_source_set_state (source, NEARBY_SOURCE_STATE_OFF, "Bluetooth is still off");
  g_assert_cmpuint (watch.n_state, ==, 1);
  g_assert_cmpuint (watch.n_message, ==, 2);

  nearby_test_source_set_state (source, NEARBY_SOURCE_STATE_SCANNING, NULL);
  g_assert_cmpuint (watch.n_state, ==, 2);
  g_assert_cmpuint (watch.n_message, ==, 3);
  g_assert_null (watch.message_seen_with_state);
  message = nearby_source_dup_state_message (NEARBY_SOURCE (source));
  g_assert_null (message);
  g_assert_cmpint (nearby_source_get_state (NEARBY_SOURCE (source)), ==,
                   NEARBY_SOURCE_STATE_SCANNING);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  /* First: the state names must not need a source to exist. */
  g_test_add_func ("/source/state-names", test_state_names);
  g_test_add_func ("/source/sighting-copies", test_sighting_copies);
  g_test_add_func ("/source/interface", test_interface);
  g_test_add_func ("/source/state-changes", test_state_changes);

  return g_test_run ();
}
