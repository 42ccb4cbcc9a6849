/* nearby-configurator.c: read and change a beacon's configuration over a Bluetooth connection
 *
 * The operation runs in a worker thread with blocking D-Bus calls, each with its own timeout,
 * so that a connection, its service discovery and the reads and writes follow each other as the
 * specifications describe them; the thread's own main context hears the device's
 * PropertiesChanged signals (Connected, ServicesResolved).
 *
 * It is over 900 lines because the two services' reads and writes go through one set of blocking
 * calls, timeouts and error sentences, which the operation's state (the device, its
 * characteristics, the link) ties together; splitting them would put that state in a header.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "nearby-configurator"

#include "config.h"

#include <glib/gi18n.h>
#include <nettle/aes.h>
#include <string.h>

#include "nearby-bluez.h"
#include "nearby-configurator.h"

#define GATT_SERVICE_IFACE        "org.bluez.GattService1"
#define GATT_CHARACTERISTIC_IFACE "org.bluez.GattCharacteristic1"

#define EDDYSTONE_SERVICE_UUID "a3c87500-8ed3-4bdf-8a39-a01bebede295"
#define URIBEACON_SERVICE_UUID "ee0c2080-8786-40ba-ab96-99b91ac981d8"

/* Eddystone characteristics a3c875NN-…, UriBeacon's ee0c20NN-… */
enum {
  EDDYSTONE_CAPABILITIES = 0x01,
  EDDYSTONE_ACTIVE_SLOT = 0x02,
  EDDYSTONE_INTERVAL = 0x03,
  EDDYSTONE_RADIO_TX = 0x04,
  EDDYSTONE_ADVERTISED_TX = 0x05,
  EDDYSTONE_LOCK_STATE = 0x06,
  EDDYSTONE_UNLOCK = 0x07,
  EDDYSTONE_PUBLIC_ECDH_KEY = 0x08,
  EDDYSTONE_EID_IDENTITY_KEY = 0x09,
  EDDYSTONE_SLOT_DATA = 0x0a,
  EDDYSTONE_FACTORY_RESET = 0x0b,
  EDDYSTONE_REMAIN_CONNECTABLE = 0x0c,
  URIBEACON_LOCK_STATE = 0x81,
  URIBEACON_LOCK = 0x82,
  URIBEACON_UNLOCK = 0x83,
  URIBEACON_URI_DATA = 0x84,
  URIBEACON_FLAGS = 0x85,
  URIBEACON_TX_LEVELS = 0x86,
  URIBEACON_TX_MODE = 0x87,
  URIBEACON_PERIOD = 0x88,
  URIBEACON_RESET = 0x89,
};

#define N_CHARACTERISTICS 0x100

struct _NearbyConfigurator
{
  GObject parent_instance;

  char   *address;
  char   *adapter;
  guint   connect_ms;
  guint   operation_ms;
};

G_DEFINE_FINAL_TYPE (NearbyConfigurator, nearby_configurator, G_TYPE_OBJECT)

G_DEFINE_QUARK (nearby-configurator-error-quark, nearby_configurator_error)

/* Devices with an operation under way, by upper-case address. */
G_LOCK_DEFINE_STATIC (busy);
static GHashTable *busy_devices;

typedef struct {
  char                *address;
  char                *adapter;
  guint                connect_ms;
  guint                operation_ms;
  NearbyBeaconChanges  changes;
  char                *url;

  /* In the worker */
  GDBusConnection     *bus;
  GCancellable        *cancellable;
  char                *device_path;
  gboolean             connected;
  gboolean             services_resolved;
  NearbyConfigService  service;
  char                *characteristics[N_CHARACTERISTICS];
} Operation;

static void
operation_free (Operation *op)
{
  g_free (op->address);
  g_free (op->adapter);
  g_free (op->url);
  g_clear_object (&op->bus);
  g_free (op->device_path);
  for (guint i = 0; i < N_CHARACTERISTICS; i++)
    g_free (op->characteristics[i]);
  g_free (op);
}

void
nearby_configure_result_free (NearbyConfigureResult *result)
{
  if (result == NULL)
    return;
  g_free (result->before);
  g_free (result->after);
  g_free (result);
}

const char *
nearby_config_service_to_string (NearbyConfigService service)
{
  return service == NEARBY_CONFIG_SERVICE_URIBEACON ? "uribeacon" : "eddystone";
}

gboolean
nearby_beacon_changes_write (const NearbyBeaconChanges *changes)
{
  return changes != NULL
         && (changes->url != NULL || changes->set_uid || changes->set_tlm
             || changes->clear_slot || changes->set_eid || changes->set_tx_power || changes->set_interval
             || changes->set_advertised_tx_power || changes->set_remain_connectable
             || changes->set_flags || changes->set_tx_levels || changes->set_tx_mode
             || changes->set_new_key
             || changes->reset);
}

gboolean
nearby_beacon_changes_check (const NearbyBeaconChanges *changes,
                             GError                   **error)
{
  guint8 out[NEARBY_FRAME_URL_SERVICE_DATA_MAX];
  size_t out_len = 0;
  NearbyFrame status = { 0 };
  NearbyFrameError frame_error;

  if (changes->url == NULL)
    return TRUE;

  frame_error = nearby_frame_encode_url (NEARBY_PROTOCOL_EDDYSTONE, changes->url, 0, 0,
                                         out, &out_len, &status);
  if (frame_error == NEARBY_FRAME_ERROR_URL_TOO_LONG)
    {
      gsize over = status.error_length - status.error_limit;

      g_set_error (error, NEARBY_CONFIGURATOR_ERROR, NEARBY_CONFIGURATOR_ERROR_INVALID_INPUT,
                   g_dngettext (GETTEXT_PACKAGE,
                                "The URL takes %zu bytes encoded, %zu byte more than the %zu a "
                                "beacon can broadcast: shorten it (a URL shortener helps)",
                                "The URL takes %zu bytes encoded, %zu bytes more than the %zu a "
                                "beacon can broadcast: shorten it (a URL shortener helps)",
                                over),
                   status.error_length, over, status.error_limit);
      return FALSE;
    }
  if (frame_error != NEARBY_FRAME_OK)
    {
      char message[NEARBY_FRAME_MESSAGE_MAX];

      g_set_error (error, NEARBY_CONFIGURATOR_ERROR, NEARBY_CONFIGURATOR_ERROR_INVALID_INPUT,
                   _("A beacon cannot broadcast this URL: %s"),
                   nearby_frame_format_error (&status, message, sizeof message));
      return FALSE;
    }

  return TRUE;
}

/* D-Bus plumbing */

/* g_set_str() is GLib 2.76. */
static void
replace_str (char       **pointer,
             const char  *value)
{
  g_free (*pointer);
  *pointer = g_strdup (value);
}

static char *
characteristic_uuid (guint number)
{
  if (number >= 0x80)
    return g_strdup_printf ("ee0c20%02x-8786-40ba-ab96-99b91ac981d8", number);
  return g_strdup_printf ("a3c875%02x-8ed3-4bdf-8a39-a01bebede295", number);
}

static const char *
characteristic_name (guint number)
{
  switch (number)
    {
    case EDDYSTONE_CAPABILITIES: return _("the capabilities");
    case EDDYSTONE_ACTIVE_SLOT: return _("the active slot");
    case EDDYSTONE_INTERVAL: return _("the advertising interval");
    case EDDYSTONE_RADIO_TX: return _("the radio tx power");
    case EDDYSTONE_ADVERTISED_TX: return _("the advertised tx power");
    case EDDYSTONE_LOCK_STATE: return _("the lock state");
    case EDDYSTONE_UNLOCK: return _("the unlock challenge");
    case EDDYSTONE_PUBLIC_ECDH_KEY: return _("the public ECDH key");
    case EDDYSTONE_EID_IDENTITY_KEY: return _("the EID identity key");
    case EDDYSTONE_SLOT_DATA: return _("the slot data");
    case EDDYSTONE_FACTORY_RESET: return _("the factory reset");
    case EDDYSTONE_REMAIN_CONNECTABLE: return _("the remain-connectable setting");
    case URIBEACON_LOCK_STATE: return _("the lock state");
    case URIBEACON_LOCK: return _("the lock");
    case URIBEACON_UNLOCK: return _("the unlock key");
    case URIBEACON_URI_DATA: return _("the URI");
    case URIBEACON_FLAGS: return _("the flags");
    case URIBEACON_TX_LEVELS: return _("the tx power levels");
    case URIBEACON_TX_MODE: return _("the tx power mode");
    case URIBEACON_PERIOD: return _("the beacon period");
    case URIBEACON_RESET: return _("the reset");
    default: return "?";
    }
}

static gboolean
remote_error_is (const GError *error,
                 const char   *name)
{
  g_autofree char *remote = NULL;

  if (!g_dbus_error_is_remote_error (error))
    return FALSE;
  remote = g_dbus_error_get_remote_error (error);
  return g_str_equal (remote, name);
}

/* Whether bluetoothd left the bus while a call was waiting for it, or is not on it. */
static gboolean
error_is_bluetooth_gone (const GError *error)
{
  return g_error_matches (error, G_DBUS_ERROR, G_DBUS_ERROR_NO_REPLY)
         || g_error_matches (error, G_DBUS_ERROR, G_DBUS_ERROR_SERVICE_UNKNOWN)
         || g_error_matches (error, G_DBUS_ERROR, G_DBUS_ERROR_NAME_HAS_NO_OWNER)
         || g_error_matches (error, G_DBUS_ERROR, G_DBUS_ERROR_UNKNOWN_OBJECT)
         || g_error_matches (error, G_DBUS_ERROR, G_DBUS_ERROR_UNKNOWN_METHOD);
}

static void
on_device_properties_changed (GDBusConnection *connection,
                              const char      *sender,
                              const char      *path,
                              const char      *interface,
                              const char      *signal,
                              GVariant        *parameters,
                              gpointer         user_data)
{
  Operation *op = user_data;
  g_autoptr(GVariant) changed = NULL;
  const char *iface;
  gboolean value;

  g_variant_get (parameters, "(&s@a{sv}@as)", &iface, &changed, NULL);
  if (!g_str_equal (iface, NEARBY_BLUEZ_DEVICE_IFACE))
    return;
  if (g_variant_lookup (changed, "Connected", "b", &value))
    op->connected = value;
  if (g_variant_lookup (changed, "ServicesResolved", "b", &value))
    op->services_resolved = value;
}

static gboolean
get_device_bool (Operation  *op,
                 const char *name)
{
  g_autoptr(GVariant) reply = NULL;
  g_autoptr(GVariant) value = NULL;

  reply = g_dbus_connection_call_sync (op->bus, NEARBY_BLUEZ_BUS_NAME, op->device_path,
                                       "org.freedesktop.DBus.Properties", "Get",
                                       g_variant_new ("(ss)", NEARBY_BLUEZ_DEVICE_IFACE, name),
                                       G_VARIANT_TYPE ("(v)"), G_DBUS_CALL_FLAGS_NO_AUTO_START,
                                       op->operation_ms, NULL, NULL);
  if (reply == NULL)
    return FALSE;
  g_variant_get (reply, "(v)", &value);
  return g_variant_is_of_type (value, G_VARIANT_TYPE_BOOLEAN) && g_variant_get_boolean (value);
}

static GVariant *
get_managed_objects (Operation  *op,
                     GError    **error)
{
  g_autoptr(GError) local_error = NULL;
  GVariant *reply;

  reply = g_dbus_connection_call_sync (op->bus, NEARBY_BLUEZ_BUS_NAME, "/",
                                       NEARBY_BLUEZ_OBJECT_MANAGER_IFACE, "GetManagedObjects",
                                       NULL, G_VARIANT_TYPE ("(a{oa{sa{sv}}})"),
                                       G_DBUS_CALL_FLAGS_NO_AUTO_START, op->operation_ms,
                                       op->cancellable, &local_error);
  if (reply == NULL)
    {
      if (error_is_bluetooth_gone (local_error))
        g_set_error_literal (error, NEARBY_CONFIGURATOR_ERROR,
                             NEARBY_CONFIGURATOR_ERROR_NO_SERVICE,
                             _("Bluetooth is not running: start it with "
                               "`systemctl start bluetooth`"));
      else
        g_propagate_error (error, g_steal_pointer (&local_error));
    }

  return reply;
}

static gboolean
find_device (Operation  *op,
             GError    **error)
{
  g_autoptr(GVariant) reply = get_managed_objects (op, error);
  g_autoptr(GVariant) objects = NULL;
  g_autofree char *adapter_prefix = NULL;
  GVariantIter iter;
  const char *path;
  GVariant *interfaces;

  if (reply == NULL)
    return FALSE;

  if (op->adapter != NULL)
    adapter_prefix = g_strdup_printf ("/org/bluez/%s/", op->adapter);

  objects = g_variant_get_child_value (reply, 0);
  g_variant_iter_init (&iter, objects);
  while (g_variant_iter_loop (&iter, "{&o@a{sa{sv}}}", &path, &interfaces))
    {
      g_autoptr(GVariant) device = g_variant_lookup_value (interfaces, NEARBY_BLUEZ_DEVICE_IFACE,
                                                            G_VARIANT_TYPE ("a{sv}"));
      const char *address = NULL;

      if (device == NULL || !g_variant_lookup (device, "Address", "&s", &address))
        continue;
      if (g_ascii_strcasecmp (address, op->address) != 0)
        continue;
      if (adapter_prefix != NULL && !g_str_has_prefix (path, adapter_prefix))
        continue;

      op->device_path = g_strdup (path);
      g_variant_lookup (device, "Connected", "b", &op->connected);
      g_variant_lookup (device, "ServicesResolved", "b", &op->services_resolved);
      /* Leaving g_variant_iter_loop() early leaves its last value to free. */
      g_variant_unref (interfaces);
      return TRUE;
    }

  g_set_error (error, NEARBY_CONFIGURATOR_ERROR, NEARBY_CONFIGURATOR_ERROR_NOT_FOUND,
               _("Bluetooth knows no device %s: put the beacon in its connectable "
                 "(configuration) mode, let `nearby scan` see it, and try again"),
               op->address);
  return FALSE;
}

static gboolean
find_characteristics (Operation  *op,
                      GError    **error)
{
  g_autoptr(GVariant) reply = get_managed_objects (op, error);
  g_autoptr(GVariant) objects = NULL;
  g_autofree char *eddystone_path = NULL;
  g_autofree char *uribeacon_path = NULL;
  const char *service_path;
  GVariantIter iter;
  const char *path;
  GVariant *interfaces;

  if (reply == NULL)
    return FALSE;

  objects = g_variant_get_child_value (reply, 0);
  g_variant_iter_init (&iter, objects);
  while (g_variant_iter_loop (&iter, "{&o@a{sa{sv}}}", &path, &interfaces))
    {
      g_autoptr(GVariant) service = g_variant_lookup_value (interfaces, GATT_SERVICE_IFACE,
                                                             G_VARIANT_TYPE ("a{sv}"));
      const char *uuid = NULL;
      const char *device = NULL;

      if (service == NULL || !g_variant_lookup (service, "UUID", "&s", &uuid)
          || !g_variant_lookup (service, "Device", "&o", &device)
          || !g_str_equal (device, op->device_path))
        continue;
      if (g_ascii_strcasecmp (uuid, EDDYSTONE_SERVICE_UUID) == 0)
        replace_str (&eddystone_path, path);
      else if (g_ascii_strcasecmp (uuid, URIBEACON_SERVICE_UUID) == 0)
        replace_str (&uribeacon_path, path);
    }

  if (eddystone_path == NULL && uribeacon_path == NULL)
    {
      g_set_error (error, NEARBY_CONFIGURATOR_ERROR, NEARBY_CONFIGURATOR_ERROR_NOT_CONFIGURABLE,
                   _("%s has neither the Eddystone nor the UriBeacon configuration service: "
                     "it cannot be configured over Bluetooth, or only with its maker’s app"),
                   op->address);
      return FALSE;
    }
  op->service = eddystone_path != NULL ? NEARBY_CONFIG_SERVICE_EDDYSTONE
                                       : NEARBY_CONFIG_SERVICE_URIBEACON;
  service_path = eddystone_path != NULL ? eddystone_path : uribeacon_path;

  g_variant_iter_init (&iter, objects);
  while (g_variant_iter_loop (&iter, "{&o@a{sa{sv}}}", &path, &interfaces))
    {
      g_autoptr(GVariant) characteristic = g_variant_lookup_value (interfaces,
                                                                    GATT_CHARACTERISTIC_IFACE,
                                                                    G_VARIANT_TYPE ("a{sv}"));
      const char *uuid = NULL;
      const char *service = NULL;

      if (characteristic == NULL || !g_variant_lookup (characteristic, "UUID", "&s", &uuid)
          || !g_variant_lookup (characteristic, "Service", "&o", &service)
          || !g_str_equal (service, service_path))
        continue;
      for (guint number = 0; number < N_CHARACTERISTICS; number++)
        {
          g_autofree char *expected = characteristic_uuid (number);

          if (g_ascii_strcasecmp (uuid, expected) == 0)
            replace_str (&op->characteristics[number], path);
        }
    }

  return TRUE;
}

/* Turns a failed ReadValue or WriteValue into a sentence that says what to do.
 *
 * bluetoothd 5.66 (src/gatt-client.c, create_gatt_dbus_error(); unchanged since 5.3x) names the
 * beacon's ATT errors: Read and Write Not Permitted (0x02, 0x03) NotPermitted "Read not
 * permitted" / "Write not permitted"; Insufficient Authentication or Encryption (0x05, 0x0f,
 * 0x0c) NotPermitted "Not paired"; Invalid Offset (0x07) and Invalid Attribute Length (0x0d)
 * InvalidArguments "Invalid offset" / "Invalid Length"; Insufficient Authorization (0x08)
 * NotAuthorized; Request Not Supported (0x06) NotSupported; a request ended without an ATT
 * error (the link went) Failed "Operation failed"; any other Failed "Operation failed with ATT
 * error: 0x%02x". The gatt-client of bluetoothd 5.2x used ReadNotPermitted, WriteNotPermitted,
 * InvalidValueLength and NotPaired instead (InvalidValueLength is also the name bluetoothd's
 * GATT server takes from a local application), which are accepted too. */
static void
set_gatt_error (Operation  *op,
                guint       number,
                gboolean    writing,
                GError     *call_error,
                GError    **error)
{
  const char *what = characteristic_name (number);

  if (g_error_matches (call_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_propagate_error (error, g_error_copy (call_error));
      return;
    }
  if (error_is_bluetooth_gone (call_error))
    {
      g_set_error (error, NEARBY_CONFIGURATOR_ERROR, NEARBY_CONFIGURATOR_ERROR_BLUETOOTH_GONE,
                   writing
                   ? _("Bluetooth stopped before the beacon confirmed writing %s, so it was not "
                       "done: start Bluetooth again (`systemctl start bluetooth`) and read the "
                       "beacon to see what it holds")
                   : _("Bluetooth stopped while reading %s: start it again "
                       "(`systemctl start bluetooth`) and try again"),
                   what);
      return;
    }
  if (g_error_matches (call_error, G_IO_ERROR, G_IO_ERROR_TIMED_OUT))
    {
      g_set_error (error, NEARBY_CONFIGURATOR_ERROR, NEARBY_CONFIGURATOR_ERROR_TIMED_OUT,
                   writing
                   ? _("The beacon did not confirm writing %s within %u s, so it counts as not "
                       "done: bring the beacon closer, check that it is still in its "
                       "configuration mode, and read it again to see what it holds")
                   : _("The beacon did not answer reading %s within %u s: bring it closer, "
                       "check that it is still in its configuration mode, and try again"),
                   what, op->operation_ms / 1000);
      return;
    }
  if (remote_error_is (call_error, "org.bluez.Error.NotAuthorized"))
    {
      if (number == EDDYSTONE_UNLOCK || number == URIBEACON_UNLOCK)
        g_set_error_literal (error, NEARBY_CONFIGURATOR_ERROR,
                             NEARBY_CONFIGURATOR_ERROR_WRONG_KEY,
                             _("The beacon refused the lock key: check the key (32 hex digits, "
                               "as set when the beacon was locked) and try again"));
      else
        g_set_error (error, NEARBY_CONFIGURATOR_ERROR, NEARBY_CONFIGURATOR_ERROR_LOCKED,
                     _("The beacon is locked and refused %s: give its lock key to unlock it"),
                     what);
      return;
    }
  if (remote_error_is (call_error, "org.bluez.Error.NotPaired")
      || (remote_error_is (call_error, "org.bluez.Error.NotPermitted")
          && strstr (call_error->message, "Not paired") != NULL))
    {
      g_set_error (error, NEARBY_CONFIGURATOR_ERROR, NEARBY_CONFIGURATOR_ERROR_NOT_PERMITTED,
                   writing
                   ? _("The beacon asks for an encrypted (paired) link before writing %s: pair "
                       "with it first (`bluetoothctl pair ADDRESS`), then try again")
                   : _("The beacon asks for an encrypted (paired) link before reading %s: pair "
                       "with it first (`bluetoothctl pair ADDRESS`), then try again"),
                   what);
      return;
    }
  if (remote_error_is (call_error, "org.bluez.Error.NotSupported"))
    {
      g_set_error (error, NEARBY_CONFIGURATOR_ERROR, NEARBY_CONFIGURATOR_ERROR_NOT_PERMITTED,
                   writing
                   ? _("The beacon does not support writing %s: its firmware leaves it out")
                   : _("The beacon does not support reading %s: its firmware leaves it out"),
                   what);
      return;
    }
  if (remote_error_is (call_error, "org.bluez.Error.NotPermitted")
      || remote_error_is (call_error, "org.bluez.Error.ReadNotPermitted")
      || remote_error_is (call_error, "org.bluez.Error.WriteNotPermitted"))
    {
      /* The specification has Write Not Permitted for a wrong key, where some firmwares answer
       * Insufficient Authorization. */
      if (writing && number == EDDYSTONE_UNLOCK)
        g_set_error_literal (error, NEARBY_CONFIGURATOR_ERROR,
                             NEARBY_CONFIGURATOR_ERROR_WRONG_KEY,
                             _("The beacon refused the lock key: check the key (32 hex digits, "
                               "as set when the beacon was locked) and try again"));
      else if (number == EDDYSTONE_FACTORY_RESET)
        g_set_error_literal (error, NEARBY_CONFIGURATOR_ERROR,
                             NEARBY_CONFIGURATOR_ERROR_NOT_PERMITTED,
                             _("The beacon allows a factory reset only once it has been unlocked "
                               "with its key in the same connection: give the lock key"));
      else if (number == URIBEACON_TX_MODE)
        g_set_error_literal (error, NEARBY_CONFIGURATOR_ERROR,
                             NEARBY_CONFIGURATOR_ERROR_INVALID_VALUE,
                             _("The beacon refused the tx power mode: choose one of its four "
                               "levels"));
      else
        g_set_error (error, NEARBY_CONFIGURATOR_ERROR, NEARBY_CONFIGURATOR_ERROR_NOT_PERMITTED,
                     writing
                     ? _("The beacon does not allow writing %s now; it may be locked: give its "
                         "lock key")
                     : _("The beacon does not allow reading %s now; it may be locked: give its "
                         "lock key"),
                     what);
      return;
    }
  if (remote_error_is (call_error, "org.bluez.Error.InvalidArguments")
      || remote_error_is (call_error, "org.bluez.Error.InvalidValueLength"))
    {
      if (number == EDDYSTONE_ACTIVE_SLOT)
        g_set_error_literal (error, NEARBY_CONFIGURATOR_ERROR,
                             NEARBY_CONFIGURATOR_ERROR_INVALID_VALUE,
                             _("The beacon has no such slot: choose one it lists in its "
                               "capabilities"));
      else
        g_set_error (error, NEARBY_CONFIGURATOR_ERROR, NEARBY_CONFIGURATOR_ERROR_INVALID_VALUE,
                     _("The beacon refused %s as outside what it supports (wrong length or "
                       "range): check its capabilities and choose another value"),
                     what);
      return;
    }

  /* Anything else: a link that dropped makes the request fail with org.bluez.Error.Failed. */
  if (!get_device_bool (op, "Connected"))
    {
      op->connected = FALSE;
      g_set_error (error, NEARBY_CONFIGURATOR_ERROR, NEARBY_CONFIGURATOR_ERROR_DISCONNECTED,
                   writing
                   ? _("The beacon disconnected before it confirmed writing %s, so it was not "
                       "done: bring it closer, put it in its configuration mode again, and "
                       "read it to see what it holds")
                   : _("The beacon disconnected while reading %s: bring it closer, put it in "
                       "its configuration mode again, and try again"),
                   what);
      return;
    }

  g_dbus_error_strip_remote_error (call_error);
  g_set_error (error, NEARBY_CONFIGURATOR_ERROR, NEARBY_CONFIGURATOR_ERROR_FAILED,
               writing
               ? _("The beacon did not take %s (Bluetooth said: %s), so it was not done: "
                   "try again closer to the beacon")
               : _("Reading %s failed (Bluetooth said: %s): try again closer to the beacon"),
               what, call_error->message);
}

static gboolean
has_characteristic (Operation *op,
                    guint      number)
{
  return op->characteristics[number] != NULL;
}

static GBytes *
read_characteristic (Operation  *op,
                     guint       number,
                     GError    **error)
{
  g_autoptr(GError) call_error = NULL;
  g_autoptr(GVariant) reply = NULL;
  g_autoptr(GVariant) value = NULL;
  GVariantBuilder options;
  gconstpointer data;
  gsize len;

  if (op->characteristics[number] == NULL)
    {
      g_set_error (error, NEARBY_CONFIGURATOR_ERROR, NEARBY_CONFIGURATOR_ERROR_NOT_CONFIGURABLE,
                   _("The beacon’s configuration service lacks %s, which the specification "
                     "requires: it cannot be configured with Nearby"),
                   characteristic_name (number));
      return NULL;
    }

  g_variant_builder_init (&options, G_VARIANT_TYPE_VARDICT);
  reply = g_dbus_connection_call_sync (op->bus, NEARBY_BLUEZ_BUS_NAME,
                                       op->characteristics[number], GATT_CHARACTERISTIC_IFACE,
                                       "ReadValue", g_variant_new ("(a{sv})", &options),
                                       G_VARIANT_TYPE ("(ay)"), G_DBUS_CALL_FLAGS_NO_AUTO_START,
                                       op->operation_ms, op->cancellable, &call_error);
  if (reply == NULL)
    {
      set_gatt_error (op, number, FALSE, call_error, error);
      return NULL;
    }

  value = g_variant_get_child_value (reply, 0);
  data = g_variant_get_fixed_array (value, &len, 1);
  return g_bytes_new (data, len);
}

static gboolean
write_characteristic (Operation    *op,
                      guint         number,
                      const guint8 *data,
                      gsize         len,
                      GError      **error)
{
  g_autoptr(GError) call_error = NULL;
  g_autoptr(GVariant) reply = NULL;
  GVariantBuilder options;

  if (op->characteristics[number] == NULL)
    {
      g_set_error (error, NEARBY_CONFIGURATOR_ERROR, NEARBY_CONFIGURATOR_ERROR_NOT_CONFIGURABLE,
                   _("The beacon’s configuration service lacks %s: it cannot be changed"),
                   characteristic_name (number));
      return FALSE;
    }

  g_variant_builder_init (&options, G_VARIANT_TYPE_VARDICT);
  /* A write request: the beacon answers it, and only that answer makes it done. */
  g_variant_builder_add (&options, "{sv}", "type", g_variant_new_string ("request"));
  reply = g_dbus_connection_call_sync (op->bus, NEARBY_BLUEZ_BUS_NAME,
                                       op->characteristics[number], GATT_CHARACTERISTIC_IFACE,
                                       "WriteValue",
                                       g_variant_new ("(@aya{sv})",
                                                      g_variant_new_fixed_array (G_VARIANT_TYPE_BYTE,
                                                                                 data, len, 1),
                                                      &options),
                                       NULL, G_DBUS_CALL_FLAGS_NO_AUTO_START, op->operation_ms,
                                       op->cancellable, &call_error);
  if (reply == NULL)
    {
      set_gatt_error (op, number, TRUE, call_error, error);
      return FALSE;
    }

  return TRUE;
}

static gboolean
write_byte (Operation  *op,
            guint       number,
            guint8      byte,
            GError    **error)
{
  return write_characteristic (op, number, &byte, 1, error);
}

/* Reads a characteristic that must be exactly @len bytes (at least, when @at_least). */
static GBytes *
read_sized (Operation  *op,
            guint       number,
            gsize       len,
            gboolean    at_least,
            GError    **error)
{
  g_autoptr(GBytes) bytes = read_characteristic (op, number, error);
  gsize size;

  if (bytes == NULL)
    return NULL;
  size = g_bytes_get_size (bytes);
  if (at_least ? size < len : size != len)
    {
      g_set_error (error, NEARBY_CONFIGURATOR_ERROR, NEARBY_CONFIGURATOR_ERROR_FAILED,
                   _("The beacon answered %s with %zu bytes, where the specification says %zu: "
                     "its firmware does not follow it, so Nearby does not change it"),
                   characteristic_name (number), size, len);
      return NULL;
    }
  return g_steal_pointer (&bytes);
}

/* Connection */

static gboolean
wait_cb (gpointer user_data)
{
  *(gboolean *) user_data = TRUE;
  return G_SOURCE_REMOVE;
}

static gboolean
connect_device (Operation     *op,
                GMainContext  *context,
                GError       **error)
{
  g_autoptr(GError) call_error = NULL;
  g_autoptr(GVariant) reply = NULL;
  g_autoptr(GSource) timeout = NULL;
  g_autoptr(GSource) cancelled = NULL;
  gboolean timed_out = FALSE;
  gint64 started = g_get_monotonic_time ();

  reply = g_dbus_connection_call_sync (op->bus, NEARBY_BLUEZ_BUS_NAME, op->device_path,
                                       NEARBY_BLUEZ_DEVICE_IFACE, "Connect", NULL, NULL,
                                       G_DBUS_CALL_FLAGS_NO_AUTO_START, op->connect_ms,
                                       op->cancellable, &call_error);
  if (reply == NULL)
    {
      if (g_error_matches (call_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_propagate_error (error, g_steal_pointer (&call_error));
      else if (g_error_matches (call_error, G_IO_ERROR, G_IO_ERROR_TIMED_OUT))
        g_set_error (error, NEARBY_CONFIGURATOR_ERROR, NEARBY_CONFIGURATOR_ERROR_TIMED_OUT,
                     _("%s did not accept a connection within %u s: put it in its "
                       "configuration mode (often a button, or its first minute after power "
                       "on), bring it closer, and try again"),
                     op->address, op->connect_ms / 1000);
      else if (error_is_bluetooth_gone (call_error))
        g_set_error_literal (error, NEARBY_CONFIGURATOR_ERROR,
                             NEARBY_CONFIGURATOR_ERROR_BLUETOOTH_GONE,
                             _("Bluetooth stopped while connecting: start it again "
                               "(`systemctl start bluetooth`) and try again"));
      else
        {
          g_dbus_error_strip_remote_error (call_error);
          g_set_error (error, NEARBY_CONFIGURATOR_ERROR, NEARBY_CONFIGURATOR_ERROR_CONNECT_FAILED,
                       _("Could not connect to %s (Bluetooth said: %s): put it in its "
                         "configuration mode, bring it closer, and try again"),
                       op->address, call_error->message);
        }
      return FALSE;
    }
  op->connected = TRUE;

  /* The services are there once ServicesResolved is true, which may come after Connect
   * answers; the connection timeout covers both. */
  if (!op->services_resolved)
    op->services_resolved = get_device_bool (op, "ServicesResolved");
  {
    gint64 left_ms = op->connect_ms - (g_get_monotonic_time () - started) / 1000;

    timeout = g_timeout_source_new (MAX (left_ms, 1));
    g_source_set_callback (timeout, wait_cb, &timed_out, NULL);
    g_source_attach (timeout, context);
  }
  if (op->cancellable != NULL)
    {
      /* Only wakes the loop below, which then sees the cancellation. */
      cancelled = g_cancellable_source_new (op->cancellable);
      g_source_set_dummy_callback (cancelled);
      g_source_attach (cancelled, context);
    }
  while (!op->services_resolved && op->connected && !timed_out
         && !g_cancellable_is_cancelled (op->cancellable))
    g_main_context_iteration (context, TRUE);
  g_source_destroy (timeout);
  if (cancelled != NULL)
    g_source_destroy (cancelled);

  if (g_cancellable_set_error_if_cancelled (op->cancellable, error))
    return FALSE;
  if (!op->connected)
    {
      g_set_error (error, NEARBY_CONFIGURATOR_ERROR, NEARBY_CONFIGURATOR_ERROR_DISCONNECTED,
                   _("%s disconnected before its services were known: bring it closer and try "
                     "again"), op->address);
      return FALSE;
    }
  if (!op->services_resolved)
    {
      g_set_error (error, NEARBY_CONFIGURATOR_ERROR, NEARBY_CONFIGURATOR_ERROR_TIMED_OUT,
                   _("%s connected, but its services were not known within %u s: bring it "
                     "closer and try again"), op->address, op->connect_ms / 1000);
      return FALSE;
    }

  return TRUE;
}

static void
disconnect_device (Operation *op)
{
  g_autoptr(GVariant) reply = NULL;

  if (!op->connected)
    return;
  /* Even when cancelled: a beacon left connected stays out of its normal broadcasting. */
  reply = g_dbus_connection_call_sync (op->bus, NEARBY_BLUEZ_BUS_NAME, op->device_path,
                                       NEARBY_BLUEZ_DEVICE_IFACE, "Disconnect", NULL, NULL,
                                       G_DBUS_CALL_FLAGS_NO_AUTO_START, op->operation_ms, NULL,
                                       NULL);
}

/* Eddystone */

static void
aes128_encrypt_block (const guint8 key[16],
                      const guint8 in[16],
                      guint8       out[16])
{
  struct aes128_ctx ctx;

  aes128_set_encrypt_key (&ctx, key);
  aes128_encrypt (&ctx, 16, out, in);
}

static void
aes128_decrypt_block (const guint8 key[16],
                      const guint8 in[16],
                      guint8       out[16])
{
  struct aes128_ctx ctx;

  aes128_set_decrypt_key (&ctx, key);
  aes128_decrypt (&ctx, 16, out, in);
}

static gboolean
eddystone_unlock (Operation          *op,
                  NearbyBeaconConfig *config,
                  GError            **error)
{
  g_autoptr(GBytes) challenge = NULL;
  guint8 token[16];

  challenge = read_sized (op, EDDYSTONE_UNLOCK, 16, FALSE, error);
  if (challenge == NULL)
    return FALSE;
  aes128_encrypt_block (op->changes.key, g_bytes_get_data (challenge, NULL), token);
  if (!write_characteristic (op, EDDYSTONE_UNLOCK, token, sizeof token, error))
    return FALSE;
  config->lock_state = 0x01;
  config->locked = FALSE;
  return TRUE;
}

static gboolean
eddystone_read (Operation          *op,
                NearbyBeaconConfig *config,
                GError            **error)
{
  g_autoptr(GBytes) lock = NULL;
  g_autoptr(GBytes) capabilities = NULL;
  g_autoptr(GBytes) slot = NULL;
  g_autoptr(GBytes) interval = NULL;
  g_autoptr(GBytes) radio = NULL;
  g_autoptr(GBytes) advertised = NULL;
  g_autoptr(GBytes) connectable = NULL;
  g_autoptr(GBytes) data = NULL;
  const guint8 *bytes;
  gsize len;

  config->service = NEARBY_CONFIG_SERVICE_EDDYSTONE;
  lock = read_sized (op, EDDYSTONE_LOCK_STATE, 1, TRUE, error);
  if (lock == NULL)
    return FALSE;
  config->lock_state = ((const guint8 *) g_bytes_get_data (lock, NULL))[0];
  config->locked = config->lock_state == 0x00;
  if (config->locked)
    return TRUE;

  capabilities = read_sized (op, EDDYSTONE_CAPABILITIES, 6, TRUE, error);
  if (capabilities == NULL)
    return FALSE;
  bytes = g_bytes_get_data (capabilities, &len);
  config->version = bytes[0];
  config->max_slots = bytes[1];
  config->max_eid_slots = bytes[2];
  config->capabilities = bytes[3];
  config->frame_types = (guint16) (bytes[4] << 8 | bytes[5]);
  config->n_tx_levels = MIN (len - 6, NEARBY_CONFIG_TX_LEVELS_MAX);
  for (guint i = 0; i < config->n_tx_levels; i++)
    config->tx_levels[i] = (gint8) bytes[6 + i];

  if ((slot = read_sized (op, EDDYSTONE_ACTIVE_SLOT, 1, FALSE, error)) == NULL
      || (interval = read_sized (op, EDDYSTONE_INTERVAL, 2, FALSE, error)) == NULL
      || (radio = read_sized (op, EDDYSTONE_RADIO_TX, 1, FALSE, error)) == NULL
      || (advertised = read_sized (op, EDDYSTONE_ADVERTISED_TX, 1, FALSE, error)) == NULL
      || (data = read_characteristic (op, EDDYSTONE_SLOT_DATA, error)) == NULL)
    return FALSE;

  config->active_slot = ((const guint8 *) g_bytes_get_data (slot, NULL))[0];
  bytes = g_bytes_get_data (interval, NULL);
  config->interval_ms = (guint) (bytes[0] << 8 | bytes[1]);
  config->tx_power = ((const gint8 *) g_bytes_get_data (radio, NULL))[0];
  config->advertised_tx_power = ((const gint8 *) g_bytes_get_data (advertised, NULL))[0];

  bytes = g_bytes_get_data (data, &len);
  memset (&config->frame, 0, sizeof config->frame);
  /* An EID slot reads as what registration takes (type, exponent, time counter, EID), not as
   * the frame it broadcasts; an empty slot reads as nothing, or as one 0x00 byte. */
  if (len == 14 && bytes[0] == 0x30)
    {
      config->frame.kind = NEARBY_FRAME_KIND_EID;
      config->frame.tx_power = config->advertised_tx_power;
      config->frame.tx_power_known = TRUE;
      memcpy (config->frame.eid, bytes + 6, 8);
      config->eid_exponent = bytes[1];
      config->eid_clock = (guint32) bytes[2] << 24 | (guint32) bytes[3] << 16
                          | (guint32) bytes[4] << 8 | bytes[5];
    }
  else if (len > 1)
    nearby_frame_decode_service_data (NEARBY_UUID16_EDDYSTONE, bytes, len, &config->frame);

  if ((config->frame_types & 0x08) && has_characteristic (op, EDDYSTONE_PUBLIC_ECDH_KEY))
    {
      g_autoptr(GBytes) public_key = read_sized (op, EDDYSTONE_PUBLIC_ECDH_KEY, 32, FALSE, error);

      if (public_key == NULL)
        return FALSE;
      memcpy (config->public_key, g_bytes_get_data (public_key, NULL), 32);
      config->has_public_key = TRUE;
    }

  /* The identity key travels wrapped under the lock key (AES-128 ECB), which only the person
   * who gave it can undo; without it the key stays unread. */
  if (config->frame.kind == NEARBY_FRAME_KIND_EID && op->changes.has_key
      && has_characteristic (op, EDDYSTONE_EID_IDENTITY_KEY))
    {
      g_autoptr(GBytes) wrapped = read_sized (op, EDDYSTONE_EID_IDENTITY_KEY, 16, FALSE, error);

      if (wrapped == NULL)
        return FALSE;
      aes128_decrypt_block (op->changes.key, g_bytes_get_data (wrapped, NULL),
                            config->identity_key);
      config->has_identity_key = TRUE;
    }

  /* Optional in practice: beacons that are always connectable may leave it out. */
  if (has_characteristic (op, EDDYSTONE_REMAIN_CONNECTABLE))
    {
      connectable = read_sized (op, EDDYSTONE_REMAIN_CONNECTABLE, 1, FALSE, error);
      if (connectable == NULL)
        return FALSE;
      config->can_be_non_connectable = ((const guint8 *) g_bytes_get_data (connectable, NULL))[0] != 0;
    }
  config->readable = TRUE;

  return TRUE;
}

static gboolean
eddystone_write (Operation                *op,
                 const NearbyBeaconConfig *before,
                 GError                  **error)
{
  const NearbyBeaconChanges *changes = &op->changes;

  if (changes->set_flags || changes->set_tx_levels || changes->set_tx_mode)
    {
      g_set_error_literal (error, NEARBY_CONFIGURATOR_ERROR,
                           NEARBY_CONFIGURATOR_ERROR_INVALID_VALUE,
                           _("An Eddystone beacon has no such setting: flags, power levels and "
                             "the tx power mode are the UriBeacon configuration service’s"));
      return FALSE;
    }

  if (changes->reset && !write_byte (op, EDDYSTONE_FACTORY_RESET, 0x0b, error))
    return FALSE;

  if (changes->url != NULL)
    {
      guint8 frame[NEARBY_FRAME_URL_SERVICE_DATA_MAX];
      size_t len = 0, excess = 0;

      if (!(before->frame_types & 0x02))
        {
          g_set_error_literal (error, NEARBY_CONFIGURATOR_ERROR,
                               NEARBY_CONFIGURATOR_ERROR_INVALID_VALUE,
                               _("The beacon cannot broadcast URL frames (its capabilities do "
                                 "not list Eddystone-URL)"));
          return FALSE;
        }
      nearby_frame_encode_eddystone_url (changes->url, 0, frame, &len, &excess);
      /* Written without the tx power, which the beacon adds: 0x10, scheme, URL. */
      frame[1] = 0x10;
      if (!write_characteristic (op, EDDYSTONE_SLOT_DATA, frame + 1, len - 1, error))
        return FALSE;
    }
  else if (changes->set_uid)
    {
      guint8 frame[17] = { 0x00 };

      if (!(before->frame_types & 0x01))
        {
          g_set_error_literal (error, NEARBY_CONFIGURATOR_ERROR,
                               NEARBY_CONFIGURATOR_ERROR_INVALID_VALUE,
                               _("The beacon cannot broadcast UID frames (its capabilities do "
                                 "not list Eddystone-UID)"));
          return FALSE;
        }
      memcpy (frame + 1, changes->uid, 16);
      if (!write_characteristic (op, EDDYSTONE_SLOT_DATA, frame, sizeof frame, error))
        return FALSE;
    }
  else if (changes->set_tlm)
    {
      if (!(before->frame_types & 0x04))
        {
          g_set_error_literal (error, NEARBY_CONFIGURATOR_ERROR,
                               NEARBY_CONFIGURATOR_ERROR_INVALID_VALUE,
                               _("The beacon cannot broadcast telemetry (its capabilities do "
                                 "not list Eddystone-TLM)"));
          return FALSE;
        }
      if (!write_byte (op, EDDYSTONE_SLOT_DATA, 0x20, error))
        return FALSE;
    }
  else if (changes->set_eid)
    {
      guint8 value[34] = { 0x30 };

      if (!(before->frame_types & 0x08) || before->max_eid_slots == 0)
        {
          g_set_error_literal (error, NEARBY_CONFIGURATOR_ERROR,
                               NEARBY_CONFIGURATOR_ERROR_INVALID_VALUE,
                               _("The beacon cannot broadcast EID frames (its capabilities do "
                                 "not list Eddystone-EID)"));
          return FALSE;
        }
      /* The resolver's public key and the exponent: the beacon makes the identity key by key
       * exchange, so that it never travels (the specification's preferred way). */
      memcpy (value + 1, changes->eid_resolver_key, 32);
      value[33] = changes->eid_exponent;
      if (!write_characteristic (op, EDDYSTONE_SLOT_DATA, value, sizeof value, error))
        return FALSE;
    }
  else if (changes->clear_slot)
    {
      /* A single 0x00 rather than nothing: some stacks cannot write an empty value. */
      if (!write_byte (op, EDDYSTONE_SLOT_DATA, 0x00, error))
        return FALSE;
    }

  if (changes->set_tx_power)
    {
      if (changes->tx_power < G_MININT8 || changes->tx_power > G_MAXINT8)
        {
          g_set_error (error, NEARBY_CONFIGURATOR_ERROR, NEARBY_CONFIGURATOR_ERROR_INVALID_VALUE,
                       _("%d dBm is outside what a beacon can be set to (-128 to 127)"),
                       changes->tx_power);
          return FALSE;
        }
      if (!write_byte (op, EDDYSTONE_RADIO_TX, (guint8) (gint8) changes->tx_power, error))
        return FALSE;
    }

  if (changes->set_advertised_tx_power)
    {
      if (changes->advertised_tx_power < G_MININT8 || changes->advertised_tx_power > G_MAXINT8)
        {
          g_set_error (error, NEARBY_CONFIGURATOR_ERROR, NEARBY_CONFIGURATOR_ERROR_INVALID_VALUE,
                       _("%d dBm is outside what a beacon can be set to (-128 to 127)"),
                       changes->advertised_tx_power);
          return FALSE;
        }
      if (!write_byte (op, EDDYSTONE_ADVERTISED_TX, (guint8) (gint8) changes->advertised_tx_power,
                       error))
        return FALSE;
    }

  if (changes->set_interval)
    {
      guint8 interval[2] = { MIN (changes->interval_ms, G_MAXUINT16) >> 8,
                             MIN (changes->interval_ms, G_MAXUINT16) & 0xff };

      if (!write_characteristic (op, EDDYSTONE_INTERVAL, interval, 2, error))
        return FALSE;
    }

  if (changes->set_remain_connectable
      && !write_byte (op, EDDYSTONE_REMAIN_CONNECTABLE, changes->remain_connectable ? 1 : 0,
                      error))
    return FALSE;

  return TRUE;
}

static gboolean
eddystone_lock (Operation  *op,
                GError    **error)
{
  guint8 value[17] = { 0x00 };

  /* The new key travels encrypted under the one the beacon holds (configure() made sure it was
   * given). */
  aes128_encrypt_block (op->changes.key, op->changes.new_key, value + 1);
  return write_characteristic (op, EDDYSTONE_LOCK_STATE, value, sizeof value, error);
}

/* UriBeacon */

static gboolean
uribeacon_read (Operation          *op,
                NearbyBeaconConfig *config,
                GError            **error)
{
  g_autoptr(GBytes) lock = NULL;
  g_autoptr(GBytes) uri = NULL;
  g_autoptr(GBytes) flags = NULL;
  g_autoptr(GBytes) levels = NULL;
  g_autoptr(GBytes) mode = NULL;
  g_autoptr(GBytes) period = NULL;
  const guint8 *bytes;
  guint8 frame[2 + NEARBY_FRAME_ENCODED_URL_MAX];
  gsize len;

  config->service = NEARBY_CONFIG_SERVICE_URIBEACON;
  if ((lock = read_sized (op, URIBEACON_LOCK_STATE, 1, FALSE, error)) == NULL
      || (uri = read_characteristic (op, URIBEACON_URI_DATA, error)) == NULL
      || (flags = read_sized (op, URIBEACON_FLAGS, 1, FALSE, error)) == NULL
      || (levels = read_sized (op, URIBEACON_TX_LEVELS, 4, FALSE, error)) == NULL
      || (mode = read_sized (op, URIBEACON_TX_MODE, 1, FALSE, error)) == NULL
      || (period = read_sized (op, URIBEACON_PERIOD, 2, FALSE, error)) == NULL)
    return FALSE;

  config->lock_state = ((const guint8 *) g_bytes_get_data (lock, NULL))[0] != 0;
  config->locked = config->lock_state != 0;
  config->flags = ((const guint8 *) g_bytes_get_data (flags, NULL))[0];
  bytes = g_bytes_get_data (levels, NULL);
  config->n_tx_levels = 4;
  for (guint i = 0; i < 4; i++)
    config->tx_levels[i] = (gint8) bytes[i];
  config->tx_power_mode = ((const guint8 *) g_bytes_get_data (mode, NULL))[0] & 0x03;
  config->tx_power = config->tx_levels[config->tx_power_mode];
  bytes = g_bytes_get_data (period, NULL);
  /* UriBeacon's integers are little-endian, unlike Eddystone's. */
  config->interval_ms = (guint) (bytes[0] | bytes[1] << 8);

  bytes = g_bytes_get_data (uri, &len);
  memset (&config->frame, 0, sizeof config->frame);
  if (len > 0)
    {
      len = MIN (len, NEARBY_FRAME_ENCODED_URL_MAX);
      frame[0] = config->flags;
      frame[1] = (guint8) config->tx_power;
      memcpy (frame + 2, bytes, len);
      nearby_frame_decode_service_data (NEARBY_UUID16_URIBEACON, frame, len + 2, &config->frame);
    }
  /* Everything but the writes is readable while locked. */
  config->readable = TRUE;

  return TRUE;
}

static gboolean
uribeacon_write (Operation                *op,
                 const NearbyBeaconConfig *before,
                 GError                  **error)
{
  const NearbyBeaconChanges *changes = &op->changes;

  if (changes->set_uid || changes->set_tlm || changes->clear_slot || changes->set_eid
      || changes->set_advertised_tx_power || changes->set_remain_connectable)
    {
      g_set_error_literal (error, NEARBY_CONFIGURATOR_ERROR,
                           NEARBY_CONFIGURATOR_ERROR_INVALID_VALUE,
                           changes->set_uid
                           ? _("A UriBeacon broadcasts only a URL: it has no UID to set")
                           : _("A UriBeacon has no such setting: it is one of the Eddystone "
                               "configuration service’s"));
      return FALSE;
    }
  if (changes->slot > 0)
    {
      g_set_error_literal (error, NEARBY_CONFIGURATOR_ERROR,
                           NEARBY_CONFIGURATOR_ERROR_INVALID_VALUE,
                           _("A UriBeacon has one slot only: leave out the slot"));
      return FALSE;
    }

  if (changes->reset && !write_byte (op, URIBEACON_RESET, 0x01, error))
    return FALSE;

  if (changes->set_flags && !write_byte (op, URIBEACON_FLAGS, changes->flags, error))
    return FALSE;

  if (changes->set_tx_levels)
    {
      guint8 levels[4];

      for (guint i = 0; i < 4; i++)
        levels[i] = (guint8) (gint8) CLAMP (changes->tx_levels[i], G_MININT8, G_MAXINT8);
      if (!write_characteristic (op, URIBEACON_TX_LEVELS, levels, sizeof levels, error))
        return FALSE;
    }

  if (changes->url != NULL)
    {
      guint8 frame[NEARBY_FRAME_URL_SERVICE_DATA_MAX];
      size_t len = 0, excess = 0;

      nearby_frame_encode_uribeacon (changes->url, before->flags, 0, frame, &len, &excess);
      if (!write_characteristic (op, URIBEACON_URI_DATA, frame + 2, len - 2, error))
        return FALSE;
    }

  if (changes->set_tx_mode)
    {
      if (!write_byte (op, URIBEACON_TX_MODE, changes->tx_mode, error))
        return FALSE;
    }
  else if (changes->set_tx_power)
    {
      /* The lowest of the four levels that reaches the power asked for, else the highest. */
      guint mode = 0;

      const int *levels = changes->set_tx_levels ? changes->tx_levels : before->tx_levels;

      for (mode = 0; mode < 3; mode++)
        if (levels[mode] >= changes->tx_power)
          break;
      if (!write_byte (op, URIBEACON_TX_MODE, (guint8) mode, error))
        return FALSE;
    }

  if (changes->set_interval)
    {
      guint16 period = (guint16) MIN (changes->interval_ms, G_MAXUINT16);
      guint8 value[2] = { period & 0xff, period >> 8 };

      if (!write_characteristic (op, URIBEACON_PERIOD, value, 2, error))
        return FALSE;
    }

  return TRUE;
}

/* The operation */

static gboolean
configure (Operation              *op,
           NearbyConfigureResult  *result,
           GError                **error)
{
  gboolean eddystone = op->service == NEARBY_CONFIG_SERVICE_EDDYSTONE;
  gboolean writing = nearby_beacon_changes_write (&op->changes);
  NearbyBeaconConfig *before = g_new0 (NearbyBeaconConfig, 1);

  result->before = before;

  if (eddystone)
    {
      if (!eddystone_read (op, before, error))
        return FALSE;
      if (before->locked && op->changes.has_key)
        {
          if (!eddystone_unlock (op, before, error) || !eddystone_read (op, before, error))
            return FALSE;
        }
      /* Choosing the slot is not a change: "before" is then that slot's configuration. */
      if (op->changes.slot >= 0 && before->readable && op->changes.slot != before->active_slot)
        {
          if (op->changes.slot >= before->max_slots)
            {
              g_set_error (error, NEARBY_CONFIGURATOR_ERROR,
                           NEARBY_CONFIGURATOR_ERROR_INVALID_VALUE,
                           _("The beacon has %u slots (0 to %u): slot %d does not exist"),
                           before->max_slots, before->max_slots - 1, op->changes.slot);
              return FALSE;
            }
          if (!write_byte (op, EDDYSTONE_ACTIVE_SLOT, (guint8) op->changes.slot, error)
              || !eddystone_read (op, before, error))
            return FALSE;
        }
    }
  else
    {
      if (!uribeacon_read (op, before, error))
        return FALSE;
      if (before->locked && op->changes.has_key)
        {
          if (!write_characteristic (op, URIBEACON_UNLOCK, op->changes.key, 16, error)
              || !uribeacon_read (op, before, error))
            return FALSE;
        }
    }

  if (!writing)
    return TRUE;

  if (before->locked)
    {
      g_set_error_literal (error, NEARBY_CONFIGURATOR_ERROR, NEARBY_CONFIGURATOR_ERROR_LOCKED,
                           _("The beacon is locked: give its lock key (32 hex digits) to change "
                             "it"));
      return FALSE;
    }

  /* Before anything is written: a new key sent under a key the beacon does not hold would lock
   * it with a key nobody knows. */
  if (eddystone && op->changes.set_new_key && !op->changes.has_key)
    {
      g_set_error_literal (error, NEARBY_CONFIGURATOR_ERROR, NEARBY_CONFIGURATOR_ERROR_LOCKED,
                           _("To lock the beacon with a new key, give its current lock key too: "
                             "the new key travels encrypted under the current one"));
      return FALSE;
    }

  if (eddystone ? !eddystone_write (op, before, error) : !uribeacon_write (op, before, error))
    return FALSE;

  result->after = g_new0 (NearbyBeaconConfig, 1);
  if (eddystone ? !eddystone_read (op, result->after, error)
                : !uribeacon_read (op, result->after, error))
    return FALSE;

  /* Last: once locked, the beacon reads nothing more. */
  if (op->changes.set_new_key)
    {
      if (eddystone ? !eddystone_lock (op, error)
                    : !write_characteristic (op, URIBEACON_LOCK, op->changes.new_key, 16, error))
        return FALSE;
      result->after->locked = TRUE;
      result->after->lock_state = eddystone ? 0x00 : 1;
    }

  return TRUE;
}

static void
run_in_thread (GTask        *task,
               gpointer      source_object,
               gpointer      task_data,
               GCancellable *cancellable)
{
  Operation *op = task_data;
  g_autoptr(GMainContext) context = g_main_context_new ();
  g_autoptr(NearbyConfigureResult) result = g_new0 (NearbyConfigureResult, 1);
  g_autoptr(GError) error = NULL;
  guint subscription = 0;
  gboolean ok = FALSE;

  g_main_context_push_thread_default (context);
  op->cancellable = cancellable;

  op->bus = g_bus_get_sync (G_BUS_TYPE_SYSTEM, cancellable, &error);
  if (op->bus == NULL)
    {
      g_clear_error (&error);
      g_set_error_literal (&error, NEARBY_CONFIGURATOR_ERROR, NEARBY_CONFIGURATOR_ERROR_NO_SERVICE,
                           _("Bluetooth is reached over the D-Bus system bus, which is not "
                             "running: start it with `systemctl start dbus`"));
    }
  else if (find_device (op, &error))
    {
      subscription = g_dbus_connection_signal_subscribe (op->bus, NEARBY_BLUEZ_BUS_NAME,
                                                         "org.freedesktop.DBus.Properties",
                                                         "PropertiesChanged", op->device_path,
                                                         NULL, G_DBUS_SIGNAL_FLAGS_NONE,
                                                         on_device_properties_changed, op, NULL);
      if (connect_device (op, context, &error) && find_characteristics (op, &error))
        ok = configure (op, result, &error);
      disconnect_device (op);
      g_dbus_connection_signal_unsubscribe (op->bus, subscription);
    }

  G_LOCK (busy);
  g_hash_table_remove (busy_devices, op->address);
  G_UNLOCK (busy);

  /* Signals already queued for this context go with it. */
  while (g_main_context_iteration (context, FALSE))
    ;
  g_main_context_pop_thread_default (context);

  if (!ok)
    g_task_return_error (task, g_steal_pointer (&error));
  else
    g_task_return_pointer (task, g_steal_pointer (&result),
                           (GDestroyNotify) nearby_configure_result_free);
}

void
nearby_configurator_run_async (NearbyConfigurator        *self,
                               const NearbyBeaconChanges *changes,
                               GCancellable              *cancellable,
                               GAsyncReadyCallback        callback,
                               gpointer                   user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GError) error = NULL;
  Operation *op;
  gboolean busy_already;

  g_return_if_fail (NEARBY_IS_CONFIGURATOR (self));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, nearby_configurator_run_async);

  if (changes != NULL && !nearby_beacon_changes_check (changes, &error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  op = g_new0 (Operation, 1);
  op->address = g_ascii_strup (self->address, -1);
  op->adapter = g_strdup (self->adapter);
  op->connect_ms = self->connect_ms;
  op->operation_ms = self->operation_ms;
  if (changes != NULL)
    op->changes = *changes;
  else
    op->changes = (NearbyBeaconChanges) NEARBY_BEACON_CHANGES_INIT;
  op->url = g_strdup (op->changes.url);
  op->changes.url = op->url;
  g_task_set_task_data (task, op, (GDestroyNotify) operation_free);

  G_LOCK (busy);
  if (busy_devices == NULL)
    busy_devices = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  busy_already = g_hash_table_contains (busy_devices, op->address);
  if (!busy_already)
    g_hash_table_add (busy_devices, g_strdup (op->address));
  G_UNLOCK (busy);

  if (busy_already)
    {
      g_task_return_new_error (task, NEARBY_CONFIGURATOR_ERROR, NEARBY_CONFIGURATOR_ERROR_BUSY,
                               _("%s is being read or configured already: wait until that "
                                 "ends, then try again"), op->address);
      return;
    }

  g_task_run_in_thread (task, run_in_thread);
}

NearbyConfigureResult *
nearby_configurator_run_finish (NearbyConfigurator  *self,
                                GAsyncResult        *result,
                                GError             **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/* The object */

static void
nearby_configurator_finalize (GObject *object)
{
  NearbyConfigurator *self = NEARBY_CONFIGURATOR (object);

  g_free (self->address);
  g_free (self->adapter);

  G_OBJECT_CLASS (nearby_configurator_parent_class)->finalize (object);
}

static void
nearby_configurator_class_init (NearbyConfiguratorClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = nearby_configurator_finalize;
}

static void
nearby_configurator_init (NearbyConfigurator *self)
{
  self->connect_ms = 20000;
  self->operation_ms = 10000;
}

NearbyConfigurator *
nearby_configurator_new (const char *address,
                         const char *adapter)
{
  NearbyConfigurator *self;

  g_return_val_if_fail (address != NULL, NULL);

  self = g_object_new (NEARBY_TYPE_CONFIGURATOR, NULL);
  self->address = g_strdup (address);
  self->adapter = g_strdup (adapter);

  return self;
}

const char *
nearby_configurator_get_address (NearbyConfigurator *self)
{
  g_return_val_if_fail (NEARBY_IS_CONFIGURATOR (self), NULL);

  return self->address;
}

void
nearby_configurator_set_timeouts (NearbyConfigurator *self,
                                  guint               connect_ms,
                                  guint               operation_ms)
{
  g_return_if_fail (NEARBY_IS_CONFIGURATOR (self));

  self->connect_ms = connect_ms;
  self->operation_ms = operation_ms;
}
