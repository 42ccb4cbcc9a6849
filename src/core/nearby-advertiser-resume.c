/* nearby-advertiser-resume.c: registering the advertisement again after BlueZ lets go of it,
 * when bluetoothd comes back or an adapter that can advertise appears
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "nearby-advertiser"

#include "config.h"

#include "nearby-advertiser-private.h"
#include "nearby-bluez.h"

static void
on_bluez_vanished (GDBusConnection *connection,
                   const char      *name,
                   gpointer         user_data)
{
  NearbyAdvertiser *self = user_data;

  /* bluetoothd forgets every advertisement when it stops. */
  if (self->registered)
    {
      g_debug ("%s: bluetoothd went away", self->object_path);
      _nearby_advertiser_released (self);
    }
}

static void
resume_register_cb (GObject      *object,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  NearbyAdvertiser *self;
  g_autoptr(GVariant) reply = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *remote = NULL;

  reply = g_dbus_connection_call_finish (G_DBUS_CONNECTION (object), result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  self = user_data;
  g_clear_object (&self->resume_cancellable);

  /* AlreadyExists: an earlier attempt, cancelled on our side, went through on bluetoothd's. */
  remote = error != NULL ? g_dbus_error_get_remote_error (error) : NULL;
  if (error != NULL && g_strcmp0 (remote, "org.bluez.Error.AlreadyExists") != 0)
    {
      g_debug ("Registering %s again: %s", self->object_path, error->message);
      return;
    }

  if (self->state != NEARBY_ADVERTISER_STATE_RELEASED)
    return;

  self->registered = TRUE;
  _nearby_advertiser_set_state (self, NEARBY_ADVERTISER_STATE_BROADCASTING);
}

static void
resume_managed_objects_cb (GObject      *object,
                           GAsyncResult *result,
                           gpointer      user_data)
{
  NearbyAdvertiser *self;
  g_autoptr(GVariant) reply = NULL;
  g_autoptr(GVariant) objects = NULL;
  g_autoptr(GVariant) interfaces = NULL;
  g_autoptr(GError) error = NULL;

  reply = g_dbus_connection_call_finish (G_DBUS_CONNECTION (object), result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  self = user_data;
  if (error == NULL)
    {
      objects = g_variant_get_child_value (reply, 0);
      interfaces = _nearby_advertiser_choose_adapter (self, objects, &error);
    }
  if (interfaces == NULL || !_nearby_advertiser_check_adapter (self, interfaces, &error))
    {
      /* Adapters often show up after bluetoothd takes its name: InterfacesAdded tries again. */
      g_debug ("Not registering %s again yet: %s", self->object_path, error->message);
      g_clear_object (&self->resume_cancellable);
      return;
    }

  _nearby_advertiser_call_register (self, self->resume_cancellable, resume_register_cb, self);
}

static void
try_resume (NearbyAdvertiser *self)
{
  if (self->state != NEARBY_ADVERTISER_STATE_RELEASED || self->registration_id == 0)
    return;

  g_cancellable_cancel (self->resume_cancellable);
  g_clear_object (&self->resume_cancellable);
  self->resume_cancellable = g_cancellable_new ();

  _nearby_advertiser_call_get_objects (self, self->resume_cancellable, resume_managed_objects_cb,
                                       self);
}

static void
on_bluez_appeared (GDBusConnection *connection,
                   const char      *name,
                   const char      *owner,
                   gpointer         user_data)
{
  try_resume (user_data);
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
  NearbyAdvertiser *self = user_data;
  g_autoptr(GVariant) interfaces = NULL;
  g_autoptr(GVariant) manager = NULL;

  if (self->state != NEARBY_ADVERTISER_STATE_RELEASED
      || !g_variant_is_of_type (parameters, G_VARIANT_TYPE ("(oa{sa{sv}})")))
    return;

  interfaces = g_variant_get_child_value (parameters, 1);
  manager = g_variant_lookup_value (interfaces, NEARBY_BLUEZ_ADVERTISING_MANAGER_IFACE, NULL);
  if (manager != NULL)
    try_resume (self);
}

void
_nearby_advertiser_watch_bluez (NearbyAdvertiser *self)
{
  self->bluez_watch_id = g_bus_watch_name_on_connection (self->bus, NEARBY_BLUEZ_BUS_NAME,
                                                         G_BUS_NAME_WATCHER_FLAGS_NONE,
                                                         on_bluez_appeared, on_bluez_vanished,
                                                         self, NULL);
  self->interfaces_added_id =
    g_dbus_connection_signal_subscribe (self->bus, NEARBY_BLUEZ_BUS_NAME,
                                        NEARBY_BLUEZ_OBJECT_MANAGER_IFACE,
                                        "InterfacesAdded", "/", NULL,
                                        G_DBUS_SIGNAL_FLAGS_NONE, on_interfaces_added,
                                        self, NULL);
}

void
_nearby_advertiser_unwatch_bluez (NearbyAdvertiser *self)
{
  g_clear_handle_id (&self->bluez_watch_id, g_bus_unwatch_name);
  g_cancellable_cancel (self->resume_cancellable);
  g_clear_object (&self->resume_cancellable);
  if (self->interfaces_added_id != 0 && self->bus != NULL)
    g_dbus_connection_signal_unsubscribe (self->bus, self->interfaces_added_id);
  self->interfaces_added_id = 0;
}
