/* nearby-scanner-batch.c: the scanner's Device1 PropertiesChanged signals, taken on GDBus's
 * worker thread and handed to the main loop in batches
 *
 * Used without an sd-bus connection (nearby-scanner-sdbus.c). A busy room is hundreds of signals
 * a second. Dispatched by GDBus, each one is a main-loop wakeup as it comes; bench-room counted
 * about 2 400 wakeups a second for 500 signals. A connection filter runs on the worker thread
 * that read the message: it keeps the Device1 PropertiesChanged of our bluetoothd, drops them
 * from GDBus's own dispatch, and wakes the main loop once per batch interval. A path heard from
 * for the first time is handed over at once, so that a beacon that starts advertising shows
 * without waiting for the interval.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "nearby-scanner"

#include "config.h"

#include <string.h>

#include "nearby-bluez.h"
#include "nearby-scanner-private.h"

#define BATCH_INTERVAL_MS 200

/* Shared with the filter, which may still run on the worker thread after the scanner has gone
 * (g_dbus_connection_remove_filter() does not wait for it): reference-counted, its fields
 * under the mutex. */
struct _NearbyScannerBatch
{
  GMutex        mutex;
  GMainContext *context;
  GWeakRef      scanner;
  char         *owner;          /* the bluetoothd whose signals are taken; NULL: none */
  char         *adapter_path;
  GPtrArray    *messages;       /* GDBusMessage, in the order they were read */
  GHashTable   *heard;          /* paths already heard from */
  GSource      *flush_source;
};

static NearbyScannerBatch *
batch_ref (NearbyScannerBatch *batch)
{
  return g_atomic_rc_box_acquire (batch);
}

static void
batch_clear (gpointer data)
{
  NearbyScannerBatch *batch = data;

  g_mutex_clear (&batch->mutex);
  g_main_context_unref (batch->context);
  g_weak_ref_clear (&batch->scanner);
  g_free (batch->owner);
  g_free (batch->adapter_path);
  g_ptr_array_unref (batch->messages);
  g_hash_table_unref (batch->heard);
  g_assert (batch->flush_source == NULL);
}

static void
batch_unref (gpointer batch)
{
  g_atomic_rc_box_release_full (batch, batch_clear);
}

static gboolean
path_is_under (const char *path,
               const char *parent)
{
  gsize len = strlen (parent);

  return strncmp (path, parent, len) == 0 && path[len] == '/';
}

static GPtrArray *
steal_messages (NearbyScannerBatch *batch)
{
  GPtrArray *messages;

  g_mutex_lock (&batch->mutex);
  messages = batch->messages;
  batch->messages = g_ptr_array_new_with_free_func (g_object_unref);
  if (batch->flush_source != NULL)
    {
      g_source_destroy (batch->flush_source);
      g_clear_pointer (&batch->flush_source, g_source_unref);
    }
  g_mutex_unlock (&batch->mutex);

  return messages;
}

static void
apply_messages (NearbyScanner *self,
                GPtrArray     *messages)
{
  for (guint i = 0; i < messages->len; i++)
    {
      GDBusMessage *message = g_ptr_array_index (messages, i);
      g_autoptr(GVariant) changed = NULL;
      g_autofree const char **invalidated = NULL;

      g_variant_get (g_dbus_message_get_body (message), "(&s@a{sv}^a&s)", NULL, &changed,
                     &invalidated);
      _nearby_scanner_device_properties_changed (self, g_dbus_message_get_path (message),
                                                 changed, invalidated);
    }
}

void
_nearby_scanner_batch_flush (NearbyScanner *self)
{
  g_autoptr(GPtrArray) messages = NULL;

  if (self->sdbus != NULL)
    {
      _nearby_scanner_sdbus_flush (self);
      return;
    }
  if (self->batch == NULL)
    return;

  messages = steal_messages (self->batch);
  apply_messages (self, messages);
}

static gboolean
flush_cb (gpointer user_data)
{
  NearbyScannerBatch *batch = user_data;
  g_autoptr(NearbyScanner) self = g_weak_ref_get (&batch->scanner);
  g_autoptr(GPtrArray) messages = steal_messages (batch);

  if (self != NULL)
    apply_messages (self, messages);

  return G_SOURCE_REMOVE;
}

/* On GDBus's worker thread. */
static GDBusMessage *
filter_cb (GDBusConnection *connection,
           GDBusMessage    *message,
           gboolean         incoming,
           gpointer         user_data)
{
  NearbyScannerBatch *batch = user_data;
  const char *path = g_dbus_message_get_path (message);
  const char *sender = g_dbus_message_get_sender (message);
  GVariant *body;
  const char *interface;
  gboolean first;

  if (!incoming
      || g_dbus_message_get_message_type (message) != G_DBUS_MESSAGE_TYPE_SIGNAL
      || g_strcmp0 (g_dbus_message_get_member (message), "PropertiesChanged") != 0
      || g_strcmp0 (g_dbus_message_get_interface (message),
                    "org.freedesktop.DBus.Properties") != 0
      || path == NULL || sender == NULL)
    return message;

  body = g_dbus_message_get_body (message);
  if (body == NULL || !g_variant_is_of_type (body, G_VARIANT_TYPE ("(sa{sv}as)")))
    return message;
  g_variant_get_child (body, 0, "&s", &interface);
  if (!g_str_equal (interface, NEARBY_BLUEZ_DEVICE_IFACE))
    return message;

  g_mutex_lock (&batch->mutex);
  if (batch->owner == NULL || !g_str_equal (sender, batch->owner)
      || batch->adapter_path == NULL || !path_is_under (path, batch->adapter_path))
    {
      g_mutex_unlock (&batch->mutex);
      return message;
    }

  g_ptr_array_add (batch->messages, message);
  first = !g_hash_table_contains (batch->heard, path);
  if (first)
    g_hash_table_add (batch->heard, g_strdup (path));

  if (batch->flush_source == NULL)
    {
      batch->flush_source = g_timeout_source_new (first ? 0 : BATCH_INTERVAL_MS);
      g_source_set_static_name (batch->flush_source, "[nearby] scanner batch");
      g_source_set_callback (batch->flush_source, flush_cb, batch_ref (batch), batch_unref);
      g_source_attach (batch->flush_source, batch->context);
    }
  else if (first)
    {
      g_source_set_ready_time (batch->flush_source, 0);
    }
  g_mutex_unlock (&batch->mutex);

  return NULL;
}

/* Those of another bluetoothd or adapter, which the filter left. */
static void
ignore_signal (GDBusConnection *connection,
               const char      *sender,
               const char      *object_path,
               const char      *interface_name,
               const char      *signal_name,
               GVariant        *parameters,
               gpointer         user_data)
{
}

void
_nearby_scanner_batch_start (NearbyScanner *self,
                             gboolean       gdbus_only)
{
  NearbyScannerBatch *batch;

  if (!gdbus_only && _nearby_scanner_sdbus_start (self, self->bus_address))
    return;

  batch = g_atomic_rc_box_new0 (NearbyScannerBatch);

  g_mutex_init (&batch->mutex);
  batch->context = g_main_context_ref_thread_default ();
  g_weak_ref_init (&batch->scanner, self);
  batch->messages = g_ptr_array_new_with_free_func (g_object_unref);
  batch->heard = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  self->batch = batch;
  self->batch_filter_id = g_dbus_connection_add_filter (self->connection, filter_cb,
                                                        batch_ref (batch), batch_unref);
  /* Asks the bus for the signals; the filter takes them before GDBus would dispatch them. */
  self->batch_signal_id =
    g_dbus_connection_signal_subscribe (self->connection, NEARBY_BLUEZ_BUS_NAME,
                                        "org.freedesktop.DBus.Properties", "PropertiesChanged",
                                        NULL, NEARBY_BLUEZ_DEVICE_IFACE,
                                        G_DBUS_SIGNAL_FLAGS_NONE, ignore_signal, NULL, NULL);
  _nearby_scanner_signals_ready (self);
}

void
_nearby_scanner_batch_follow (NearbyScanner *self,
                              const char    *owner,
                              const char    *adapter_path)
{
  NearbyScannerBatch *batch = self->batch;
  g_autoptr(GPtrArray) messages = NULL;

  _nearby_scanner_hold_forget (self->hold, NULL);
  if (self->sdbus != NULL)
    {
      _nearby_scanner_sdbus_follow (self, adapter_path);
      return;
    }
  if (batch == NULL)
    return;

  /* What was taken before the change belongs to the old adapter or bluetoothd. */
  messages = steal_messages (batch);
  apply_messages (self, messages);

  g_mutex_lock (&batch->mutex);
  g_free (batch->owner);
  batch->owner = g_strdup (owner);
  g_free (batch->adapter_path);
  batch->adapter_path = g_strdup (adapter_path);
  g_hash_table_remove_all (batch->heard);
  g_mutex_unlock (&batch->mutex);
}

void
_nearby_scanner_batch_forget (NearbyScanner *self,
                              const char    *path)
{
  _nearby_scanner_hold_forget (self->hold, path);
  if (self->sdbus != NULL)
    {
      _nearby_scanner_sdbus_forget (self, path);
      return;
    }
  if (self->batch == NULL)
    return;

  g_mutex_lock (&self->batch->mutex);
  g_hash_table_remove (self->batch->heard, path);
  g_mutex_unlock (&self->batch->mutex);
}

void
_nearby_scanner_batch_stop (NearbyScanner *self)
{
  g_autoptr(GPtrArray) messages = NULL;

  _nearby_scanner_sdbus_stop (self);
  if (self->batch == NULL)
    return;

  if (self->batch_filter_id != 0)
    g_dbus_connection_remove_filter (self->connection, self->batch_filter_id);
  self->batch_filter_id = 0;
  if (self->batch_signal_id != 0)
    g_dbus_connection_signal_unsubscribe (self->connection, self->batch_signal_id);
  self->batch_signal_id = 0;

  /* The filter may run once more: it takes nothing from now on. */
  g_mutex_lock (&self->batch->mutex);
  g_clear_pointer (&self->batch->owner, g_free);
  g_mutex_unlock (&self->batch->mutex);
  messages = steal_messages (self->batch);
  g_clear_pointer (&self->batch, batch_unref);
}
