/* nearby-scanner-objects.c: the scanner's view of bluetoothd's objects: who owns org.bluez,
 * its adapters, and the devices under the adapter in use
 *
 * GDBusObjectManagerClient kept a GDBusProxy for every Device1, with every property bluetoothd
 * published cached as GVariants: a few kB for each device in a crowd, most of which nothing
 * read. Here the scanner asks GetManagedObjects itself and follows InterfacesAdded,
 * InterfacesRemoved and the adapters' PropertiesChanged; a device is a small record
 * (nearby-scanner-devices.c), and only the one or two adapters have a proxy, whose cache is
 * kept here from the signals. The Device1 PropertiesChanged are read elsewhere
 * (nearby-scanner-sdbus.c, nearby-scanner-batch.c).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "nearby-scanner"

#include "config.h"

#include "nearby-bluez.h"
#include "nearby-scanner-private.h"

#define OBJECT_MANAGER_IFACE "org.freedesktop.DBus.ObjectManager"
#define PROPERTIES_IFACE     "org.freedesktop.DBus.Properties"

/* Adapters */

/* A proxy whose cache is filled from @properties (a{sv}) and kept up to date by
 * on_adapter_properties_changed(): for the unique name @owner, it neither loads properties
 * nor subscribes to anything, so making it does no I/O. */
static GDBusProxy *
adapter_proxy_new (NearbyScanner *self,
                   const char    *owner,
                   const char    *path,
                   GVariant      *properties)
{
  g_autoptr(GError) error = NULL;
  GDBusProxy *proxy;
  GVariantIter iter;
  const char *name;
  GVariant *value;

  proxy = g_dbus_proxy_new_sync (self->connection,
                                 G_DBUS_PROXY_FLAGS_DO_NOT_LOAD_PROPERTIES |
                                 G_DBUS_PROXY_FLAGS_DO_NOT_CONNECT_SIGNALS |
                                 G_DBUS_PROXY_FLAGS_DO_NOT_AUTO_START,
                                 NULL, owner, path, NEARBY_BLUEZ_ADAPTER_IFACE,
                                 NULL, &error);
  if (proxy == NULL)
    {
      g_debug ("No proxy for the adapter %s: %s", path, error->message);
      return NULL;
    }

  g_variant_iter_init (&iter, properties);
  while (g_variant_iter_next (&iter, "{&sv}", &name, &value))
    {
      g_dbus_proxy_set_cached_property (proxy, name, value);
      g_variant_unref (value);
    }

  return proxy;
}

/* Whether @interfaces had an adapter. */
static gboolean
add_interfaces (NearbyScanner *self,
                const char    *path,
                GVariant      *interfaces)
{
  g_autoptr(GVariant) adapter = g_variant_lookup_value (interfaces, NEARBY_BLUEZ_ADAPTER_IFACE,
                                                        G_VARIANT_TYPE_VARDICT);
  g_autoptr(GVariant) device = g_variant_lookup_value (interfaces, NEARBY_BLUEZ_DEVICE_IFACE,
                                                       G_VARIANT_TYPE_VARDICT);

  if (adapter != NULL && self->name_owner != NULL)
    {
      GDBusProxy *proxy = adapter_proxy_new (self, self->name_owner, path, adapter);

      if (proxy != NULL)
        g_hash_table_replace (self->adapters, g_strdup (path), proxy);
    }
  if (device != NULL)
    _nearby_scanner_device_added (self, path, device);

  return adapter != NULL;
}

GDBusProxy *
_nearby_scanner_find_adapter (NearbyScanner *self)
{
  g_autoptr(GArray) adapters = g_array_new (FALSE, FALSE, sizeof (NearbyBluezAdapter));
  g_autoptr(GPtrArray) proxies = g_ptr_array_new ();
  GHashTableIter iter;
  GDBusProxy *proxy;
  int chosen;

  g_hash_table_iter_init (&iter, self->adapters);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &proxy))
    {
      NearbyBluezAdapter candidate;

      candidate.object_path = g_dbus_proxy_get_object_path (proxy);
      candidate.powered = _nearby_scanner_proxy_get_boolean (proxy, "Powered", FALSE);
      g_array_append_val (adapters, candidate);
      g_ptr_array_add (proxies, proxy);
    }

  chosen = nearby_bluez_choose_adapter ((const NearbyBluezAdapter *) (gpointer) adapters->data,
                                        adapters->len, self->adapter_name);

  return chosen >= 0 ? g_object_ref (g_ptr_array_index (proxies, chosen)) : NULL;
}

/* The devices bluetoothd already knows under the adapter just chosen (ours, or from another
 * client's discovery): from the answer being applied, or asked for again. */

static void
replay_devices (NearbyScanner *self,
                GVariant      *objects)
{
  GVariantIter iter;
  const char *path;
  GVariant *interfaces;

  g_variant_iter_init (&iter, objects);
  while (g_variant_iter_next (&iter, "{&o@a{sa{sv}}}", &path, &interfaces))
    {
      g_autoptr(GVariant) device = g_variant_lookup_value (interfaces, NEARBY_BLUEZ_DEVICE_IFACE,
                                                           G_VARIANT_TYPE_VARDICT);

      /* One already heard of since is as new as this answer, or newer. */
      if (device != NULL)
        _nearby_scanner_device_added (self, path, device);
      g_variant_unref (interfaces);
    }
}

static void
replay_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(GVariant) reply = NULL;
  g_autoptr(GVariant) objects = NULL;
  g_autoptr(GError) error = NULL;
  NearbyScanner *self;

  reply = g_dbus_connection_call_finish (G_DBUS_CONNECTION (object), result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  self = NEARBY_SCANNER (user_data);
  if (reply == NULL)
    {
      g_debug ("Cannot ask bluetoothd for its devices: %s", error->message);
      return;
    }

  _nearby_scanner_batch_flush (self);
  objects = g_variant_get_child_value (reply, 0);
  replay_devices (self, objects);
}

void
_nearby_scanner_replay_devices (NearbyScanner *self)
{
  if (self->known_objects != NULL)
    {
      replay_devices (self, self->known_objects);
      return;
    }

  g_cancellable_cancel (self->replay_cancellable);
  g_clear_object (&self->replay_cancellable);
  self->replay_cancellable = g_cancellable_new ();
  g_dbus_connection_call (self->connection, self->owner, "/", OBJECT_MANAGER_IFACE,
                          "GetManagedObjects", NULL, G_VARIANT_TYPE ("(a{oa{sa{sv}}})"),
                          G_DBUS_CALL_FLAGS_NO_AUTO_START, SCANNER_CALL_TIMEOUT_MS,
                          self->replay_cancellable, replay_cb, self);
}

void
_nearby_scanner_cancel_replay (NearbyScanner *self)
{
  g_cancellable_cancel (self->replay_cancellable);
  g_clear_object (&self->replay_cancellable);
}

/* Signals */

static gboolean
from_owner (NearbyScanner *self,
            const char    *sender)
{
  return self->name_owner != NULL && g_strcmp0 (sender, self->name_owner) == 0;
}

static void
on_interfaces_added (GDBusConnection *connection,
                     const char      *sender,
                     const char      *object_path,
                     const char      *interface_name,
                     const char      *signal_name,
                     GVariant        *parameters,
                     gpointer         user_data)
{
  NearbyScanner *self = user_data;
  g_autoptr(GVariant) interfaces = NULL;
  const char *path;

  if (!from_owner (self, sender) || !self->objects_ready
      || !g_variant_is_of_type (parameters, G_VARIANT_TYPE ("(oa{sa{sv}})")))
    return;

  g_variant_get (parameters, "(&o@a{sa{sv}})", &path, &interfaces);

  /* Signals taken so far apply after it: some may be the new device's first. */
  if (add_interfaces (self, path, interfaces) && self->adapter == NULL)
    _nearby_scanner_refresh (self);
}

static void
on_interfaces_removed (GDBusConnection *connection,
                       const char      *sender,
                       const char      *object_path,
                       const char      *interface_name,
                       const char      *signal_name,
                       GVariant        *parameters,
                       gpointer         user_data)
{
  NearbyScanner *self = user_data;
  g_autofree const char **interfaces = NULL;
  const char *path;

  if (!from_owner (self, sender) || !self->objects_ready
      || !g_variant_is_of_type (parameters, G_VARIANT_TYPE ("(oas)")))
    return;

  g_variant_get (parameters, "(&o^a&s)", &path, &interfaces);

  _nearby_scanner_batch_flush (self);
  if (g_strv_contains (interfaces, NEARBY_BLUEZ_DEVICE_IFACE))
    {
      g_hash_table_remove (self->devices, path);
      _nearby_scanner_batch_forget (self, path);
    }
  if (g_strv_contains (interfaces, NEARBY_BLUEZ_ADAPTER_IFACE))
    {
      gboolean in_use = self->adapter != NULL
                        && g_str_equal (path, g_dbus_proxy_get_object_path (self->adapter));

      g_hash_table_remove (self->adapters, path);
      if (in_use)
        {
          g_debug ("Adapter %s went away", path);
          _nearby_scanner_drop_adapter (self);
          _nearby_scanner_refresh (self);
        }
    }
}

static void
on_adapter_properties_changed (GDBusConnection *connection,
                               const char      *sender,
                               const char      *object_path,
                               const char      *interface_name,
                               const char      *signal_name,
                               GVariant        *parameters,
                               gpointer         user_data)
{
  NearbyScanner *self = user_data;
  g_autoptr(GVariant) changed = NULL;
  g_autofree const char **invalidated = NULL;
  GDBusProxy *proxy;
  const char *interface;
  GVariantIter iter;
  const char *name;
  GVariant *value;

  if (!from_owner (self, sender)
      || !g_variant_is_of_type (parameters, G_VARIANT_TYPE ("(sa{sv}as)")))
    return;
  g_variant_get (parameters, "(&s@a{sv}^a&s)", &interface, &changed, &invalidated);
  proxy = g_hash_table_lookup (self->adapters, object_path);
  if (proxy == NULL || !g_str_equal (interface, NEARBY_BLUEZ_ADAPTER_IFACE))
    return;

  g_variant_iter_init (&iter, changed);
  while (g_variant_iter_next (&iter, "{&sv}", &name, &value))
    {
      g_dbus_proxy_set_cached_property (proxy, name, value);
      g_variant_unref (value);
    }
  for (guint i = 0; invalidated[i] != NULL; i++)
    g_dbus_proxy_set_cached_property (proxy, invalidated[i], NULL);

  if (proxy == self->adapter)
    {
      _nearby_scanner_batch_flush (self);
      _nearby_scanner_adapter_changed (self, changed);
    }
}

/* Who owns org.bluez */

static void
objects_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(GVariant) reply = NULL;
  g_autoptr(GVariant) objects = NULL;
  g_autoptr(GError) error = NULL;
  NearbyScanner *self;
  GVariantIter iter;
  const char *path;
  GVariant *interfaces;

  reply = g_dbus_connection_call_finish (G_DBUS_CONNECTION (object), result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  self = NEARBY_SCANNER (user_data);
  if (reply == NULL)
    {
      /* A bluetoothd that does not answer publishes nothing we can use: no adapter. */
      g_debug ("Cannot ask bluetoothd for its objects: %s", error->message);
      objects = g_variant_ref_sink (g_variant_new_array (G_VARIANT_TYPE ("{oa{sa{sv}}}"),
                                                         NULL, 0));
    }
  else
    {
      objects = g_variant_get_child_value (reply, 0);
    }

  /* The adapters first: the devices are taken once one of them is in use. */
  g_variant_iter_init (&iter, objects);
  while (g_variant_iter_next (&iter, "{&o@a{sa{sv}}}", &path, &interfaces))
    {
      g_autoptr(GVariant) adapter = g_variant_lookup_value (interfaces,
                                                            NEARBY_BLUEZ_ADAPTER_IFACE,
                                                            G_VARIANT_TYPE_VARDICT);
      GDBusProxy *proxy = adapter != NULL
                          ? adapter_proxy_new (self, self->name_owner, path, adapter)
                          : NULL;

      if (proxy != NULL)
        g_hash_table_replace (self->adapters, g_strdup (path), proxy);
      g_variant_unref (interfaces);
    }

  self->objects_ready = TRUE;
  self->known_objects = objects;
  _nearby_scanner_refresh (self);
  self->known_objects = NULL;
}

static void
forget_objects (NearbyScanner *self)
{
  g_cancellable_cancel (self->objects_cancellable);
  g_clear_object (&self->objects_cancellable);
  self->objects_ready = FALSE;
  g_hash_table_remove_all (self->adapters);
}

static void
on_name_appeared (GDBusConnection *connection,
                  const char      *name,
                  const char      *name_owner,
                  gpointer         user_data)
{
  NearbyScanner *self = user_data;

  g_debug ("org.bluez is now owned by %s", name_owner);

  /* A new bluetoothd knows nothing of our session or filter. */
  if (g_strcmp0 (name_owner, self->owner) != 0)
    _nearby_scanner_drop_adapter (self);
  forget_objects (self);
  g_free (self->name_owner);
  self->name_owner = g_strdup (name_owner);
  self->name_known = TRUE;

  self->objects_cancellable = g_cancellable_new ();
  g_dbus_connection_call (connection, name_owner, "/", OBJECT_MANAGER_IFACE,
                          "GetManagedObjects", NULL, G_VARIANT_TYPE ("(a{oa{sa{sv}}})"),
                          G_DBUS_CALL_FLAGS_NO_AUTO_START, SCANNER_CALL_TIMEOUT_MS,
                          self->objects_cancellable, objects_cb, self);
}

static void
on_name_vanished (GDBusConnection *connection,
                  const char      *name,
                  gpointer         user_data)
{
  NearbyScanner *self = user_data;

  g_debug ("org.bluez is now owned by nobody");

  _nearby_scanner_drop_adapter (self);
  forget_objects (self);
  g_clear_pointer (&self->name_owner, g_free);
  self->name_known = TRUE;
  _nearby_scanner_refresh (self);
}

void
_nearby_scanner_objects_start (NearbyScanner *self)
{
  self->signal_ids[0] =
    g_dbus_connection_signal_subscribe (self->connection, NEARBY_BLUEZ_BUS_NAME,
                                        OBJECT_MANAGER_IFACE, "InterfacesAdded", NULL, NULL,
                                        G_DBUS_SIGNAL_FLAGS_NONE, on_interfaces_added,
                                        self, NULL);
  self->signal_ids[1] =
    g_dbus_connection_signal_subscribe (self->connection, NEARBY_BLUEZ_BUS_NAME,
                                        OBJECT_MANAGER_IFACE, "InterfacesRemoved", NULL, NULL,
                                        G_DBUS_SIGNAL_FLAGS_NONE, on_interfaces_removed,
                                        self, NULL);
  self->signal_ids[2] =
    g_dbus_connection_signal_subscribe (self->connection, NEARBY_BLUEZ_BUS_NAME,
                                        PROPERTIES_IFACE, "PropertiesChanged", NULL,
                                        NEARBY_BLUEZ_ADAPTER_IFACE, G_DBUS_SIGNAL_FLAGS_NONE,
                                        on_adapter_properties_changed, self, NULL);
}

void
_nearby_scanner_signals_ready (NearbyScanner *self)
{
  /* Only now are bluetoothd's objects asked for: the Device1 signals that follow the answer
   * are not missed. */
  self->signals_ready = TRUE;
  if (self->name_watch_id == 0)
    self->name_watch_id =
      g_bus_watch_name_on_connection (self->connection, NEARBY_BLUEZ_BUS_NAME,
                                      G_BUS_NAME_WATCHER_FLAGS_NONE, on_name_appeared,
                                      on_name_vanished, self, NULL);
}

void
_nearby_scanner_objects_stop (NearbyScanner *self)
{
  for (guint i = 0; i < G_N_ELEMENTS (self->signal_ids); i++)
    {
      if (self->signal_ids[i] != 0)
        g_dbus_connection_signal_unsubscribe (self->connection, self->signal_ids[i]);
      self->signal_ids[i] = 0;
    }
  if (self->name_watch_id != 0)
    g_bus_unwatch_name (self->name_watch_id);
  self->name_watch_id = 0;
  _nearby_scanner_cancel_replay (self);
  forget_objects (self);
  g_clear_pointer (&self->name_owner, g_free);
}
