/* nearby-advertiser-adapter.c: the adapter the advertiser registers with: which one, whether
 * it can advertise, and BlueZ's refusals in words
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "nearby-advertiser"

#include "config.h"

#include <glib/gi18n.h>

#include "nearby-advertiser-private.h"
#include "nearby-bluez.h"

char *
_nearby_advertiser_dup_adapter_name (NearbyAdvertiser *self)
{
  if (self->adapter_path != NULL)
    return g_path_get_basename (self->adapter_path);

  return g_strdup (self->adapter != NULL ? self->adapter : "?");
}

GError *
_nearby_advertiser_error_from_bluez (const GError *error,
                                     const char   *adapter_name)
{
  g_autofree char *remote = g_dbus_error_get_remote_error (error);
  g_autoptr(GError) stripped = g_error_copy (error);

  g_dbus_error_strip_remote_error (stripped);

  if (g_strcmp0 (remote, "org.bluez.Error.NotPermitted") == 0)
    return g_error_new (NEARBY_ADVERTISER_ERROR, NEARBY_ADVERTISER_ERROR_NO_INSTANCES,
                        _("Every advertising instance of %s is taken by other programs (%s)"),
                        adapter_name, stripped->message);
  if (g_strcmp0 (remote, "org.bluez.Error.InvalidArguments") == 0
      || g_strcmp0 (remote, "org.bluez.Error.InvalidLength") == 0)
    return g_error_new (NEARBY_ADVERTISER_ERROR, NEARBY_ADVERTISER_ERROR_INVALID_ARGUMENTS,
                        _("Bluetooth rejected the advertisement as invalid (%s)"),
                        stripped->message);
  if (g_strcmp0 (remote, "org.bluez.Error.NotReady") == 0)
    return g_error_new (NEARBY_ADVERTISER_ERROR, NEARBY_ADVERTISER_ERROR_OFF,
                        "%s", _("Bluetooth is off"));
  if (g_error_matches (error, G_DBUS_ERROR, G_DBUS_ERROR_SERVICE_UNKNOWN)
      || g_error_matches (error, G_DBUS_ERROR, G_DBUS_ERROR_NAME_HAS_NO_OWNER)
      || g_error_matches (error, G_DBUS_ERROR, G_DBUS_ERROR_NO_REPLY)
      || g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CLOSED))
    return g_error_new (NEARBY_ADVERTISER_ERROR, NEARBY_ADVERTISER_ERROR_NO_SERVICE,
                        "%s", _("The Bluetooth service is not running"));
  if (g_error_matches (error, G_DBUS_ERROR, G_DBUS_ERROR_UNKNOWN_METHOD)
      || g_error_matches (error, G_DBUS_ERROR, G_DBUS_ERROR_UNKNOWN_INTERFACE)
      || g_error_matches (error, G_DBUS_ERROR, G_DBUS_ERROR_UNKNOWN_OBJECT))
    return g_error_new (NEARBY_ADVERTISER_ERROR, NEARBY_ADVERTISER_ERROR_NOT_SUPPORTED,
                        _("Bluetooth adapter “%s” cannot advertise"), adapter_name);

  return g_error_new (NEARBY_ADVERTISER_ERROR, NEARBY_ADVERTISER_ERROR_FAILED,
                      _("Bluetooth advertising failed: %s"), stripped->message);
}

static gboolean
variant_get_uint (GVariant *dict,
                  const char *key,
                  guint      *value)
{
  g_autoptr(GVariant) v = g_variant_lookup_value (dict, key, NULL);

  if (v == NULL)
    return FALSE;
  if (g_variant_is_of_type (v, G_VARIANT_TYPE_BYTE))
    *value = g_variant_get_byte (v);
  else if (g_variant_is_of_type (v, G_VARIANT_TYPE_UINT16))
    *value = g_variant_get_uint16 (v);
  else if (g_variant_is_of_type (v, G_VARIANT_TYPE_UINT32))
    *value = g_variant_get_uint32 (v);
  else
    return FALSE;

  return TRUE;
}

static gboolean
adapter_is_powered (GVariant *interfaces)
{
  g_autoptr(GVariant) adapter = g_variant_lookup_value (interfaces, NEARBY_BLUEZ_ADAPTER_IFACE,
                                                        G_VARIANT_TYPE_VARDICT);
  gboolean powered = FALSE;

  if (adapter != NULL)
    g_variant_lookup (adapter, "Powered", "b", &powered);

  return powered;
}

/* Picks the adapter among @objects (GetManagedObjects' answer) and returns its interfaces. */
GVariant *
_nearby_advertiser_choose_adapter (NearbyAdvertiser  *self,
                                   GVariant          *objects,
                                   GError           **error)
{
  g_autoptr(GPtrArray) interfaces =
    g_ptr_array_new_with_free_func ((GDestroyNotify) g_variant_unref);
  g_autoptr(GArray) adapters = g_array_new (FALSE, FALSE, sizeof (NearbyBluezAdapter));
  GVariantIter iter;
  const char *path;
  GVariant *object_interfaces;
  int chosen;

  g_variant_iter_init (&iter, objects);
  while (g_variant_iter_next (&iter, "{&o@a{sa{sv}}}", &path, &object_interfaces))
    {
      g_autoptr(GVariant) adapter = g_variant_lookup_value (object_interfaces,
                                                            NEARBY_BLUEZ_ADAPTER_IFACE,
                                                            G_VARIANT_TYPE_VARDICT);
      NearbyBluezAdapter candidate;

      if (adapter == NULL)
        {
          g_variant_unref (object_interfaces);
          continue;
        }

      candidate.object_path = path;
      candidate.powered = adapter_is_powered (object_interfaces);
      g_array_append_val (adapters, candidate);
      g_ptr_array_add (interfaces, object_interfaces);
    }

  chosen = nearby_bluez_choose_adapter ((const NearbyBluezAdapter *) (gpointer) adapters->data,
                                        adapters->len, self->adapter);
  if (chosen < 0)
    {
      if (self->adapter != NULL)
        g_set_error (error, NEARBY_ADVERTISER_ERROR, NEARBY_ADVERTISER_ERROR_NO_ADAPTER,
                     _("Bluetooth adapter “%s” not found"), self->adapter);
      else
        g_set_error (error, NEARBY_ADVERTISER_ERROR, NEARBY_ADVERTISER_ERROR_NO_ADAPTER,
                     "%s", _("No Bluetooth adapter found"));
      return NULL;
    }

  g_free (self->adapter_path);
  self->adapter_path = g_strdup (g_array_index (adapters, NearbyBluezAdapter, chosen).object_path);

  return g_variant_ref (g_ptr_array_index (interfaces, chosen));
}

gboolean
_nearby_advertiser_check_adapter (NearbyAdvertiser  *self,
                                  GVariant          *interfaces,
                                  GError           **error)
{
  g_autoptr(GVariant) adapter = g_variant_lookup_value (interfaces, NEARBY_BLUEZ_ADAPTER_IFACE,
                                                        G_VARIANT_TYPE_VARDICT);
  g_autoptr(GVariant) manager = g_variant_lookup_value (interfaces,
                                                        NEARBY_BLUEZ_ADVERTISING_MANAGER_IFACE,
                                                        G_VARIANT_TYPE_VARDICT);
  g_autofree char *name = _nearby_advertiser_dup_adapter_name (self);
  const char *power_state = NULL;
  gboolean powered = FALSE;
  guint active = 0;
  guint supported = 0;

  g_variant_lookup (adapter, "Powered", "b", &powered);
  g_variant_lookup (adapter, "PowerState", "&s", &power_state);

  if (!powered)
    {
      if (g_strcmp0 (power_state, "off-blocked") == 0)
        g_set_error (error, NEARBY_ADVERTISER_ERROR, NEARBY_ADVERTISER_ERROR_RFKILL_BLOCKED,
                     "%s", _("Bluetooth is blocked by airplane mode or a hardware switch"));
      else
        g_set_error (error, NEARBY_ADVERTISER_ERROR, NEARBY_ADVERTISER_ERROR_OFF,
                     "%s", _("Bluetooth is off"));
      return FALSE;
    }

  if (manager == NULL)
    {
      g_set_error (error, NEARBY_ADVERTISER_ERROR, NEARBY_ADVERTISER_ERROR_NOT_SUPPORTED,
                   _("Bluetooth adapter “%s” cannot advertise: it has no LE advertising manager"),
                   name);
      return FALSE;
    }

  if (variant_get_uint (manager, "ActiveInstances", &active)
      && variant_get_uint (manager, "SupportedInstances", &supported)
      && active >= supported)
    {
      g_set_error (error, NEARBY_ADVERTISER_ERROR, NEARBY_ADVERTISER_ERROR_NO_INSTANCES,
                   _("Every advertising instance of %s is taken by other programs "
                     "(%u of %u in use)"),
                   name, active, supported);
      return FALSE;
    }

  return TRUE;
}
