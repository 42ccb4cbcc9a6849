/* test-configurator.c: NearbyConfigurator against the mock bluetoothd's configurable beacons
 *
 * It is over 900 lines because each characteristic of both services, each fault and each error
 * bluetoothd can answer is a case against the same fixture and helpers (the mock, its state,
 * the run); the EID case also computes the resolver's side of the key exchange.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <nettle/aes.h>
#include <nettle/curve25519.h>
#include <nettle/hkdf.h>
#include <nettle/hmac.h>
#include <string.h>

#include "bluez-mock-harness.h"
#include "nearby-configurator.h"

#define EDDYSTONE_ADDRESS "C0:FF:EE:00:00:01"
#define URIBEACON_ADDRESS "C0:FF:EE:00:00:02"

typedef struct {
  BluezMock mock;
  char     *path;
} Fixture;

static const guint8 test_key[16] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15 };
/* What slot 0 of the mock's Eddystone beacon broadcasts as it comes: https://example.com */
static const guint8 factory_slot0[] = { 0x10, 0x00, 0x03, 'e', 'x', 'a', 'm', 'p', 'l', 'e', 0x07 };

static void
fixture_set_up (Fixture       *f,
                gconstpointer  data)
{
  bluez_mock_set_up (&f->mock);
  bluez_mock_start (&f->mock);
  bluez_mock_add_adapter (&f->mock, "hci0", TRUE);
}

static void
fixture_tear_down (Fixture       *f,
                   gconstpointer  data)
{
  g_free (f->path);
  bluez_mock_tear_down (&f->mock);
}

static void
add_beacon (Fixture    *f,
            const char *service,
            gboolean    locked)
{
  f->path = bluez_mock_add_configurable_beacon (&f->mock,
                                                g_str_equal (service, "uribeacon")
                                                ? URIBEACON_ADDRESS : EDDYSTONE_ADDRESS,
                                                service, locked, test_key);
}

/* What the beacon holds, as the mock tells it. */
static GVariant *
beacon_state (Fixture    *f,
              const char *key)
{
  g_autoptr(GVariant) reply = bluez_mock_call (&f->mock, "/", BLUEZ_MOCK_IFACE, "GetBeaconConfig",
                                               g_variant_new ("(o)", f->path), "(a{sv})");
  g_autoptr(GVariant) state = g_variant_get_child_value (reply, 0);
  GVariant *value = g_variant_lookup_value (state, key, NULL);

  g_assert_nonnull (value);
  return value;
}

static gboolean
state_bytes_equal (Fixture    *f,
                   const char *key,
                   const void *expected,
                   gsize       expected_len)
{
  g_autoptr(GVariant) value = beacon_state (f, key);
  gsize len;
  const void *data = g_variant_get_fixed_array (value, &len, 1);

  return len == expected_len && memcmp (data, expected, len) == 0;
}

static NearbyConfigureResult *
run (const char                *address,
     const NearbyBeaconChanges *changes,
     guint                      operation_ms,
     GError                   **error)
{
  g_autoptr(NearbyConfigurator) configurator = nearby_configurator_new (address, NULL);
  NearbyTestWaiter waiter = { 0 };
  g_autoptr(GAsyncResult) result = NULL;

  nearby_configurator_set_timeouts (configurator, 2000, operation_ms);
  nearby_configurator_run_async (configurator, changes, NULL, nearby_test_on_result, &waiter);
  result = nearby_test_wait_result (&waiter);

  return nearby_configurator_run_finish (configurator, result, error);
}

static guint
count_device_calls (Fixture    *f,
                    const char *method)
{
  return bluez_mock_count_object_calls (&f->mock, f->path, method);
}

static gboolean
device_connected (Fixture *f)
{
  g_autoptr(GVariant) reply = bluez_mock_call (&f->mock, f->path,
                                               "org.freedesktop.DBus.Properties", "Get",
                                               g_variant_new ("(ss)", "org.bluez.Device1",
                                                              "Connected"),
                                               "(v)");
  g_autoptr(GVariant) value = NULL;

  g_variant_get (reply, "(v)", &value);
  return g_variant_get_boolean (value);
}

static void
set_fault (Fixture    *f,
           guint8      characteristic,
           const char *fault)
{
  bluez_mock_control (&f->mock, "SetCharacteristicFault",
                      g_variant_new ("(oys)", f->path, characteristic, fault));
}

static void
assert_contains (const char *haystack,
                 const char *needle)
{
  if (strstr (haystack, needle) == NULL)
    g_error ("“%s” does not contain “%s”", haystack, needle);
}

static void
test_eddystone_read (Fixture       *f,
                     gconstpointer  data)
{
  g_autoptr(NearbyConfigureResult) result = NULL;
  g_autoptr(GError) error = NULL;
  NearbyBeaconConfig *config;
  static const int levels[] = { -30, -20, -16, -12, -8, -4, 0, 4 };

  add_beacon (f, "eddystone", FALSE);
  result = run (EDDYSTONE_ADDRESS, NULL, 5000, &error);
  g_assert_no_error (error);

  config = result->before;
  g_assert_null (result->after);
  g_assert_cmpint (config->service, ==, NEARBY_CONFIG_SERVICE_EDDYSTONE);
  g_assert_true (config->readable);
  g_assert_false (config->locked);
  g_assert_cmpuint (config->lock_state, ==, 0x02);
  g_assert_cmpuint (config->version, ==, 0);
  g_assert_cmpuint (config->max_slots, ==, 3);
  g_assert_cmpuint (config->capabilities, ==, 0x03);
  g_assert_cmpuint (config->frame_types, ==, 0x0f);
  g_assert_cmpuint (config->max_eid_slots, ==, 1);
  g_assert_true (config->has_public_key);
  g_assert_cmpuint (config->n_tx_levels, ==, G_N_ELEMENTS (levels));
  for (guint i = 0; i < G_N_ELEMENTS (levels); i++)
    g_assert_cmpint (config->tx_levels[i], ==, levels[i]);
  g_assert_cmpuint (config->active_slot, ==, 0);
  g_assert_cmpuint (config->interval_ms, ==, 1000);
  g_assert_cmpint (config->tx_power, ==, 0);
  g_assert_cmpint (config->advertised_tx_power, ==, 0);
  g_assert_true (config->can_be_non_connectable);
  g_assert_cmpint (config->frame.kind, ==, NEARBY_FRAME_KIND_URL);
  g_assert_cmpstr (config->frame.url, ==, "https://example.com");

  /* Connected for the reading, and let go after it. */
  g_assert_cmpuint (count_device_calls (f, "Connect"), ==, 1);
  g_assert_cmpuint (count_device_calls (f, "Disconnect"), ==, 1);
  g_assert_false (device_connected (f));
}

/* AES-128 of one block, as the EID specification uses it. */
static void
aes128_block (const guint8 key[16],
              const guint8 in[16],
              guint8       out[16])
{
  struct aes128_ctx ctx;

  aes128_set_encrypt_key (&ctx, key);
  aes128_encrypt (&ctx, 16, out, in);
}

/* An EID slot written with a resolver's public key: the beacon's public key read, the identity
 * key read wrapped and unwrapped with the lock key, and both agree with what the resolver
 * computes on its side (the key exchange and HKDF of the EID specification), as does the EID
 * the slot broadcasts. */
static void
test_eddystone_eid (Fixture       *f,
                    gconstpointer  data)
{
  NearbyBeaconChanges changes = NEARBY_BEACON_CHANGES_INIT;
  g_autoptr(NearbyConfigureResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GVariant) identity_keys = NULL;
  g_autoptr(GVariant) beacon_identity_key = NULL;
  guint8 resolver_private[32];
  guint8 shared[32];
  guint8 salt[64];
  guint8 prk[SHA256_DIGEST_SIZE];
  guint8 okm[SHA256_DIGEST_SIZE];
  guint8 block[16] = { 0 };
  guint8 temporary_key[16];
  guint8 eid[16];
  struct hmac_sha256_ctx hmac;
  const NearbyBeaconConfig *after;
  guint32 counter;
  gsize len;

  add_beacon (f, "eddystone", TRUE);
  for (guint i = 0; i < 32; i++)
    resolver_private[i] = (guint8) (0x40 + i);
  curve25519_mul_g (changes.eid_resolver_key, resolver_private);
  changes.set_eid = TRUE;
  changes.eid_exponent = 10;
  changes.slot = 2;
  changes.has_key = TRUE;
  memcpy (changes.key, test_key, 16);
  result = run (EDDYSTONE_ADDRESS, &changes, 5000, &error);
  g_assert_no_error (error);

  g_assert_cmpint (result->before->frame.kind, ==, NEARBY_FRAME_KIND_NONE);
  g_assert_false (result->before->has_identity_key);
  after = result->after;
  g_assert_cmpint (after->frame.kind, ==, NEARBY_FRAME_KIND_EID);
  g_assert_cmpuint (after->eid_exponent, ==, 10);
  g_assert_cmpuint (after->eid_clock, >=, 65280);
  g_assert_true (after->has_public_key);
  g_assert_true (after->has_identity_key);

  /* The beacon's own record of the key, in the clear. */
  identity_keys = beacon_state (f, "identity-keys");
  beacon_identity_key = g_variant_get_child_value (identity_keys, 2);
  g_assert_cmpmem (g_variant_get_fixed_array (beacon_identity_key, &len, 1), len,
                   after->identity_key, 16);

  /* The resolver's side: shared secret, then HKDF-SHA256 salted with both public keys. */
  curve25519_mul (shared, resolver_private, after->public_key);
  memcpy (salt, changes.eid_resolver_key, 32);
  memcpy (salt + 32, after->public_key, 32);
  hmac_sha256_set_key (&hmac, sizeof salt, salt);
  hkdf_extract (&hmac, (nettle_hash_update_func *) hmac_sha256_update,
                (nettle_hash_digest_func *) hmac_sha256_digest, SHA256_DIGEST_SIZE,
                sizeof shared, shared, prk);
  hmac_sha256_set_key (&hmac, sizeof prk, prk);
  hkdf_expand (&hmac, (nettle_hash_update_func *) hmac_sha256_update,
               (nettle_hash_digest_func *) hmac_sha256_digest, SHA256_DIGEST_SIZE,
               0, NULL, sizeof okm, okm);
  g_assert_cmpmem (okm, 16, after->identity_key, 16);

  /* The EID for the clock the beacon reported. */
  counter = after->eid_clock;
  block[11] = 0xff;
  block[14] = (guint8) (counter >> 24);
  block[15] = (guint8) (counter >> 16);
  aes128_block (after->identity_key, block, temporary_key);
  memset (block, 0, sizeof block);
  counter = counter >> 10 << 10;
  block[11] = 10;
  block[12] = (guint8) (counter >> 24);
  block[13] = (guint8) (counter >> 16);
  block[14] = (guint8) (counter >> 8);
  block[15] = (guint8) counter;
  aes128_block (temporary_key, block, eid);
  g_assert_cmpmem (eid, 8, after->frame.eid, 8);
}

/* Without the lock key (a beacon left unlocked), the identity key cannot be unwrapped: the
 * rest is read. */
static void
test_eddystone_eid_without_key (Fixture       *f,
                                gconstpointer  data)
{
  NearbyBeaconChanges changes = NEARBY_BEACON_CHANGES_INIT;
  g_autoptr(NearbyConfigureResult) result = NULL;
  g_autoptr(GError) error = NULL;

  add_beacon (f, "eddystone", FALSE);
  memset (changes.eid_resolver_key, 0x42, 32);
  changes.set_eid = TRUE;
  changes.eid_exponent = 4;
  result = run (EDDYSTONE_ADDRESS, &changes, 5000, &error);
  g_assert_no_error (error);
  g_assert_cmpint (result->after->frame.kind, ==, NEARBY_FRAME_KIND_EID);
  g_assert_cmpuint (result->after->eid_exponent, ==, 4);
  g_assert_false (result->after->has_identity_key);
}

static void
test_eddystone_write (Fixture       *f,
                      gconstpointer  data)
{
  NearbyBeaconChanges changes = NEARBY_BEACON_CHANGES_INIT;
  g_autoptr(NearbyConfigureResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GVariant) interval = NULL;
  g_autoptr(GVariant) tx = NULL;
  static const guint8 broadcast[] = { 0x10, 0xf8, 0x01, 'g', 'n', 'o', 'm', 'e', 0x08 };

  add_beacon (f, "eddystone", FALSE);
  changes.url = "https://www.gnome.org";
  changes.set_tx_power = TRUE;
  changes.tx_power = -10;        /* not in the table: the next one up, -8 */
  changes.set_interval = TRUE;
  changes.interval_ms = 50;      /* below the minimum: clamped to 100 */
  result = run (EDDYSTONE_ADDRESS, &changes, 5000, &error);
  g_assert_no_error (error);

  g_assert_cmpstr (result->before->frame.url, ==, "https://example.com");
  g_assert_nonnull (result->after);
  g_assert_cmpstr (result->after->frame.url, ==, "https://www.gnome.org");
  g_assert_cmpint (result->after->tx_power, ==, -8);
  g_assert_cmpint (result->after->interval_ms, ==, 100);

  /* What the beacon holds and, now that the link is down, broadcasts. */
  g_assert_true (state_bytes_equal (f, "slot0", broadcast, sizeof broadcast));
  interval = beacon_state (f, "interval0");
  g_assert_cmpuint (g_variant_get_uint16 (interval), ==, 100);
  tx = beacon_state (f, "radio-tx0");
  g_assert_cmpint (g_variant_get_int16 (tx), ==, -8);
  g_assert_false (device_connected (f));
}

static void
test_eddystone_slots (Fixture       *f,
                      gconstpointer  data)
{
  NearbyBeaconChanges changes = NEARBY_BEACON_CHANGES_INIT;
  g_autoptr(NearbyConfigureResult) result = NULL;
  g_autoptr(NearbyConfigureResult) slot_one = NULL;
  g_autoptr(GError) error = NULL;

  add_beacon (f, "eddystone", FALSE);
  changes.slot = 1;
  changes.set_uid = TRUE;
  for (guint i = 0; i < 16; i++)
    changes.uid[i] = (guint8) (0xa0 + i);
  result = run (EDDYSTONE_ADDRESS, &changes, 5000, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (result->after->active_slot, ==, 1);
  g_assert_cmpint (result->after->frame.kind, ==, NEARBY_FRAME_KIND_UID);
  g_assert_cmpuint (result->after->frame.namespace_id[0], ==, 0xa0);
  g_assert_cmpuint (result->after->frame.instance_id[5], ==, 0xaf);

  /* "Before" is slot 1's, which was empty; slot 0 keeps its URL. */
  g_assert_cmpuint (result->before->active_slot, ==, 1);
  g_assert_cmpint (result->before->frame.kind, ==, NEARBY_FRAME_KIND_NONE);
  g_assert_true (state_bytes_equal (f, "slot0", factory_slot0, sizeof factory_slot0));

  /* The capabilities say three slots: slot 3 is refused before anything is written. */
  changes.slot = 3;
  slot_one = run (EDDYSTONE_ADDRESS, &changes, 5000, &error);
  g_assert_error (error, NEARBY_CONFIGURATOR_ERROR, NEARBY_CONFIGURATOR_ERROR_INVALID_VALUE);
  assert_contains (error->message, "3 slots (0 to 2)");
  g_assert_false (device_connected (f));
}

/* The characteristics the other tests leave alone: telemetry, an empty slot, the advertised
 * power, remaining connectable. */
static void
test_eddystone_other_settings (Fixture       *f,
                               gconstpointer  data)
{
  NearbyBeaconChanges changes = NEARBY_BEACON_CHANGES_INIT;
  g_autoptr(NearbyConfigureResult) tlm = NULL;
  g_autoptr(NearbyConfigureResult) cleared = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GVariant) connectable = NULL;
  g_autoptr(GVariant) slots = NULL;
  g_autoptr(GVariant) slot0 = NULL;
  g_autoptr(GVariant) slot2 = NULL;

  add_beacon (f, "eddystone", FALSE);
  changes.slot = 2;
  changes.set_tlm = TRUE;
  changes.set_remain_connectable = TRUE;
  changes.remain_connectable = TRUE;
  tlm = run (EDDYSTONE_ADDRESS, &changes, 5000, &error);
  g_assert_no_error (error);
  g_assert_cmpint (tlm->before->frame.kind, ==, NEARBY_FRAME_KIND_NONE);
  g_assert_cmpint (tlm->after->frame.kind, ==, NEARBY_FRAME_KIND_TLM);
  g_assert_cmpuint (tlm->after->frame.battery_mv, ==, 3000);
  connectable = beacon_state (f, "remain-connectable");
  g_assert_cmpuint (g_variant_get_byte (connectable), ==, 1);

  /* Slot 0: its advertised power changes what it broadcasts; then it is emptied. */
  changes = (NearbyBeaconChanges) NEARBY_BEACON_CHANGES_INIT;
  changes.slot = 0;
  changes.set_advertised_tx_power = TRUE;
  changes.advertised_tx_power = -21;
  changes.clear_slot = TRUE;
  cleared = run (EDDYSTONE_ADDRESS, &changes, 5000, &error);
  g_assert_no_error (error);
  g_assert_cmpint (cleared->before->frame.kind, ==, NEARBY_FRAME_KIND_URL);
  g_assert_cmpint (cleared->after->advertised_tx_power, ==, -21);
  g_assert_cmpint (cleared->after->frame.kind, ==, NEARBY_FRAME_KIND_NONE);
  slots = beacon_state (f, "slots");
  slot0 = g_variant_get_child_value (slots, 0);
  slot2 = g_variant_get_child_value (slots, 2);
  g_assert_cmpuint (g_variant_n_children (slot0), ==, 0);
  g_assert_cmpuint (g_variant_n_children (slot2), ==, 14);
}

static void
test_eddystone_locked (Fixture       *f,
                       gconstpointer  data)
{
  NearbyBeaconChanges changes = NEARBY_BEACON_CHANGES_INIT;
  g_autoptr(NearbyConfigureResult) result = NULL;
  g_autoptr(NearbyConfigureResult) refused = NULL;
  g_autoptr(NearbyConfigureResult) wrong = NULL;
  g_autoptr(NearbyConfigureResult) relocked = NULL;
  g_autoptr(NearbyConfigureResult) with_new = NULL;
  g_autoptr(GError) error = NULL;
  static const guint8 new_key[16] = { 0xff, 0xee, 0xdd, 0xcc, 0xbb, 0xaa, 0x99, 0x88,
                                      0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11, 0x00 };

  add_beacon (f, "eddystone", TRUE);

  /* Without a key, only the lock state can be read. */
  result = run (EDDYSTONE_ADDRESS, NULL, 5000, &error);
  g_assert_no_error (error);
  g_assert_true (result->before->locked);
  g_assert_false (result->before->readable);
  g_assert_cmpuint (result->before->lock_state, ==, 0x00);

  /* Nor written. */
  changes.url = "https://gnome.org";
  refused = run (EDDYSTONE_ADDRESS, &changes, 5000, &error);
  g_assert_error (error, NEARBY_CONFIGURATOR_ERROR, NEARBY_CONFIGURATOR_ERROR_LOCKED);
  assert_contains (error->message, "lock key");
  g_clear_error (&error);

  /* A wrong key: the challenge's answer is refused, nothing changes. */
  changes.has_key = TRUE;
  memset (changes.key, 0x42, 16);
  wrong = run (EDDYSTONE_ADDRESS, &changes, 5000, &error);
  g_assert_error (error, NEARBY_CONFIGURATOR_ERROR, NEARBY_CONFIGURATOR_ERROR_WRONG_KEY);
  assert_contains (error->message, "refused the lock key");
  g_clear_error (&error);
  g_assert_true (state_bytes_equal (f, "slot0", factory_slot0, sizeof factory_slot0));

  /* The right key, and a new one to lock with once written. */
  memcpy (changes.key, test_key, 16);
  changes.set_new_key = TRUE;
  memcpy (changes.new_key, new_key, 16);
  relocked = run (EDDYSTONE_ADDRESS, &changes, 5000, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (relocked->before->lock_state, ==, 0x01);
  g_assert_cmpstr (relocked->after->frame.url, ==, "https://gnome.org");
  g_assert_true (relocked->after->locked);
  g_assert_true (state_bytes_equal (f, "key", new_key, 16));

  /* The new key opens it; the old one no longer does. */
  changes.set_new_key = FALSE;
  changes.url = NULL;
  memcpy (changes.key, new_key, 16);
  with_new = run (EDDYSTONE_ADDRESS, &changes, 5000, &error);
  g_assert_no_error (error);
  g_assert_true (with_new->before->readable);
  g_assert_cmpstr (with_new->before->frame.url, ==, "https://gnome.org");
}

static void
test_eddystone_factory_reset (Fixture       *f,
                              gconstpointer  data)
{
  NearbyBeaconChanges changes = NEARBY_BEACON_CHANGES_INIT;
  g_autoptr(NearbyConfigureResult) written = NULL;
  g_autoptr(NearbyConfigureResult) refused = NULL;
  g_autoptr(NearbyConfigureResult) reset = NULL;
  g_autoptr(GError) error = NULL;

  add_beacon (f, "eddystone", FALSE);
  changes.url = "https://gnome.org";
  written = run (EDDYSTONE_ADDRESS, &changes, 5000, &error);
  g_assert_no_error (error);

  /* Unlocked for good (0x02) is not unlocked in this connection (0x01): the spec refuses. */
  changes.url = NULL;
  changes.reset = TRUE;
  refused = run (EDDYSTONE_ADDRESS, &changes, 5000, &error);
  g_assert_error (error, NEARBY_CONFIGURATOR_ERROR, NEARBY_CONFIGURATOR_ERROR_NOT_PERMITTED);
  assert_contains (error->message, "factory reset");
  g_clear_error (&error);

  /* A new key without the current one is refused before anything is written. */
  {
    g_autoptr(NearbyConfigureResult) no_key = NULL;
    NearbyBeaconChanges lock = NEARBY_BEACON_CHANGES_INIT;

    lock.set_new_key = TRUE;
    memset (lock.new_key, 0x77, 16);
    lock.url = "https://example.org";
    no_key = run (EDDYSTONE_ADDRESS, &lock, 5000, &error);
    g_assert_error (error, NEARBY_CONFIGURATOR_ERROR, NEARBY_CONFIGURATOR_ERROR_LOCKED);
    assert_contains (error->message, "give its current lock key too");
    g_clear_error (&error);
    g_assert_true (state_bytes_equal (f, "key", test_key, 16));
  }

  /* Locking first makes the unlock possible; the reset keeps the key. */
  {
    g_autoptr(NearbyConfigureResult) locked = NULL;
    NearbyBeaconChanges lock = NEARBY_BEACON_CHANGES_INIT;

    lock.set_new_key = TRUE;
    memcpy (lock.new_key, test_key, 16);
    lock.has_key = TRUE;
    memcpy (lock.key, test_key, 16);
    locked = run (EDDYSTONE_ADDRESS, &lock, 5000, &error);
    g_assert_no_error (error);
  }
  changes.has_key = TRUE;
  memcpy (changes.key, test_key, 16);
  reset = run (EDDYSTONE_ADDRESS, &changes, 5000, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (reset->before->frame.url, ==, "https://gnome.org");
  g_assert_cmpstr (reset->after->frame.url, ==, "https://example.com");
  g_assert_true (state_bytes_equal (f, "key", test_key, 16));
}

static void
test_uribeacon (Fixture       *f,
                gconstpointer  data)
{
  NearbyBeaconChanges changes = NEARBY_BEACON_CHANGES_INIT;
  g_autoptr(NearbyConfigureResult) before = NULL;
  g_autoptr(NearbyConfigureResult) result = NULL;
  g_autoptr(NearbyConfigureResult) locked = NULL;
  g_autoptr(NearbyConfigureResult) wrong = NULL;
  g_autoptr(NearbyConfigureResult) uid = NULL;
  g_autoptr(NearbyConfigureResult) levels = NULL;
  g_autoptr(NearbyConfigureResult) reset = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GVariant) mode = NULL;
  g_autoptr(GVariant) period = NULL;
  static const guint8 uri[] = { 0x01, 'g', 'n', 'o', 'm', 'e', 0x08 };

  add_beacon (f, "uribeacon", FALSE);
  before = run (URIBEACON_ADDRESS, NULL, 5000, &error);
  g_assert_no_error (error);
  g_assert_cmpint (before->before->service, ==, NEARBY_CONFIG_SERVICE_URIBEACON);
  g_assert_false (before->before->locked);
  g_assert_cmpstr (before->before->frame.url, ==, "https://example.com");
  g_assert_cmpuint (before->before->n_tx_levels, ==, 4);
  g_assert_cmpint (before->before->tx_levels[0], ==, -30);
  g_assert_cmpuint (before->before->tx_power_mode, ==, 2);
  g_assert_cmpint (before->before->tx_power, ==, -4);
  g_assert_cmpuint (before->before->interval_ms, ==, 1000);
  g_assert_cmpuint (before->before->flags, ==, 0);

  changes.url = "https://www.gnome.org";
  changes.set_tx_power = TRUE;
  changes.tx_power = -20;        /* the lowest level that reaches it: -16, mode 1 */
  changes.set_interval = TRUE;
  changes.interval_ms = 500;
  changes.set_new_key = TRUE;
  memcpy (changes.new_key, test_key, 16);
  result = run (URIBEACON_ADDRESS, &changes, 5000, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (result->after->frame.url, ==, "https://www.gnome.org");
  g_assert_cmpint (result->after->tx_power, ==, -16);
  g_assert_cmpuint (result->after->interval_ms, ==, 500);
  g_assert_true (result->after->locked);
  g_assert_true (state_bytes_equal (f, "uri", uri, sizeof uri));
  mode = beacon_state (f, "mode");
  g_assert_cmpuint (g_variant_get_byte (mode), ==, 1);
  period = beacon_state (f, "period");
  g_assert_cmpuint (g_variant_get_uint16 (period), ==, 500);

  /* Locked: readable, but not writable without its key. */
  changes = (NearbyBeaconChanges) NEARBY_BEACON_CHANGES_INIT;
  changes.reset = TRUE;
  locked = run (URIBEACON_ADDRESS, &changes, 5000, &error);
  g_assert_error (error, NEARBY_CONFIGURATOR_ERROR, NEARBY_CONFIGURATOR_ERROR_LOCKED);
  g_clear_error (&error);

  changes.has_key = TRUE;
  memset (changes.key, 0x42, 16);
  wrong = run (URIBEACON_ADDRESS, &changes, 5000, &error);
  g_assert_error (error, NEARBY_CONFIGURATOR_ERROR, NEARBY_CONFIGURATOR_ERROR_WRONG_KEY);
  g_clear_error (&error);

  memcpy (changes.key, test_key, 16);
  changes.reset = FALSE;
  changes.set_uid = TRUE;
  uid = run (URIBEACON_ADDRESS, &changes, 5000, &error);
  g_assert_error (error, NEARBY_CONFIGURATOR_ERROR, NEARBY_CONFIGURATOR_ERROR_INVALID_VALUE);
  assert_contains (error->message, "only a URL");
  g_clear_error (&error);

  /* The flags and the four power levels, and a power chosen among the new levels. */
  changes.set_uid = FALSE;
  changes.set_flags = TRUE;
  changes.flags = 0x01;
  changes.set_tx_levels = TRUE;
  changes.tx_levels[0] = -40;
  changes.tx_levels[1] = -30;
  changes.tx_levels[2] = -20;
  changes.tx_levels[3] = -10;
  changes.set_tx_power = TRUE;
  changes.tx_power = -25;
  levels = run (URIBEACON_ADDRESS, &changes, 5000, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (levels->after->flags, ==, 0x01);
  g_assert_true (levels->after->frame.invisible);
  g_assert_cmpint (levels->after->tx_levels[0], ==, -40);
  g_assert_cmpint (levels->after->tx_levels[3], ==, -10);
  g_assert_cmpuint (levels->after->tx_power_mode, ==, 2);
  g_assert_cmpint (levels->after->tx_power, ==, -20);

  changes = (NearbyBeaconChanges) NEARBY_BEACON_CHANGES_INIT;
  changes.has_key = TRUE;
  memcpy (changes.key, test_key, 16);
  changes.reset = TRUE;
  reset = run (URIBEACON_ADDRESS, &changes, 5000, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (reset->after->frame.url, ==, "https://example.com");
  g_assert_cmpuint (reset->after->interval_ms, ==, 1000);
  g_assert_cmpuint (reset->after->flags, ==, 0);
  g_assert_false (reset->after->locked);
}

static void
test_url_too_long (Fixture       *f,
                   gconstpointer  data)
{
  NearbyBeaconChanges changes = NEARBY_BEACON_CHANGES_INIT;
  g_autoptr(NearbyConfigureResult) result = NULL;
  g_autoptr(GError) error = NULL;

  add_beacon (f, "eddystone", FALSE);
  changes.url = "https://example.com/a-path-that-is-far-too-long";
  result = run (EDDYSTONE_ADDRESS, &changes, 5000, &error);
  g_assert_error (error, NEARBY_CONFIGURATOR_ERROR, NEARBY_CONFIGURATOR_ERROR_INVALID_INPUT);
  assert_contains (error->message, "bytes more than the 18");
  g_assert_cmpuint (count_device_calls (f, "Connect"), ==, 0);
}

static void
test_not_found (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(NearbyConfigureResult) result = NULL;
  g_autoptr(GError) error = NULL;

  result = run ("C0:FF:EE:99:99:99", NULL, 5000, &error);
  g_assert_error (error, NEARBY_CONFIGURATOR_ERROR, NEARBY_CONFIGURATOR_ERROR_NOT_FOUND);
  assert_contains (error->message, "nearby scan");
}

static void
test_connect_fails (Fixture       *f,
                    gconstpointer  data)
{
  g_autoptr(NearbyConfigureResult) result = NULL;
  g_autoptr(NearbyConfigureResult) hung = NULL;
  g_autoptr(GError) error = NULL;
  const char *faults[] = { "org.bluez.Error.Failed le-connection-abort-by-local", "hang", NULL };

  add_beacon (f, "eddystone", FALSE);
  bluez_mock_control (&f->mock, "FailConnect", g_variant_new ("(o^as)", f->path, faults));

  result = run (EDDYSTONE_ADDRESS, NULL, 5000, &error);
  g_assert_error (error, NEARBY_CONFIGURATOR_ERROR, NEARBY_CONFIGURATOR_ERROR_CONNECT_FAILED);
  assert_contains (error->message, "le-connection-abort-by-local");
  assert_contains (error->message, "configuration mode");
  g_clear_error (&error);

  /* A Connect that never answers: the connection timeout (2 s here) ends it. */
  hung = run (EDDYSTONE_ADDRESS, NULL, 5000, &error);
  g_assert_error (error, NEARBY_CONFIGURATOR_ERROR, NEARBY_CONFIGURATOR_ERROR_TIMED_OUT);
  assert_contains (error->message, "did not accept a connection");
}

/* Writes a URL to a beacon whose slot data has @fault: the write must fail with @code, and the
 * beacon must still broadcast what it did. */
static GError *
write_url_with_fault (Fixture    *f,
                      const char *fault,
                      guint       operation_ms,
                      int         code)
{
  NearbyBeaconChanges changes = NEARBY_BEACON_CHANGES_INIT;
  g_autoptr(NearbyConfigureResult) result = NULL;
  GError *error = NULL;

  add_beacon (f, "eddystone", FALSE);
  set_fault (f, 0x0a, fault);
  changes.url = "https://gnome.org";
  result = run (EDDYSTONE_ADDRESS, &changes, operation_ms, &error);
  g_assert_error (error, NEARBY_CONFIGURATOR_ERROR, code);
  g_assert_null (result);
  assert_contains (error->message, "not done");
  g_assert_true (state_bytes_equal (f, "slot0", factory_slot0, sizeof factory_slot0));

  return error;
}

static void
test_characteristic_hangs (Fixture       *f,
                           gconstpointer  data)
{
  g_autoptr(GError) error = write_url_with_fault (f, "hang-write", 1000,
                                                  NEARBY_CONFIGURATOR_ERROR_TIMED_OUT);

  assert_contains (error->message, "did not confirm writing the slot data");
  /* Let go all the same. */
  g_assert_cmpuint (count_device_calls (f, "Disconnect"), ==, 1);
}

static void
test_disconnect_mid_write (Fixture       *f,
                           gconstpointer  data)
{
  g_autoptr(GError) error = write_url_with_fault (f, "disconnect", 5000,
                                                  NEARBY_CONFIGURATOR_ERROR_DISCONNECTED);

  assert_contains (error->message, "disconnected before it confirmed writing the slot data");
}

/* Each error bluetoothd can answer a write with, 5.66's names and later ones, as a sentence that
 * says what to do. */
static void
test_write_errors (Fixture       *f,
                   gconstpointer  data)
{
  static const struct {
    const char *fault;
    int         code;
    const char *says;
  } cases[] = {
    /* What the beacon answers, named by the mock as bluetoothd 5.66 names it. */
    { "att 0x03", NEARBY_CONFIGURATOR_ERROR_NOT_PERMITTED,
      "does not allow writing the advertising interval" },
    { "att 0x05", NEARBY_CONFIGURATOR_ERROR_NOT_PERMITTED, "pair with it first" },
    { "att 0x0c", NEARBY_CONFIGURATOR_ERROR_NOT_PERMITTED, "pair with it first" },
    { "att 0x0f", NEARBY_CONFIGURATOR_ERROR_NOT_PERMITTED, "pair with it first" },
    { "att 0x06", NEARBY_CONFIGURATOR_ERROR_NOT_PERMITTED,
      "does not support writing the advertising interval" },
    { "att 0x08", NEARBY_CONFIGURATOR_ERROR_LOCKED, "give its lock key" },
    { "att 0x0d", NEARBY_CONFIGURATOR_ERROR_INVALID_VALUE, "outside what it supports" },
    { "att 0x80", NEARBY_CONFIGURATOR_ERROR_FAILED, "ATT error: 0x80), so it was not done" },
    /* The names of bluetoothd 5.2x's gatt-client. */
    { "error org.bluez.Error.NotPaired Not Paired",
      NEARBY_CONFIGURATOR_ERROR_NOT_PERMITTED, "pair with it first" },
    { "error org.bluez.Error.NotPermitted Write not permitted",
      NEARBY_CONFIGURATOR_ERROR_NOT_PERMITTED, "does not allow writing the advertising interval" },
    { "error org.bluez.Error.WriteNotPermitted Writing of this value is not allowed",
      NEARBY_CONFIGURATOR_ERROR_NOT_PERMITTED, "give its lock key" },
    { "error org.bluez.Error.InvalidArguments Invalid Length",
      NEARBY_CONFIGURATOR_ERROR_INVALID_VALUE, "outside what it supports" },
    { "error org.bluez.Error.InvalidValueLength Invalid value length",
      NEARBY_CONFIGURATOR_ERROR_INVALID_VALUE, "check its capabilities" },
    { "error org.bluez.Error.NotAuthorized Operation Not Authorized",
      NEARBY_CONFIGURATOR_ERROR_LOCKED, "locked and refused the advertising interval" },
    { "error org.bluez.Error.Failed Operation failed with ATT error: 0x80",
      NEARBY_CONFIGURATOR_ERROR_FAILED, "ATT error: 0x80), so it was not done" },
  };

  add_beacon (f, "eddystone", FALSE);
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      NearbyBeaconChanges changes = NEARBY_BEACON_CHANGES_INIT;
      g_autoptr(NearbyConfigureResult) result = NULL;
      g_autoptr(GError) error = NULL;
      g_autoptr(GVariant) interval = NULL;

      set_fault (f, 0x03, cases[i].fault);
      changes.set_interval = TRUE;
      changes.interval_ms = 2000;
      result = run (EDDYSTONE_ADDRESS, &changes, 5000, &error);
      g_assert_error (error, NEARBY_CONFIGURATOR_ERROR, cases[i].code);
      assert_contains (error->message, cases[i].says);
      interval = beacon_state (f, "interval0");
      g_assert_cmpuint (g_variant_get_uint16 (interval), ==, 1000);
      g_assert_false (device_connected (f));
    }
}

/* The specification's answer to a wrong unlock token is Write Not Permitted (the mock, as some
 * firmwares do, answers Insufficient Authorization): both are a wrong key. */
static void
test_unlock_write_not_permitted (Fixture       *f,
                                 gconstpointer  data)
{
  NearbyBeaconChanges changes = NEARBY_BEACON_CHANGES_INIT;
  g_autoptr(NearbyConfigureResult) result = NULL;
  g_autoptr(GError) error = NULL;

  add_beacon (f, "eddystone", TRUE);
  set_fault (f, 0x07, "att 0x03");
  changes.has_key = TRUE;
  memcpy (changes.key, test_key, 16);
  changes.set_interval = TRUE;
  changes.interval_ms = 2000;
  result = run (EDDYSTONE_ADDRESS, &changes, 5000, &error);
  g_assert_error (error, NEARBY_CONFIGURATOR_ERROR, NEARBY_CONFIGURATOR_ERROR_WRONG_KEY);
  assert_contains (error->message, "The beacon refused the lock key");
  g_assert_false (device_connected (f));
}

static void
on_call_held (GDBusConnection *connection,
              const char      *sender,
              const char      *path,
              const char      *interface,
              const char      *signal,
              GVariant        *parameters,
              gpointer         data)
{
  *(gboolean *) data = TRUE;
}

static void
test_bluetoothd_stops_mid_write (Fixture       *f,
                                 gconstpointer  data)
{
  NearbyBeaconChanges changes = NEARBY_BEACON_CHANGES_INIT;
  g_autoptr(NearbyConfigurator) configurator = nearby_configurator_new (EDDYSTONE_ADDRESS, NULL);
  g_autoptr(NearbyConfigureResult) result = NULL;
  g_autoptr(GAsyncResult) async_result = NULL;
  NearbyTestWaiter waiter = { 0 };
  g_autoptr(GError) error = NULL;
  gboolean held = FALSE;
  guint subscription;

  add_beacon (f, "eddystone", FALSE);
  set_fault (f, 0x04, "hang-write");
  subscription = g_dbus_connection_signal_subscribe (f->mock.bus, "org.bluez", BLUEZ_MOCK_IFACE,
                                                     "CallHeld", "/", NULL,
                                                     G_DBUS_SIGNAL_FLAGS_NONE, on_call_held,
                                                     &held, NULL);

  changes.set_tx_power = TRUE;
  changes.tx_power = -12;
  nearby_configurator_run_async (configurator, &changes, NULL, nearby_test_on_result, &waiter);
  WAIT_UNTIL (held);
  bluez_mock_stop (&f->mock);

  async_result = nearby_test_wait_result (&waiter);
  result = nearby_configurator_run_finish (configurator, async_result, &error);
  g_assert_error (error, NEARBY_CONFIGURATOR_ERROR, NEARBY_CONFIGURATOR_ERROR_BLUETOOTH_GONE);
  assert_contains (error->message, "Bluetooth stopped before the beacon confirmed writing the "
                                   "radio tx power, so it was not done");
  g_dbus_connection_signal_unsubscribe (f->mock.bus, subscription);
}

static void
test_one_at_a_time (Fixture       *f,
                    gconstpointer  data)
{
  g_autoptr(NearbyConfigurator) first = nearby_configurator_new (EDDYSTONE_ADDRESS, NULL);
  g_autoptr(NearbyConfigurator) second = nearby_configurator_new ("c0:ff:ee:00:00:01", NULL);
  g_autoptr(NearbyConfigureResult) first_result = NULL;
  g_autoptr(NearbyConfigureResult) second_result = NULL;
  g_autoptr(GAsyncResult) first_async = NULL;
  g_autoptr(GAsyncResult) second_async = NULL;
  NearbyTestWaiter first_waiter = { 0 };
  NearbyTestWaiter second_waiter = { 0 };
  g_autoptr(GError) error = NULL;

  add_beacon (f, "eddystone", FALSE);
  nearby_configurator_run_async (first, NULL, NULL, nearby_test_on_result, &first_waiter);
  nearby_configurator_run_async (second, NULL, NULL, nearby_test_on_result, &second_waiter);

  second_async = nearby_test_wait_result (&second_waiter);
  second_result = nearby_configurator_run_finish (second, second_async, &error);
  g_assert_error (error, NEARBY_CONFIGURATOR_ERROR, NEARBY_CONFIGURATOR_ERROR_BUSY);
  g_clear_error (&error);

  first_async = nearby_test_wait_result (&first_waiter);
  first_result = nearby_configurator_run_finish (first, first_async, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (count_device_calls (f, "Connect"), ==, 1);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func) \
  g_test_add (path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)

  ADD ("/configurator/eddystone/read", test_eddystone_read);
  ADD ("/configurator/eddystone/write", test_eddystone_write);
  ADD ("/configurator/eddystone/slots", test_eddystone_slots);
  ADD ("/configurator/eddystone/eid", test_eddystone_eid);
  ADD ("/configurator/eddystone/eid-without-key", test_eddystone_eid_without_key);
  ADD ("/configurator/eddystone/other-settings", test_eddystone_other_settings);
  ADD ("/configurator/eddystone/locked", test_eddystone_locked);
  ADD ("/configurator/eddystone/factory-reset", test_eddystone_factory_reset);
  ADD ("/configurator/uribeacon", test_uribeacon);
  ADD ("/configurator/url-too-long", test_url_too_long);
  ADD ("/configurator/not-found", test_not_found);
  ADD ("/configurator/connect-fails", test_connect_fails);
  ADD ("/configurator/characteristic-hangs", test_characteristic_hangs);
  ADD ("/configurator/disconnect-mid-write", test_disconnect_mid_write);
  ADD ("/configurator/write-errors", test_write_errors);
  ADD ("/configurator/unlock-write-not-permitted", test_unlock_write_not_permitted);
  ADD ("/configurator/bluetoothd-stops-mid-write", test_bluetoothd_stops_mid_write);
  ADD ("/configurator/one-at-a-time", test_one_at_a_time);

#undef ADD

  return harness_run_tests_on_private_system_bus ();
}
