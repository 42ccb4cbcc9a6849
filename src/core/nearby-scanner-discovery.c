/* nearby-scanner-discovery.c: the scanner's discovery session: filter, start, retries with
 * backoff, and a restart when discovery stops or stalls
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "nearby-scanner"

#include "config.h"

#include <glib/gi18n.h>

#include "nearby-bluez.h"
#include "nearby-scanner-private.h"

#define MAX_STALL_FACTOR      8

static gboolean
is_remote_error (const GError *error,
                 const char   *name)
{
  g_autofree char *remote = NULL;

  if (!g_dbus_error_is_remote_error (error))
    return FALSE;

  remote = g_dbus_error_get_remote_error (error);

  return g_strcmp0 (remote, name) == 0;
}

/* The watchdog: discovery that runs but hears nothing for a long time is restarted. */

static gboolean watchdog_cb (gpointer user_data);

void
_nearby_scanner_schedule_watchdog (NearbyScanner *self,
                                   guint          delay_ms)
{
  g_clear_handle_id (&self->watchdog_source, g_source_remove);
  self->watchdog_source = g_timeout_add (MAX (delay_ms, 1), watchdog_cb, self);
}

static gboolean
watchdog_cb (gpointer user_data)
{
  NearbyScanner *self = user_data;
  guint64 limit_ms = (guint64) self->stall_timeout_ms * self->stall_factor;
  guint64 quiet_ms = (g_get_monotonic_time () - self->last_activity_us) / 1000;

  self->watchdog_source = 0;

  if (!self->session_active)
    return G_SOURCE_REMOVE;

  if (quiet_ms < limit_ms)
    {
      _nearby_scanner_schedule_watchdog (self, (guint) (limit_ms - quiet_ms));
      return G_SOURCE_REMOVE;
    }

  g_debug ("Nothing heard for %" G_GUINT64_FORMAT " ms: restarting discovery", quiet_ms);
  self->restart_count++;
  self->stall_factor = MIN (self->stall_factor * 2, MAX_STALL_FACTOR);
  self->last_activity_us = g_get_monotonic_time ();
  _nearby_scanner_begin_session (self, TRUE);

  return G_SOURCE_REMOVE;
}

/* Discovery sessions */

void
_nearby_scanner_end_session (NearbyScanner *self)
{
  g_cancellable_cancel (self->session_cancellable);
  g_clear_object (&self->session_cancellable);
  g_clear_handle_id (&self->retry_source, g_source_remove);
  g_clear_handle_id (&self->discovering_check_source, g_source_remove);
  g_clear_handle_id (&self->watchdog_source, g_source_remove);
  self->arming = FALSE;
  self->session_active = FALSE;
  self->seen_discovering = FALSE;
}

static gboolean
retry_cb (gpointer user_data)
{
  NearbyScanner *self = user_data;

  self->retry_source = 0;
  if (self->adapter != NULL && !self->stopped
      && _nearby_scanner_proxy_get_boolean (self->adapter, "Powered", FALSE))
    _nearby_scanner_begin_session (self, TRUE);

  return G_SOURCE_REMOVE;
}

gboolean
nearby_scanner_retry (NearbyScanner *self)
{
  g_return_val_if_fail (NEARBY_IS_SCANNER (self), FALSE);

  if (self->adapter == NULL || self->stopped ||
      !_nearby_scanner_proxy_get_boolean (self->adapter, "Powered", FALSE))
    return FALSE;

  g_debug ("Retrying discovery now, as asked");
  _nearby_scanner_begin_session (self, TRUE);

  return TRUE;
}

static void
schedule_retry (NearbyScanner *self)
{
  self->arming = FALSE;
  g_clear_handle_id (&self->retry_source, g_source_remove);
  g_debug ("Retrying discovery in %u ms", self->retry_delay_ms);
  self->retry_source = g_timeout_add (self->retry_delay_ms, retry_cb, self);
  self->retry_delay_ms = MIN ((guint64) self->retry_delay_ms * 2, self->retry_interval_max_ms);
}

void
_nearby_scanner_call_adapter (NearbyScanner       *self,
                              const char          *method,
                              GVariant            *parameters,
                              GCancellable        *cancellable,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  g_dbus_connection_call (self->connection,
                          NEARBY_BLUEZ_BUS_NAME,
                          g_dbus_proxy_get_object_path (self->adapter),
                          NEARBY_BLUEZ_ADAPTER_IFACE,
                          method,
                          parameters,
                          NULL,
                          G_DBUS_CALL_FLAGS_NO_AUTO_START,
                          SCANNER_CALL_TIMEOUT_MS,
                          cancellable,
                          callback,
                          user_data);
}

/* Finishes a call made for a discovery session. Ending the session cancels its calls, and by
 * then another session may have begun or the scanner may be gone: FALSE tells the callback to
 * leave it alone. Otherwise @error says whether bluetoothd refused. */
static gboolean
finish_session_call (GObject       *object,
                     GAsyncResult  *result,
                     GError       **error)
{
  g_autoptr(GVariant) reply = NULL;
  g_autoptr(GError) local_error = NULL;

  reply = g_dbus_connection_call_finish (G_DBUS_CONNECTION (object), result, &local_error);
  if (g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return FALSE;

  if (local_error != NULL)
    g_propagate_error (error, g_steal_pointer (&local_error));
  return TRUE;
}

static void
start_discovery_cb (GObject      *object,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  g_autoptr(GError) error = NULL;
  NearbyScanner *self;

  if (!finish_session_call (object, result, &error))
    return;

  self = NEARBY_SCANNER (user_data);

  if (error == NULL)
    {
      self->arming = FALSE;
      self->session_active = TRUE;
      self->seen_discovering =
        _nearby_scanner_proxy_get_boolean (self->adapter, "Discovering", FALSE);
      self->retry_delay_ms = self->retry_interval_ms;
      self->last_activity_us = g_get_monotonic_time ();
      _nearby_scanner_schedule_watchdog (self, self->stall_timeout_ms);
      _nearby_scanner_set_state (self, NEARBY_SOURCE_STATE_SCANNING, NULL);
      return;
    }

  g_debug ("StartDiscovery failed: %s", error->message);

  if (is_remote_error (error, "org.bluez.Error.InProgress"))
    {
      /* Usually our own session, left over: the retry stops it first. Never retry at once. */
    }
  else if (is_remote_error (error, "org.bluez.Error.NotReady"))
    {
      _nearby_scanner_set_state (self, NEARBY_SOURCE_STATE_RFKILL_BLOCKED,
                                 _("The Bluetooth adapter is not ready: it may be blocked by "
                                   "airplane mode or a hardware switch"));
    }
  else
    {
      g_autofree char *message = NULL;

      g_dbus_error_strip_remote_error (error);
      message = g_strdup_printf (_("Bluetooth discovery failed: %s"), error->message);
      _nearby_scanner_set_state (self, NEARBY_SOURCE_STATE_ERROR, message);
    }

  schedule_retry (self);
}

static void
set_filter_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(GError) error = NULL;
  NearbyScanner *self;

  if (!finish_session_call (object, result, &error))
    return;

  self = NEARBY_SCANNER (user_data);

  /* Without the filter discovery still works, only coarser: go on. */
  if (error != NULL)
    g_debug ("SetDiscoveryFilter failed: %s", error->message);

  _nearby_scanner_call_adapter (self, "StartDiscovery", NULL, self->session_cancellable,
                                start_discovery_cb, self);
}

static void
set_filter (NearbyScanner *self)
{
  GVariantBuilder filter;

  /* Any filter makes bluetoothd (5.66) restart scan cycles at once and signal the RSSI of
   * every advert, which keeps the watchdog and distances fresh. DuplicateData=true would also
   * clear and re-add the advert data each time, so that every signal carried it: without it,
   * a signal carries the data only when its bytes changed (a rotating beacon's every frame
   * still shows), and a busy room costs less to read (tests/bench/README.md, bench-room). */
  g_variant_builder_init (&filter, G_VARIANT_TYPE_VARDICT);
  g_variant_builder_add (&filter, "{sv}", "Transport", g_variant_new_string ("le"));
  g_variant_builder_add (&filter, "{sv}", "DuplicateData", g_variant_new_boolean (FALSE));

  _nearby_scanner_call_adapter (self, "SetDiscoveryFilter", g_variant_new ("(a{sv})", &filter),
                                self->session_cancellable, set_filter_cb, self);
}

static void
stop_before_start_cb (GObject      *object,
                      GAsyncResult *result,
                      gpointer      user_data)
{
  g_autoptr(GError) error = NULL;

  if (!finish_session_call (object, result, &error))
    return;

  /* "not started" is the usual answer here. */
  if (error != NULL)
    g_debug ("StopDiscovery before restart: %s", error->message);

  set_filter (NEARBY_SCANNER (user_data));
}

void
_nearby_scanner_begin_session (NearbyScanner *self,
                               gboolean       stop_first)
{
  g_return_if_fail (self->adapter != NULL);

  _nearby_scanner_end_session (self);
  self->session_cancellable = g_cancellable_new ();
  self->arming = TRUE;

  if (self->state != NEARBY_SOURCE_STATE_SCANNING)
    _nearby_scanner_set_state (self, NEARBY_SOURCE_STATE_STARTING,
                               _("Starting Bluetooth discovery…"));

  if (stop_first)
    _nearby_scanner_call_adapter (self, "StopDiscovery", NULL, self->session_cancellable,
                                  stop_before_start_cb, self);
  else
    set_filter (self);
}

static gboolean
discovering_check_cb (gpointer user_data)
{
  NearbyScanner *self = user_data;

  self->discovering_check_source = 0;

  if (self->session_active && self->adapter != NULL
      && !_nearby_scanner_proxy_get_boolean (self->adapter, "Discovering", FALSE))
    {
      g_debug ("Discovery stopped without us asking: restarting it");
      self->restart_count++;
      _nearby_scanner_begin_session (self, TRUE);
    }

  return G_SOURCE_REMOVE;
}

void
_nearby_scanner_discovering_changed (NearbyScanner *self,
                                     gboolean       discovering)
{
  if (!self->session_active)
    return;

  if (discovering)
    {
      self->seen_discovering = TRUE;
      g_clear_handle_id (&self->discovering_check_source, g_source_remove);
    }
  else if (self->seen_discovering && self->discovering_check_source == 0)
    {
      /* bluetoothd may pause between scan cycles: only act if it stays off. */
      self->discovering_check_source = g_timeout_add (self->retry_delay_ms,
                                                      discovering_check_cb, self);
    }
}
