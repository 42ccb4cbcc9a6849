/* nearby-scanner.c: beacon sightings from BlueZ: the GObject, and following bluetoothd and the
 * adapter
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "nearby-scanner"

#include "config.h"

#include <glib/gi18n.h>

#include "nearby-bluez.h"
#include "nearby-scanner-private.h"

#define DEFAULT_STALL_TIMEOUT_MS      (3 * 60 * 1000)
#define DEFAULT_RETRY_INTERVAL_MS     2000
#define DEFAULT_RETRY_INTERVAL_MAX_MS (60 * 1000)

static void nearby_scanner_source_iface_init (NearbySourceInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (NearbyScanner, nearby_scanner, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (NEARBY_TYPE_SOURCE,
                                                      nearby_scanner_source_iface_init))

enum {
  PROP_0,
  PROP_ADAPTER,
  PROP_STALL_TIMEOUT,
  PROP_RETRY_INTERVAL,
  PROP_RETRY_INTERVAL_MAX,
  N_PROPS,

  /* NearbySource */
  PROP_STATE = N_PROPS,
  PROP_STATE_MESSAGE,
};

static GParamSpec *properties[N_PROPS];

enum {
  OTHER_DEVICE,
  N_SIGNALS
};

static guint signals[N_SIGNALS];


void
_nearby_scanner_set_state (NearbyScanner     *self,
                           NearbySourceState  state,
                           const char        *message)
{
  if (self->state != state)
    g_debug ("State %s: %s", nearby_source_state_to_string (state),
             message != NULL ? message : "");

  nearby_source_update_state (NEARBY_SOURCE (self), &self->state, &self->state_message, state,
                              message);
}

gboolean
_nearby_scanner_proxy_get_boolean (GDBusProxy *proxy,
                                   const char *name,
                                   gboolean    fallback)
{
  g_autoptr(GVariant) value = g_dbus_proxy_get_cached_property (proxy, name);

  if (value != NULL && g_variant_is_of_type (value, G_VARIANT_TYPE_BOOLEAN))
    return g_variant_get_boolean (value);

  return fallback;
}

static gboolean
adapter_is_rfkill_blocked (GDBusProxy *adapter)
{
  g_autoptr(GVariant) value = g_dbus_proxy_get_cached_property (adapter, "PowerState");

  return value != NULL
         && g_variant_is_of_type (value, G_VARIANT_TYPE_STRING)
         && g_str_equal (g_variant_get_string (value, NULL), "off-blocked");
}

/* Adapters */

void
_nearby_scanner_adapter_changed (NearbyScanner *self,
                                 GVariant      *changed)
{
  g_autoptr(GVariant) discovering = g_variant_lookup_value (changed, "Discovering",
                                                            G_VARIANT_TYPE_BOOLEAN);
  g_autoptr(GVariant) powered = g_variant_lookup_value (changed, "Powered", NULL);
  g_autoptr(GVariant) power_state = g_variant_lookup_value (changed, "PowerState", NULL);

  if (powered != NULL || power_state != NULL)
    {
      /* Power cycles drop every session and filter: start from scratch. */
      if (!_nearby_scanner_proxy_get_boolean (self->adapter, "Powered", FALSE))
        {
          _nearby_scanner_end_session (self);
          _nearby_scanner_devices_forget_frames (self);
          self->retry_delay_ms = self->retry_interval_ms;
        }
      _nearby_scanner_refresh (self);
    }

  if (discovering != NULL)
    _nearby_scanner_discovering_changed (self, g_variant_get_boolean (discovering));
}

static void
use_adapter (NearbyScanner *self,
             GDBusProxy    *adapter)
{
  g_debug ("Using adapter %s", g_dbus_proxy_get_object_path (adapter));
  self->adapter = g_object_ref (adapter);
  self->retry_delay_ms = self->retry_interval_ms;
  _nearby_scanner_batch_follow (self, self->owner, g_dbus_proxy_get_object_path (adapter));
  _nearby_scanner_replay_devices (self);
}

void
_nearby_scanner_drop_adapter (NearbyScanner *self)
{
  _nearby_scanner_cancel_replay (self);
  _nearby_scanner_batch_follow (self, NULL, NULL);
  _nearby_scanner_end_session (self);
  g_hash_table_remove_all (self->devices);
  g_clear_object (&self->adapter);
  g_clear_pointer (&self->owner, g_free);
}

void
_nearby_scanner_refresh (NearbyScanner *self)
{
  if (self->connection == NULL || self->stopped || !self->signals_ready || !self->name_known)
    return;

  if (self->name_owner == NULL)
    {
      _nearby_scanner_drop_adapter (self);
      _nearby_scanner_set_state (self, NEARBY_SOURCE_STATE_NO_SERVICE,
                                 _("The Bluetooth service is not running"));
      return;
    }
  if (!self->objects_ready)
    return;

  if (self->adapter == NULL)
    {
      g_autoptr(GDBusProxy) adapter = _nearby_scanner_find_adapter (self);

      if (adapter != NULL)
        {
          self->owner = g_strdup (self->name_owner);
          use_adapter (self, adapter);
        }
    }

  if (self->adapter == NULL)
    {
      g_autofree char *message = NULL;

      if (self->adapter_name != NULL)
        message = g_strdup_printf (_("Bluetooth adapter “%s” not found"), self->adapter_name);
      else
        message = g_strdup (_("No Bluetooth adapter found"));
      _nearby_scanner_set_state (self, NEARBY_SOURCE_STATE_NO_ADAPTER, message);
      return;
    }

  if (!_nearby_scanner_proxy_get_boolean (self->adapter, "Powered", FALSE))
    {
      _nearby_scanner_end_session (self);
      if (adapter_is_rfkill_blocked (self->adapter))
        _nearby_scanner_set_state (self, NEARBY_SOURCE_STATE_RFKILL_BLOCKED,
                                   _("Bluetooth is blocked by airplane mode or a hardware switch"));
      else
        _nearby_scanner_set_state (self, NEARBY_SOURCE_STATE_OFF, _("Bluetooth is off"));
      return;
    }

  if (!self->session_active && !self->arming && self->retry_source == 0)
    _nearby_scanner_begin_session (self, FALSE);
}

void
_nearby_scanner_sdbus_ready (NearbyScanner *self,
                             gboolean       ok)
{
  if (self->connection == NULL || self->signals_ready)
    return;

  if (ok)
    {
      _nearby_scanner_signals_ready (self);
    }
  else
    {
      _nearby_scanner_sdbus_stop (self);
      _nearby_scanner_batch_start (self, TRUE);
    }
}

static void
cannot_reach_bus (NearbyScanner *self,
                  const GError  *error)
{
  g_autofree char *message = g_strdup_printf (_("Cannot reach the system bus: %s"),
                                              error->message);

  _nearby_scanner_set_state (self, NEARBY_SOURCE_STATE_NO_SERVICE, message);
}

static void
connection_ready_cb (GObject      *object,
                     GAsyncResult *result,
                     gpointer      user_data)
{
  g_autoptr(GDBusConnection) connection = NULL;
  g_autoptr(GError) error = NULL;
  NearbyScanner *self;

  connection = g_dbus_connection_new_for_address_finish (result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  self = NEARBY_SCANNER (user_data);
  if (connection == NULL)
    {
      cannot_reach_bus (self, error);
      return;
    }

  self->connection = g_steal_pointer (&connection);
  _nearby_scanner_objects_start (self);
  _nearby_scanner_batch_start (self, FALSE);
}

/* The scanner has a system bus connection of its own: it takes bluetoothd's Device1
 * PropertiesChanged signals off the connection in batches (nearby-scanner-batch.c), which on
 * the process's shared connection would hide them from everyone else listening there (the
 * beacon configurator waits for ServicesResolved). */
static void
start_connection (NearbyScanner *self)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *address = g_dbus_address_get_for_bus_sync (G_BUS_TYPE_SYSTEM,
                                                              self->cancellable, &error);

  if (address == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        cannot_reach_bus (self, error);
      return;
    }

  g_free (self->bus_address);
  self->bus_address = g_strdup (address);
  g_dbus_connection_new_for_address (address,
                                     G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT |
                                     G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION,
                                     NULL,
                                     self->cancellable,
                                     connection_ready_cb,
                                     self);
}

/* Public API */

NearbyScanner *
nearby_scanner_new (const char *adapter)
{
  return g_object_new (NEARBY_TYPE_SCANNER, "adapter", adapter, NULL);
}

const char *
nearby_scanner_get_adapter (NearbyScanner *self)
{
  g_return_val_if_fail (NEARBY_IS_SCANNER (self), NULL);

  return self->adapter_name;
}

const char *
nearby_scanner_get_adapter_path (NearbyScanner *self)
{
  g_return_val_if_fail (NEARBY_IS_SCANNER (self), NULL);

  return self->adapter != NULL ? g_dbus_proxy_get_object_path (self->adapter) : NULL;
}

guint
nearby_scanner_get_restart_count (NearbyScanner *self)
{
  g_return_val_if_fail (NEARBY_IS_SCANNER (self), 0);

  return self->restart_count;
}

/* Ends a task with the outcome of one D-Bus call to bluetoothd (Powered, StopDiscovery). */
static void
return_call_result_cb (GObject      *object,
                       GAsyncResult *result,
                       gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GVariant) reply = NULL;
  g_autoptr(GError) error = NULL;

  reply = g_dbus_connection_call_finish (G_DBUS_CONNECTION (object), result, &error);
  if (error != NULL)
    {
      g_dbus_error_strip_remote_error (error);
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  g_task_return_boolean (task, TRUE);
}

void
nearby_scanner_power_on_async (NearbyScanner       *self,
                               GCancellable        *cancellable,
                               GAsyncReadyCallback  callback,
                               gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (NEARBY_IS_SCANNER (self));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, nearby_scanner_power_on_async);

  if (self->adapter == NULL)
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                               "%s", _("No Bluetooth adapter found"));
      return;
    }

  g_dbus_connection_call (self->connection,
                          NEARBY_BLUEZ_BUS_NAME,
                          g_dbus_proxy_get_object_path (self->adapter),
                          "org.freedesktop.DBus.Properties",
                          "Set",
                          g_variant_new ("(ssv)", NEARBY_BLUEZ_ADAPTER_IFACE, "Powered",
                                         g_variant_new_boolean (TRUE)),
                          NULL,
                          G_DBUS_CALL_FLAGS_NO_AUTO_START,
                          SCANNER_CALL_TIMEOUT_MS,
                          cancellable,
                          return_call_result_cb,
                          g_steal_pointer (&task));
}

gboolean
nearby_scanner_power_on_finish (NearbyScanner  *self,
                                GAsyncResult   *result,
                                GError        **error)
{
  g_return_val_if_fail (NEARBY_IS_SCANNER (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

void
nearby_scanner_stop_async (NearbyScanner       *self,
                           GCancellable        *cancellable,
                           GAsyncReadyCallback  callback,
                           gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  gboolean was_active;

  g_return_if_fail (NEARBY_IS_SCANNER (self));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, nearby_scanner_stop_async);

  /* An attempt in flight may have started a session already: stop in either case. */
  was_active = self->session_active || self->arming;
  self->stopped = TRUE;
  _nearby_scanner_end_session (self);
  _nearby_scanner_set_state (self, NEARBY_SOURCE_STATE_FINISHED, NULL);

  if (!was_active || self->adapter == NULL || self->connection == NULL)
    {
      g_task_return_boolean (task, TRUE);
      return;
    }

  _nearby_scanner_call_adapter (self, "StopDiscovery", NULL, cancellable, return_call_result_cb,
                                g_steal_pointer (&task));
}

gboolean
nearby_scanner_stop_finish (NearbyScanner  *self,
                            GAsyncResult   *result,
                            GError        **error)
{
  g_return_val_if_fail (NEARBY_IS_SCANNER (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/* GObject */

static void
nearby_scanner_constructed (GObject *object)
{
  NearbyScanner *self = (NearbyScanner *) object;

  G_OBJECT_CLASS (nearby_scanner_parent_class)->constructed (object);

  self->retry_delay_ms = self->retry_interval_ms;
  start_connection (self);
}

static void
last_stop_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(GDBusConnection) connection = user_data;
  g_autoptr(GVariant) reply = g_dbus_connection_call_finish (connection, result, NULL);
}

static void
nearby_scanner_dispose (GObject *object)
{
  NearbyScanner *self = (NearbyScanner *) object;

  /* No cancellable: the call must go out even though we are going away. The connection is
   * our own and would be closed with its last reference, perhaps before the call is written:
   * the call holds one until it is answered. */
  if ((self->session_active || self->arming) && self->adapter != NULL && self->connection != NULL)
    g_dbus_connection_call (self->connection,
                            NEARBY_BLUEZ_BUS_NAME,
                            g_dbus_proxy_get_object_path (self->adapter),
                            NEARBY_BLUEZ_ADAPTER_IFACE,
                            "StopDiscovery",
                            NULL, NULL,
                            G_DBUS_CALL_FLAGS_NO_AUTO_START,
                            SCANNER_CALL_TIMEOUT_MS,
                            NULL, last_stop_cb, g_object_ref (self->connection));

  g_cancellable_cancel (self->cancellable);
  _nearby_scanner_batch_stop (self);
  _nearby_scanner_end_session (self);
  g_clear_object (&self->adapter);
  if (self->connection != NULL)
    _nearby_scanner_objects_stop (self);
  g_clear_object (&self->connection);
  g_hash_table_remove_all (self->devices);

  G_OBJECT_CLASS (nearby_scanner_parent_class)->dispose (object);
}

static void
nearby_scanner_finalize (GObject *object)
{
  NearbyScanner *self = (NearbyScanner *) object;

  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->devices, g_hash_table_unref);
  g_clear_pointer (&self->adapters, g_hash_table_unref);
  g_clear_pointer (&self->hold, _nearby_scanner_hold_unref);
  g_clear_pointer (&self->adapter_name, g_free);
  g_clear_pointer (&self->state_message, g_free);
  g_clear_pointer (&self->owner, g_free);
  g_clear_pointer (&self->bus_address, g_free);

  G_OBJECT_CLASS (nearby_scanner_parent_class)->finalize (object);
}

static void
nearby_scanner_get_property (GObject    *object,
                             guint       prop_id,
                             GValue     *value,
                             GParamSpec *pspec)
{
  NearbyScanner *self = NEARBY_SCANNER (object);

  switch (prop_id)
    {
    case PROP_ADAPTER:
      g_value_set_string (value, self->adapter_name);
      break;

    case PROP_STALL_TIMEOUT:
      g_value_set_uint (value, self->stall_timeout_ms);
      break;

    case PROP_RETRY_INTERVAL:
      g_value_set_uint (value, self->retry_interval_ms);
      break;

    case PROP_RETRY_INTERVAL_MAX:
      g_value_set_uint (value, self->retry_interval_max_ms);
      break;

    case PROP_STATE:
      g_value_set_enum (value, self->state);
      break;

    case PROP_STATE_MESSAGE:
      g_value_set_string (value, self->state_message);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
nearby_scanner_set_property (GObject      *object,
                             guint         prop_id,
                             const GValue *value,
                             GParamSpec   *pspec)
{
  NearbyScanner *self = NEARBY_SCANNER (object);

  switch (prop_id)
    {
    case PROP_ADAPTER:
      g_free (self->adapter_name);
      self->adapter_name = g_value_dup_string (value);
      if (self->adapter_name != NULL && self->adapter_name[0] == '\0')
        g_clear_pointer (&self->adapter_name, g_free);
      break;

    case PROP_STALL_TIMEOUT:
      if (self->stall_timeout_ms != g_value_get_uint (value))
        {
          self->stall_timeout_ms = g_value_get_uint (value);
          if (self->watchdog_source != 0)
            _nearby_scanner_schedule_watchdog (self, self->stall_timeout_ms);
          g_object_notify_by_pspec (object, pspec);
        }
      break;

    case PROP_RETRY_INTERVAL:
      if (self->retry_interval_ms != g_value_get_uint (value))
        {
          self->retry_interval_ms = g_value_get_uint (value);
          self->retry_delay_ms = self->retry_interval_ms;
          g_object_notify_by_pspec (object, pspec);
        }
      break;

    case PROP_RETRY_INTERVAL_MAX:
      if (self->retry_interval_max_ms != g_value_get_uint (value))
        {
          self->retry_interval_max_ms = g_value_get_uint (value);
          g_object_notify_by_pspec (object, pspec);
        }
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
nearby_scanner_class_init (NearbyScannerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->constructed = nearby_scanner_constructed;
  object_class->dispose = nearby_scanner_dispose;
  object_class->finalize = nearby_scanner_finalize;
  object_class->get_property = nearby_scanner_get_property;
  object_class->set_property = nearby_scanner_set_property;

  properties[PROP_ADAPTER] =
    g_param_spec_string ("adapter", NULL, NULL,
                         NULL,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));

  /* How long discovery may hear nothing before it is restarted; doubles while it stays quiet. */
  properties[PROP_STALL_TIMEOUT] =
    g_param_spec_uint ("stall-timeout", NULL, NULL,
                       1, G_MAXUINT, DEFAULT_STALL_TIMEOUT_MS,
                       (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /* The first delay, in ms, before discovery is retried; doubles up to retry-interval-max. */
  properties[PROP_RETRY_INTERVAL] =
    g_param_spec_uint ("retry-interval", NULL, NULL,
                       1, G_MAXUINT, DEFAULT_RETRY_INTERVAL_MS,
                       (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  properties[PROP_RETRY_INTERVAL_MAX] =
    g_param_spec_uint ("retry-interval-max", NULL, NULL,
                       1, G_MAXUINT, DEFAULT_RETRY_INTERVAL_MAX_MS,
                       (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);

  g_object_class_override_property (object_class, PROP_STATE, "state");
  g_object_class_override_property (object_class, PROP_STATE_MESSAGE, "state-message");

  /* A device that sent no beacon frame was heard (its RSSI or advert data changed): its
   * address, its RSSI (NEARBY_RSSI_UNKNOWN when not known) and its Device1 properties that say
   * what it is (a{sv}: AddressType, ManufacturerData, ServiceData, UUIDs, AdvertisingData, as
   * bluetoothd has them). For `nearby scan --all`; nothing is gathered without a handler. */
  signals[OTHER_DEVICE] =
    g_signal_new ("other-device", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  NULL, NULL, NULL, G_TYPE_NONE, 3, G_TYPE_STRING, G_TYPE_INT, G_TYPE_VARIANT);
}

gboolean
_nearby_scanner_wants_other_devices (NearbyScanner *self)
{
  return g_signal_has_handler_pending (self, signals[OTHER_DEVICE], 0, TRUE);
}

void
_nearby_scanner_emit_other_device (NearbyScanner *self,
                                   const char    *address,
                                   int            rssi,
                                   GVariant      *described)
{
  g_signal_emit (self, signals[OTHER_DEVICE], 0, address, rssi, described);
}

static void
nearby_scanner_source_iface_init (NearbySourceInterface *iface)
{
}

static void
nearby_scanner_init (NearbyScanner *self)
{
  self->cancellable = g_cancellable_new ();
  self->devices = _nearby_scanner_devices_new ();
  self->adapters = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_object_unref);
  _nearby_scanner_hold_init (self);
  self->state = NEARBY_SOURCE_STATE_STARTING;
  self->stall_timeout_ms = DEFAULT_STALL_TIMEOUT_MS;
  self->retry_interval_ms = DEFAULT_RETRY_INTERVAL_MS;
  self->retry_interval_max_ms = DEFAULT_RETRY_INTERVAL_MAX_MS;
  self->retry_delay_ms = DEFAULT_RETRY_INTERVAL_MS;
  self->stall_factor = 1;
}
