/* nearby-advertiser.c: broadcast a URL from this computer through BlueZ
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "nearby-advertiser"

#include "config.h"

#include <errno.h>

#include <glib/gi18n.h>

#include "nearby-advertiser-private.h"
#include "nearby-bluez.h"
#include "nearby-frame-error.h"

#define OBJECT_PATH_PREFIX         "/io/github/nearbyweb/Nearby/advertisement"

#define UUID_EDDYSTONE_128 "0000feaa-0000-1000-8000-00805f9b34fb"
#define UUID_URIBEACON_128 "0000fed8-0000-1000-8000-00805f9b34fb"

static const char advertisement_xml[] =
  "<node>"
  "  <interface name='" NEARBY_BLUEZ_ADVERTISEMENT_IFACE "'>"
  "    <method name='Release'/>"
  "    <property name='Type' type='s' access='read'/>"
  "    <property name='ServiceUUIDs' type='as' access='read'/>"
  "    <property name='ServiceData' type='a{sv}' access='read'/>"
  "  </interface>"
  "</node>";

G_DEFINE_FINAL_TYPE (NearbyAdvertiser, nearby_advertiser, G_TYPE_OBJECT)

G_DEFINE_QUARK (nearby-advertiser-error-quark, nearby_advertiser_error)

enum {
  PROP_0,
  PROP_URL,
  PROP_PROTOCOL,
  PROP_TX_POWER,
  PROP_ADAPTER,
  PROP_STATE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static GDBusNodeInfo *
advertisement_node_info (void)
{
  static GDBusNodeInfo *info;

  if (g_once_init_enter (&info))
    {
      GDBusNodeInfo *parsed = g_dbus_node_info_new_for_xml (advertisement_xml, NULL);

      g_assert (parsed != NULL);
      g_once_init_leave (&info, parsed);
    }

  return info;
}

const char *
nearby_advertiser_state_to_string (NearbyAdvertiserState state)
{
  switch (state)
    {
    case NEARBY_ADVERTISER_STATE_IDLE:
      return "idle";
    case NEARBY_ADVERTISER_STATE_STARTING:
      return "starting";
    case NEARBY_ADVERTISER_STATE_BROADCASTING:
      return "broadcasting";
    case NEARBY_ADVERTISER_STATE_STOPPING:
      return "stopping";
    case NEARBY_ADVERTISER_STATE_STOPPED:
      return "stopped";
    case NEARBY_ADVERTISER_STATE_RELEASED:
      return "released";
    case NEARBY_ADVERTISER_STATE_FAILED:
      return "failed";
    default:
      return "unknown";
    }
}

void
_nearby_advertiser_set_state (NearbyAdvertiser      *self,
                              NearbyAdvertiserState  state)
{
  if (self->state == state)
    return;

  g_debug ("%s: %s -> %s", self->object_path, nearby_advertiser_state_to_string (self->state),
           nearby_advertiser_state_to_string (state));
  self->state = state;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STATE]);
}

/* The calls to bluetoothd */

void
_nearby_advertiser_call_get_objects (NearbyAdvertiser    *self,
                                     GCancellable        *cancellable,
                                     GAsyncReadyCallback  callback,
                                     gpointer             user_data)
{
  g_dbus_connection_call (self->bus, NEARBY_BLUEZ_BUS_NAME, "/", NEARBY_BLUEZ_OBJECT_MANAGER_IFACE,
                          "GetManagedObjects", NULL, G_VARIANT_TYPE ("(a{oa{sa{sv}}})"),
                          G_DBUS_CALL_FLAGS_NO_AUTO_START, ADVERTISER_CALL_TIMEOUT_MS,
                          cancellable, callback, user_data);
}

void
_nearby_advertiser_call_register (NearbyAdvertiser    *self,
                                  GCancellable        *cancellable,
                                  GAsyncReadyCallback  callback,
                                  gpointer             user_data)
{
  g_dbus_connection_call (self->bus, NEARBY_BLUEZ_BUS_NAME, self->adapter_path,
                          NEARBY_BLUEZ_ADVERTISING_MANAGER_IFACE, "RegisterAdvertisement",
                          g_variant_new ("(o@a{sv})", self->object_path,
                                         g_variant_new_array (G_VARIANT_TYPE ("{sv}"), NULL, 0)),
                          G_VARIANT_TYPE_UNIT, G_DBUS_CALL_FLAGS_NO_AUTO_START,
                          ADVERTISER_CALL_TIMEOUT_MS,
                          cancellable, callback, user_data);
}

/* @callback may be NULL: the message still goes out. */
static void
call_unregister (NearbyAdvertiser    *self,
                 GCancellable        *cancellable,
                 GAsyncReadyCallback  callback,
                 gpointer             user_data)
{
  g_dbus_connection_call (self->bus, NEARBY_BLUEZ_BUS_NAME, self->adapter_path,
                          NEARBY_BLUEZ_ADVERTISING_MANAGER_IFACE, "UnregisterAdvertisement",
                          g_variant_new ("(o)", self->object_path), NULL,
                          G_DBUS_CALL_FLAGS_NO_AUTO_START, ADVERTISER_CALL_TIMEOUT_MS,
                          cancellable, callback, user_data);
}

/* The exported object */

static void
unexport (NearbyAdvertiser *self)
{
  if (self->registration_id != 0 && self->bus != NULL)
    g_dbus_connection_unregister_object (self->bus, self->registration_id);
  self->registration_id = 0;
  _nearby_advertiser_unwatch_bluez (self);
}

/* BlueZ let go of the advertisement by itself. The object stays exported: when bluetoothd
 * comes back (it releases every advertisement as it shuts down), it is registered again. */
void
_nearby_advertiser_released (NearbyAdvertiser *self)
{
  gboolean was_registered = self->registered;

  self->registered = FALSE;
  if (self->state == NEARBY_ADVERTISER_STATE_STARTING)
    self->released_while_starting = TRUE;
  if (was_registered && self->state == NEARBY_ADVERTISER_STATE_BROADCASTING)
    _nearby_advertiser_set_state (self, NEARBY_ADVERTISER_STATE_RELEASED);
}

static void
advertisement_method_call (GDBusConnection       *connection,
                           const char            *sender,
                           const char            *object_path,
                           const char            *interface_name,
                           const char            *method_name,
                           GVariant              *parameters,
                           GDBusMethodInvocation *invocation,
                           gpointer               user_data)
{
  NearbyAdvertiser *self = user_data;

  if (g_strcmp0 (method_name, "Release") != 0)
    {
      g_dbus_method_invocation_return_dbus_error (invocation,
                                                  "org.freedesktop.DBus.Error.UnknownMethod",
                                                  "Unknown method");
      return;
    }

  g_debug ("%s: released by %s", self->object_path, sender);
  g_dbus_method_invocation_return_value (invocation, NULL);
  _nearby_advertiser_released (self);
}

static GVariant *
advertisement_get_property (GDBusConnection  *connection,
                            const char       *sender,
                            const char       *object_path,
                            const char       *interface_name,
                            const char       *property_name,
                            GError          **error,
                            gpointer          user_data)
{
  NearbyAdvertiser *self = user_data;
  const char *uuid = nearby_advertiser_get_service_uuid128 (self);

  if (g_str_equal (property_name, "Type"))
    return g_variant_new_string ("broadcast");

  if (g_str_equal (property_name, "ServiceUUIDs"))
    {
      const char *uuids[] = { uuid, NULL };

      return g_variant_new_strv (uuids, -1);
    }

  if (g_str_equal (property_name, "ServiceData") && self->service_data != NULL)
    {
      GVariantBuilder builder;
      GVariant *bytes;

      bytes = g_variant_new_from_bytes (G_VARIANT_TYPE_BYTESTRING, self->service_data, TRUE);
      g_variant_builder_init (&builder, G_VARIANT_TYPE ("a{sv}"));
      g_variant_builder_add (&builder, "{sv}", uuid, bytes);

      return g_variant_builder_end (&builder);
    }

  g_set_error (error, G_DBUS_ERROR, G_DBUS_ERROR_UNKNOWN_PROPERTY,
               "No property %s", property_name);
  return NULL;
}

static const GDBusInterfaceVTable advertisement_vtable = {
  advertisement_method_call,
  advertisement_get_property,
  NULL,
  { 0 }
};

/* Starting */

static void
fail_start (GTask  *task,
            GError *error)
{
  NearbyAdvertiser *self = g_task_get_source_object (task);

  unexport (self);
  _nearby_advertiser_set_state (self, NEARBY_ADVERTISER_STATE_FAILED);
  g_task_return_error (task, error);
  g_object_unref (task);
}

static void
unregister_after_cancel_cb (GObject      *object,
                            GAsyncResult *result,
                            gpointer      user_data)
{
  GTask *task = user_data;
  NearbyAdvertiser *self = g_task_get_source_object (task);
  g_autoptr(GVariant) reply = NULL;

  reply = g_dbus_connection_call_finish (G_DBUS_CONNECTION (object), result, NULL);
  unexport (self);
  _nearby_advertiser_set_state (self, NEARBY_ADVERTISER_STATE_FAILED);
  g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CANCELLED, "%s",
                           g_strerror (ECANCELED));
  g_object_unref (task);
}

static void
register_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  GTask *task = user_data;
  NearbyAdvertiser *self = g_task_get_source_object (task);
  g_autoptr(GVariant) reply = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *adapter_name = _nearby_advertiser_dup_adapter_name (self);

  reply = g_dbus_connection_call_finish (G_DBUS_CONNECTION (object), result, &error);

  if (error != NULL)
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          /* bluetoothd may have taken it before the cancellation: make sure it lets go. */
          call_unregister (self, NULL, NULL, NULL);
          fail_start (task, g_steal_pointer (&error));
          return;
        }

      g_debug ("RegisterAdvertisement on %s: %s", self->adapter_path, error->message);
      fail_start (task, _nearby_advertiser_error_from_bluez (error, adapter_name));
      return;
    }

  if (g_cancellable_is_cancelled (g_task_get_cancellable (task)))
    {
      /* Cancelled while bluetoothd was taking it: have it let go, and only then report, so
       * that a process exiting on Ctrl+C does not leave the URL on the air. */
      call_unregister (self, NULL, unregister_after_cancel_cb, task);
      return;
    }

  self->registered = TRUE;
  _nearby_advertiser_set_state (self, NEARBY_ADVERTISER_STATE_BROADCASTING);
  /* Release can overtake this reply. */
  if (self->released_while_starting)
    _nearby_advertiser_released (self);
  g_task_return_boolean (task, TRUE);
  g_object_unref (task);
}

static void
managed_objects_cb (GObject      *object,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  GTask *task = user_data;
  NearbyAdvertiser *self = g_task_get_source_object (task);
  g_autoptr(GVariant) reply = NULL;
  g_autoptr(GVariant) objects = NULL;
  g_autoptr(GVariant) interfaces = NULL;
  g_autoptr(GError) error = NULL;

  reply = g_dbus_connection_call_finish (G_DBUS_CONNECTION (object), result, &error);
  if (error != NULL)
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        fail_start (task, g_steal_pointer (&error));
      else
        fail_start (task, _nearby_advertiser_error_from_bluez (error, self->adapter != NULL
                                                                      ? self->adapter : "?"));
      return;
    }

  objects = g_variant_get_child_value (reply, 0);
  interfaces = _nearby_advertiser_choose_adapter (self, objects, &error);
  if (interfaces == NULL || !_nearby_advertiser_check_adapter (self, interfaces, &error))
    {
      fail_start (task, g_steal_pointer (&error));
      return;
    }

  self->registration_id =
    g_dbus_connection_register_object (self->bus, self->object_path,
                                       advertisement_node_info ()->interfaces[0],
                                       &advertisement_vtable, self, NULL, &error);
  if (self->registration_id == 0)
    {
      fail_start (task, g_error_new (NEARBY_ADVERTISER_ERROR, NEARBY_ADVERTISER_ERROR_FAILED,
                                     _("Cannot publish the advertisement: %s"), error->message));
      return;
    }

  _nearby_advertiser_watch_bluez (self);

  /* Not cancelled half-way: register_cb undoes it once it is known. */
  _nearby_advertiser_call_register (self, NULL, register_cb, task);
}

static void
bus_cb (GObject      *object,
        GAsyncResult *result,
        gpointer      user_data)
{
  GTask *task = user_data;
  NearbyAdvertiser *self = g_task_get_source_object (task);
  g_autoptr(GError) error = NULL;

  self->bus = g_bus_get_finish (result, &error);
  if (self->bus == NULL)
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        fail_start (task, g_steal_pointer (&error));
      else
        fail_start (task, g_error_new (NEARBY_ADVERTISER_ERROR, NEARBY_ADVERTISER_ERROR_NO_SERVICE,
                                       _("Cannot reach the system bus: %s"), error->message));
      return;
    }

  _nearby_advertiser_call_get_objects (self, g_task_get_cancellable (task), managed_objects_cb,
                                       task);
}

void
nearby_advertiser_start_async (NearbyAdvertiser    *self,
                               GCancellable        *cancellable,
                               GAsyncReadyCallback  callback,
                               gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GError) error = NULL;

  g_return_if_fail (NEARBY_IS_ADVERTISER (self));
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, nearby_advertiser_start_async);

  if (self->state != NEARBY_ADVERTISER_STATE_IDLE)
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_BUSY,
                               "The advertiser was already started");
      return;
    }

  g_clear_pointer (&self->service_data, g_bytes_unref);
  self->service_data = nearby_advertiser_dup_service_data (self, &error);
  if (self->service_data == NULL)
    {
      _nearby_advertiser_set_state (self, NEARBY_ADVERTISER_STATE_FAILED);
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  _nearby_advertiser_set_state (self, NEARBY_ADVERTISER_STATE_STARTING);
  g_bus_get (G_BUS_TYPE_SYSTEM, cancellable, bus_cb, g_steal_pointer (&task));
}

gboolean
nearby_advertiser_start_finish (NearbyAdvertiser  *self,
                                GAsyncResult      *result,
                                GError           **error)
{
  g_return_val_if_fail (NEARBY_IS_ADVERTISER (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/* Stopping */

static void
unregister_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  NearbyAdvertiser *self = g_task_get_source_object (task);
  g_autoptr(GVariant) reply = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *remote = NULL;

  reply = g_dbus_connection_call_finish (G_DBUS_CONNECTION (object), result, &error);

  self->registered = FALSE;
  unexport (self);
  _nearby_advertiser_set_state (self, NEARBY_ADVERTISER_STATE_STOPPED);

  if (error == NULL)
    {
      g_task_return_boolean (task, TRUE);
      return;
    }

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  /* Gone already (released, or bluetoothd restarted): what stop wanted. */
  remote = g_dbus_error_get_remote_error (error);
  if (g_strcmp0 (remote, "org.bluez.Error.DoesNotExist") == 0
      || g_error_matches (error, G_DBUS_ERROR, G_DBUS_ERROR_SERVICE_UNKNOWN)
      || g_error_matches (error, G_DBUS_ERROR, G_DBUS_ERROR_NAME_HAS_NO_OWNER))
    {
      g_debug ("UnregisterAdvertisement: %s", error->message);
      g_task_return_boolean (task, TRUE);
      return;
    }

  g_dbus_error_strip_remote_error (error);
  g_task_return_new_error (task, NEARBY_ADVERTISER_ERROR, NEARBY_ADVERTISER_ERROR_FAILED,
                           _("Could not stop broadcasting: %s"), error->message);
}

void
nearby_advertiser_stop_async (NearbyAdvertiser    *self,
                              GCancellable        *cancellable,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (NEARBY_IS_ADVERTISER (self));
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, nearby_advertiser_stop_async);

  if (self->state == NEARBY_ADVERTISER_STATE_STARTING)
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_PENDING,
                               "Still starting: cancel the start instead");
      return;
    }

  /* A registration in flight may have gone through: unregister to be sure. */
  if (!self->registered && self->resume_cancellable == NULL)
    {
      unexport (self);
      if (self->state == NEARBY_ADVERTISER_STATE_IDLE
          || self->state == NEARBY_ADVERTISER_STATE_RELEASED)
        _nearby_advertiser_set_state (self, NEARBY_ADVERTISER_STATE_STOPPED);
      g_task_return_boolean (task, TRUE);
      return;
    }

  _nearby_advertiser_set_state (self, NEARBY_ADVERTISER_STATE_STOPPING);
  call_unregister (self, cancellable, unregister_cb, g_steal_pointer (&task));
}

gboolean
nearby_advertiser_stop_finish (NearbyAdvertiser  *self,
                               GAsyncResult      *result,
                               GError           **error)
{
  g_return_val_if_fail (NEARBY_IS_ADVERTISER (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/* Encoding */

GBytes *
nearby_advertiser_dup_service_data (NearbyAdvertiser  *self,
                                    GError           **error)
{
  guint8 out[NEARBY_FRAME_URL_SERVICE_DATA_MAX];
  size_t out_len = 0;
  NearbyFrame status;
  NearbyFrameError result;
  const char *format;

  g_return_val_if_fail (NEARBY_IS_ADVERTISER (self), NULL);

  result = nearby_frame_encode_url (self->protocol, self->url, 0, (int8_t) self->tx_power,
                                    out, &out_len, &status);
  format = self->protocol == NEARBY_PROTOCOL_URIBEACON ? "UriBeacon" : "Eddystone-URL";

  if (result == NEARBY_FRAME_ERROR_URL_TOO_LONG && status.error_length > status.error_limit)
    {
      gsize excess = status.error_length - status.error_limit;

      g_set_error (error, NEARBY_ADVERTISER_ERROR, NEARBY_ADVERTISER_ERROR_URL_TOO_LONG,
                   g_dngettext (GETTEXT_PACKAGE,
                                "%s is too long by %zu byte for %s (it encodes to %zu bytes, "
                                "at most %zu fit): use a URL shortener or a shorter host name",
                                "%s is too long by %zu bytes for %s (it encodes to %zu bytes, "
                                "at most %zu fit): use a URL shortener or a shorter host name",
                                excess),
                   self->url, (size_t) excess, format, (size_t) status.error_length,
                   (size_t) status.error_limit);
      return NULL;
    }

  if (result != NEARBY_FRAME_OK)
    {
      g_autofree char *reason = nearby_frame_describe_error (&status);

      g_set_error (error, NEARBY_ADVERTISER_ERROR, NEARBY_ADVERTISER_ERROR_INVALID_URL,
                   _("%s cannot be broadcast as %s: %s"), self->url, format, reason);
      return NULL;
    }

  return g_bytes_new (out, out_len);
}

/* GObject */

NearbyAdvertiser *
nearby_advertiser_new (const char     *url,
                       NearbyProtocol  protocol,
                       int             tx_power,
                       const char     *adapter)
{
  return g_object_new (NEARBY_TYPE_ADVERTISER,
                       "url", url,
                       "protocol", protocol,
                       "tx-power", tx_power,
                       "adapter", adapter,
                       NULL);
}

const char *
nearby_advertiser_get_url (NearbyAdvertiser *self)
{
  g_return_val_if_fail (NEARBY_IS_ADVERTISER (self), NULL);
  return self->url;
}

NearbyProtocol
nearby_advertiser_get_protocol (NearbyAdvertiser *self)
{
  g_return_val_if_fail (NEARBY_IS_ADVERTISER (self), NEARBY_PROTOCOL_NONE);
  return self->protocol;
}

int
nearby_advertiser_get_tx_power (NearbyAdvertiser *self)
{
  g_return_val_if_fail (NEARBY_IS_ADVERTISER (self), 0);
  return self->tx_power;
}

const char *
nearby_advertiser_get_adapter (NearbyAdvertiser *self)
{
  g_return_val_if_fail (NEARBY_IS_ADVERTISER (self), NULL);
  return self->adapter;
}

NearbyAdvertiserState
nearby_advertiser_get_state (NearbyAdvertiser *self)
{
  g_return_val_if_fail (NEARBY_IS_ADVERTISER (self), NEARBY_ADVERTISER_STATE_FAILED);
  return self->state;
}

const char *
nearby_advertiser_get_adapter_path (NearbyAdvertiser *self)
{
  g_return_val_if_fail (NEARBY_IS_ADVERTISER (self), NULL);
  return self->adapter_path;
}

const char *
nearby_advertiser_get_object_path (NearbyAdvertiser *self)
{
  g_return_val_if_fail (NEARBY_IS_ADVERTISER (self), NULL);
  return self->object_path;
}

guint16
nearby_advertiser_get_service_uuid (NearbyAdvertiser *self)
{
  g_return_val_if_fail (NEARBY_IS_ADVERTISER (self), 0);
  return self->protocol == NEARBY_PROTOCOL_URIBEACON ? NEARBY_UUID16_URIBEACON
                                                     : NEARBY_UUID16_EDDYSTONE;
}

const char *
nearby_advertiser_get_service_uuid128 (NearbyAdvertiser *self)
{
  g_return_val_if_fail (NEARBY_IS_ADVERTISER (self), NULL);
  return self->protocol == NEARBY_PROTOCOL_URIBEACON ? UUID_URIBEACON_128 : UUID_EDDYSTONE_128;
}

static void
nearby_advertiser_dispose (GObject *object)
{
  NearbyAdvertiser *self = NEARBY_ADVERTISER (object);

  /* Nobody waits for the answer; the message still goes out on the shared connection. */
  if ((self->registered || self->resume_cancellable != NULL) && self->bus != NULL)
    call_unregister (self, NULL, NULL, NULL);
  self->registered = FALSE;
  unexport (self);
  g_clear_object (&self->bus);

  G_OBJECT_CLASS (nearby_advertiser_parent_class)->dispose (object);
}

static void
nearby_advertiser_finalize (GObject *object)
{
  NearbyAdvertiser *self = NEARBY_ADVERTISER (object);

  g_clear_pointer (&self->url, g_free);
  g_clear_pointer (&self->adapter, g_free);
  g_clear_pointer (&self->adapter_path, g_free);
  g_clear_pointer (&self->object_path, g_free);
  g_clear_pointer (&self->service_data, g_bytes_unref);

  G_OBJECT_CLASS (nearby_advertiser_parent_class)->finalize (object);
}

static void
nearby_advertiser_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  NearbyAdvertiser *self = NEARBY_ADVERTISER (object);

  switch (prop_id)
    {
    case PROP_URL:
      g_value_set_string (value, self->url);
      break;

    case PROP_PROTOCOL:
      g_value_set_int (value, self->protocol);
      break;

    case PROP_TX_POWER:
      g_value_set_int (value, self->tx_power);
      break;

    case PROP_ADAPTER:
      g_value_set_string (value, self->adapter);
      break;

    case PROP_STATE:
      g_value_set_int (value, self->state);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
nearby_advertiser_set_property (GObject      *object,
                                guint         prop_id,
                                const GValue *value,
                                GParamSpec   *pspec)
{
  NearbyAdvertiser *self = NEARBY_ADVERTISER (object);

  switch (prop_id)
    {
    case PROP_URL:
      g_free (self->url);
      self->url = g_value_dup_string (value);
      break;

    case PROP_PROTOCOL:
      self->protocol = g_value_get_int (value);
      break;

    case PROP_TX_POWER:
      self->tx_power = g_value_get_int (value);
      break;

    case PROP_ADAPTER:
      g_free (self->adapter);
      self->adapter = g_value_dup_string (value);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
nearby_advertiser_class_init (NearbyAdvertiserClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = nearby_advertiser_dispose;
  object_class->finalize = nearby_advertiser_finalize;
  object_class->get_property = nearby_advertiser_get_property;
  object_class->set_property = nearby_advertiser_set_property;

  properties[PROP_URL] =
    g_param_spec_string ("url", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY |
                         G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /* A NearbyProtocol: EDDYSTONE or URIBEACON. */
  properties[PROP_PROTOCOL] =
    g_param_spec_int ("protocol", NULL, NULL,
                      NEARBY_PROTOCOL_EDDYSTONE, NEARBY_PROTOCOL_URIBEACON,
                      NEARBY_PROTOCOL_EDDYSTONE,
                      G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY |
                      G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  properties[PROP_TX_POWER] =
    g_param_spec_int ("tx-power", NULL, NULL,
                      NEARBY_TX_POWER_MIN, NEARBY_TX_POWER_MAX,
                      NEARBY_ADVERTISER_DEFAULT_TX_POWER,
                      G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY |
                      G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  properties[PROP_ADAPTER] =
    g_param_spec_string ("adapter", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY |
                         G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /* A NearbyAdvertiserState. */
  properties[PROP_STATE] =
    g_param_spec_int ("state", NULL, NULL,
                      NEARBY_ADVERTISER_STATE_IDLE, NEARBY_ADVERTISER_STATE_FAILED,
                      NEARBY_ADVERTISER_STATE_IDLE,
                      G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
nearby_advertiser_init (NearbyAdvertiser *self)
{
  static gint counter;

  self->protocol = NEARBY_PROTOCOL_EDDYSTONE;
  self->tx_power = NEARBY_ADVERTISER_DEFAULT_TX_POWER;
  self->object_path = g_strdup_printf (OBJECT_PATH_PREFIX "%d",
                                       g_atomic_int_add (&counter, 1));
}
