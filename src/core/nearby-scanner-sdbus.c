/* nearby-scanner-sdbus.c: the scanner's Device1 PropertiesChanged signals, read on an sd-bus
 * connection of their own by a thread that wakes once per batch interval
 *
 * A busy room is hundreds of signals a second. GDBus's worker thread polls its socket before
 * every message it reads, so a GDBus connection that receives them wakes some four times per
 * signal however the main loop takes them (nearby-scanner-batch.c's filter: about 2 000
 * wakeups a second for 500 signals in bench-room). Here a thread holds an sd-bus connection
 * whose only match is bluetoothd's Device1 PropertiesChanged. Idle, it waits on the socket;
 * once a signal came, it sleeps without polling the socket until the interval is over, then
 * reads everything that arrived meanwhile in one go and hands the main loop one batch. The
 * kernel and the bus daemon hold what arrives while it sleeps. A path heard from for the first
 * time is handed over at once, so that a beacon that starts advertising is not held back.
 *
 * With hold-steady on (nearby-scanner-hold.c), a still beacon's RSSI that says nothing new is
 * dropped here, on the thread. While all it reads is dropped, the thread leaves the socket alone
 * until the first beacon's hold ends (a few seconds at most), rather than waking each time one
 * of them advertises again: still beacons then cost a wakeup every few seconds, not one per
 * advert. A beacon new to bluetoothd is not delayed by it: it comes as InterfacesAdded, on the
 * scanner's GDBus connection.
 *
 * The RSSI, nearly all a still beacon's signals say, is read as an int16 straight from the
 * message; the other properties (ServiceData and ManufacturerData when their bytes change, UUIDs
 * for the configuration services, and whatever else bluetoothd signals) are made into GVariants
 * for the decoder and the device code.
 *
 * The scanner's GDBus connection does not ask for the Device1 signals then; it stays for
 * everything else: the objects and interfaces, the adapter, discovery.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "nearby-scanner"

#include "config.h"

#ifdef HAVE_SD_BUS
#include <errno.h>
#include <poll.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <systemd/sd-bus.h>
#endif

#include "nearby-bluez.h"
#include "nearby-scanner-private.h"

const char *
nearby_scanner_get_signal_reader (NearbyScanner *self)
{
  g_return_val_if_fail (NEARBY_IS_SCANNER (self), NULL);

  if (!self->signals_ready)
    return NULL;

  return self->sdbus != NULL ? "sd-bus" : "gdbus";
}

#ifdef HAVE_SD_BUS

#define BATCH_INTERVAL_US (200 * G_TIME_SPAN_MILLISECOND)

#define DEVICE_SIGNALS_MATCH \
  "type='signal',sender='" NEARBY_BLUEZ_BUS_NAME "'," \
  "interface='org.freedesktop.DBus.Properties',member='PropertiesChanged'," \
  "arg0='" NEARBY_BLUEZ_DEVICE_IFACE "'"

/* One PropertiesChanged of a Device1. */
typedef struct {
  char      *path;
  gint64     time_us;      /* g_get_real_time() when it was read */
  gboolean   has_rssi;
  gint16     rssi;
  GVariant  *changed;      /* a{sv}: the properties other than RSSI; NULL when none */
  char     **invalidated;  /* NULL when none */
} Signal;

static void
signal_clear (gpointer data)
{
  Signal *signal = data;

  g_free (signal->path);
  g_clear_pointer (&signal->changed, g_variant_unref);
  g_strfreev (signal->invalidated);
}

/* Shared by the scanner and the reader thread, which may outlive it: reference-counted. */
struct _NearbyScannerSdBus
{
  GMutex        mutex;
  GMainContext *context;
  GWeakRef      scanner;
  int           stop_fd;
  NearbyScannerHold *hold;

  /* The thread's alone. */
  sd_bus       *bus;
  GArray       *reading;       /* Signal, read since the last handover */
  gboolean      first_read;    /* `reading` has a path's first signal */
  gboolean      held_read;     /* a signal held back was read since the last poll */

  /* Under the mutex. */
  char         *adapter_path;  /* whose devices' signals are kept; NULL: none */
  GHashTable   *heard;         /* paths already heard from */
  GArray       *handed;        /* Signal, for the main loop */
  GSource      *handed_source;
};

static NearbyScannerSdBus *
shared_ref (NearbyScannerSdBus *shared)
{
  return g_atomic_rc_box_acquire (shared);
}

static void
shared_clear (gpointer data)
{
  NearbyScannerSdBus *shared = data;

  g_mutex_clear (&shared->mutex);
  g_main_context_unref (shared->context);
  g_weak_ref_clear (&shared->scanner);
  _nearby_scanner_hold_unref (shared->hold);
  if (shared->stop_fd >= 0)
    close (shared->stop_fd);
  if (shared->bus != NULL)
    sd_bus_flush_close_unref (shared->bus);
  g_array_unref (shared->reading);
  g_free (shared->adapter_path);
  g_hash_table_unref (shared->heard);
  g_array_unref (shared->handed);
  g_assert (shared->handed_source == NULL);
}

static void
shared_unref (gpointer shared)
{
  g_atomic_rc_box_release_full (shared, shared_clear);
}

static gboolean
path_is_under (const char *path,
               const char *parent)
{
  gsize len = strlen (parent);

  return strncmp (path, parent, len) == 0 && path[len] == '/';
}

/* Reading messages, on the thread */

static GVariant *read_value (sd_bus_message *m);

static GVariant *
read_container (sd_bus_message *m,
                char            type,
                const char     *contents)
{
  g_autofree char *type_string = NULL;
  GVariantBuilder builder;

  switch (type)
    {
    case SD_BUS_TYPE_ARRAY:
      type_string = g_strconcat ("a", contents, NULL);
      break;
    case SD_BUS_TYPE_STRUCT:
      type_string = g_strconcat ("(", contents, ")", NULL);
      break;
    case SD_BUS_TYPE_DICT_ENTRY:
      type_string = g_strconcat ("{", contents, "}", NULL);
      break;
    default:
      g_assert_not_reached ();
    }
  if (!g_variant_type_string_is_valid (type_string)
      || sd_bus_message_enter_container (m, type, contents) <= 0)
    return NULL;

  g_variant_builder_init (&builder, G_VARIANT_TYPE (type_string));
  while (sd_bus_message_at_end (m, FALSE) == 0)
    {
      GVariant *child = read_value (m);

      if (child == NULL)
        {
          g_variant_builder_clear (&builder);
          return NULL;
        }
      g_variant_builder_add_value (&builder, child);
    }
  if (sd_bus_message_exit_container (m) < 0)
    {
      g_variant_builder_clear (&builder);
      return NULL;
    }

  return g_variant_builder_end (&builder);
}

/* An as (Device1's UUIDs) as a floating GVariant, or NULL. */
static GVariant *
read_strings (sd_bus_message *m)
{
  g_autoptr(GPtrArray) strings = g_ptr_array_new ();
  const char *string;
  int r;

  if (sd_bus_message_enter_container (m, SD_BUS_TYPE_ARRAY, "s") <= 0)
    return NULL;
  while ((r = sd_bus_message_read_basic (m, SD_BUS_TYPE_STRING, &string)) > 0)
    g_ptr_array_add (strings, (gpointer) string);
  if (r < 0 || sd_bus_message_exit_container (m) < 0)
    return NULL;

  return g_variant_new_strv ((const char * const *) strings->pdata, strings->len);
}

/* The next complete value of @m as a floating GVariant, or NULL (unix fds are not taken). */
static GVariant *
read_value (sd_bus_message *m)
{
  const char *contents = NULL;
  char type;

  if (sd_bus_message_peek_type (m, &type, &contents) <= 0)
    return NULL;

  switch (type)
    {
#define BASIC(code, ctype, make) \
    case code: \
      { \
        ctype value; \
        if (sd_bus_message_read_basic (m, code, &value) <= 0) \
          return NULL; \
        return make (value); \
      }
    BASIC (SD_BUS_TYPE_BYTE, guint8, g_variant_new_byte)
    BASIC (SD_BUS_TYPE_BOOLEAN, int, g_variant_new_boolean)
    BASIC (SD_BUS_TYPE_INT16, gint16, g_variant_new_int16)
    BASIC (SD_BUS_TYPE_UINT16, guint16, g_variant_new_uint16)
    BASIC (SD_BUS_TYPE_INT32, gint32, g_variant_new_int32)
    BASIC (SD_BUS_TYPE_UINT32, guint32, g_variant_new_uint32)
    BASIC (SD_BUS_TYPE_INT64, gint64, g_variant_new_int64)
    BASIC (SD_BUS_TYPE_UINT64, guint64, g_variant_new_uint64)
    BASIC (SD_BUS_TYPE_DOUBLE, double, g_variant_new_double)
    BASIC (SD_BUS_TYPE_STRING, const char *, g_variant_new_string)
    BASIC (SD_BUS_TYPE_OBJECT_PATH, const char *, g_variant_new_object_path)
    BASIC (SD_BUS_TYPE_SIGNATURE, const char *, g_variant_new_signature)
#undef BASIC

    case SD_BUS_TYPE_ARRAY:
      /* Advert data: bytes in one piece. */
      if (g_str_equal (contents, "y"))
        {
          const void *bytes;
          size_t size;

          if (sd_bus_message_read_array (m, SD_BUS_TYPE_BYTE, &bytes, &size) < 0)
            return NULL;
          return g_variant_new_fixed_array (G_VARIANT_TYPE_BYTE, bytes, size, 1);
        }
      /* UUIDs: the strings are taken where they are in the message, without a GVariant each. */
      if (g_str_equal (contents, "s"))
        return read_strings (m);
      return read_container (m, type, contents);

    case SD_BUS_TYPE_STRUCT:
    case SD_BUS_TYPE_DICT_ENTRY:
      return read_container (m, type, contents);

    case SD_BUS_TYPE_VARIANT:
      {
        GVariant *inner;

        if (sd_bus_message_enter_container (m, type, contents) <= 0)
          return NULL;
        inner = read_value (m);
        if (inner == NULL || sd_bus_message_exit_container (m) < 0)
          {
            if (inner != NULL)
              g_variant_unref (g_variant_ref_sink (inner));
            return NULL;
          }
        return g_variant_new_variant (inner);
      }

    default:
      return NULL;
    }
}

/* The a{sv} of a PropertiesChanged: the RSSI into @signal as it is, the rest as a GVariant. */
static gboolean
read_changed (sd_bus_message *m,
              Signal         *signal)
{
  GVariantBuilder builder;
  gboolean others = FALSE;
  int r;

  if (sd_bus_message_enter_container (m, SD_BUS_TYPE_ARRAY, "{sv}") <= 0)
    return FALSE;

  g_variant_builder_init (&builder, G_VARIANT_TYPE_VARDICT);
  while ((r = sd_bus_message_enter_container (m, SD_BUS_TYPE_DICT_ENTRY, "sv")) > 0)
    {
      const char *name;

      if (sd_bus_message_read_basic (m, SD_BUS_TYPE_STRING, &name) <= 0)
        goto fail;

      if (g_str_equal (name, "RSSI")
          && sd_bus_message_enter_container (m, SD_BUS_TYPE_VARIANT, "n") > 0)
        {
          gint16 rssi;

          if (sd_bus_message_read_basic (m, SD_BUS_TYPE_INT16, &rssi) <= 0
              || sd_bus_message_exit_container (m) < 0)
            goto fail;
          signal->has_rssi = TRUE;
          signal->rssi = rssi;
        }
      else
        {
          GVariant *value = read_value (m);

          if (value == NULL)
            goto fail;
          g_variant_builder_add_value (&builder,
                                       g_variant_new_dict_entry (g_variant_new_string (name),
                                                                 value));
          others = TRUE;
        }

      if (sd_bus_message_exit_container (m) < 0)
        goto fail;
    }
  if (r < 0 || sd_bus_message_exit_container (m) < 0)
    goto fail;

  if (others)
    signal->changed = g_variant_ref_sink (g_variant_builder_end (&builder));
  else
    g_variant_builder_clear (&builder);
  return TRUE;

fail:
  g_variant_builder_clear (&builder);
  return FALSE;
}

static int
on_device_signal (sd_bus_message *m,
                  void           *user_data,
                  sd_bus_error   *ret_error)
{
  NearbyScannerSdBus *shared = user_data;
  const char *path = sd_bus_message_get_path (m);
  const char *interface;
  Signal signal = { 0 };
  gboolean kept;

  if (path == NULL)
    return 0;

  g_mutex_lock (&shared->mutex);
  kept = shared->adapter_path != NULL && path_is_under (path, shared->adapter_path);
  g_mutex_unlock (&shared->mutex);
  if (!kept)
    return 0;

  if (sd_bus_message_read_basic (m, SD_BUS_TYPE_STRING, &interface) <= 0
      || !g_str_equal (interface, NEARBY_BLUEZ_DEVICE_IFACE)
      || !read_changed (m, &signal)
      || sd_bus_message_read_strv (m, &signal.invalidated) < 0)
    {
      g_debug ("A malformed Device1 PropertiesChanged for %s was ignored", path);
      signal_clear (&signal);
      return 0;
    }
  if (signal.invalidated != NULL && signal.invalidated[0] == NULL)
    g_clear_pointer (&signal.invalidated, g_strfreev);

  /* A still beacon's RSSI that says nothing new goes no further (nearby-scanner-hold.c). */
  signal.time_us = g_get_real_time ();
  if (signal.has_rssi && signal.changed == NULL && signal.invalidated == NULL
      && _nearby_scanner_hold_rssi (shared->hold, path, signal.time_us, signal.rssi))
    {
      shared->held_read = TRUE;
      return 0;
    }

  signal.path = g_strdup (path);
  g_array_append_val (shared->reading, signal);

  g_mutex_lock (&shared->mutex);
  if (!g_hash_table_contains (shared->heard, path))
    {
      g_hash_table_add (shared->heard, g_strdup (path));
      shared->first_read = TRUE;
    }
  g_mutex_unlock (&shared->mutex);

  return 0;
}

/* Reads and dispatches everything the socket holds; FALSE when the connection is gone. */
static gboolean
drain (NearbyScannerSdBus *shared)
{
  int r;

  while ((r = sd_bus_process (shared->bus, NULL)) > 0)
    ;

  return r >= 0;
}

/* The main loop's side */

static gboolean handed_cb (gpointer user_data);

static void
hand_over (NearbyScannerSdBus *shared)
{
  g_mutex_lock (&shared->mutex);
  g_array_append_vals (shared->handed, shared->reading->data, shared->reading->len);
  if (shared->handed_source == NULL)
    {
      shared->handed_source = g_idle_source_new ();
      g_source_set_priority (shared->handed_source, G_PRIORITY_DEFAULT);
      g_source_set_static_name (shared->handed_source, "[nearby] scanner signals");
      g_source_set_callback (shared->handed_source, handed_cb, shared_ref (shared), shared_unref);
      g_source_attach (shared->handed_source, shared->context);
    }
  g_mutex_unlock (&shared->mutex);

  /* The Signals now belong to `handed`. */
  g_array_set_clear_func (shared->reading, NULL);
  g_array_set_size (shared->reading, 0);
  g_array_set_clear_func (shared->reading, signal_clear);
  shared->first_read = FALSE;
}

static GArray *
steal_handed (NearbyScannerSdBus *shared)
{
  GArray *handed;

  g_mutex_lock (&shared->mutex);
  handed = shared->handed;
  shared->handed = g_array_new (FALSE, FALSE, sizeof (Signal));
  g_array_set_clear_func (shared->handed, signal_clear);
  if (shared->handed_source != NULL)
    {
      g_source_destroy (shared->handed_source);
      g_clear_pointer (&shared->handed_source, g_source_unref);
    }
  g_mutex_unlock (&shared->mutex);

  return handed;
}

static void
apply_signals (NearbyScanner *self,
               GArray        *signals)
{
  for (guint i = 0; i < signals->len; i++)
    {
      Signal *signal = &g_array_index (signals, Signal, i);

      /* A beacon's RSSI alone, nearly every signal of a busy room, needs no GVariant. */
      self->advert_time_us = signal->time_us;
      _nearby_scanner_device_advert (self, signal->path, signal->has_rssi, signal->rssi,
                                     signal->changed,
                                     (const char * const *) signal->invalidated);
      self->advert_time_us = 0;
    }
}

static gboolean
handed_cb (gpointer user_data)
{
  NearbyScannerSdBus *shared = user_data;
  g_autoptr(NearbyScanner) self = g_weak_ref_get (&shared->scanner);
  g_autoptr(GArray) signals = steal_handed (shared);

  if (self != NULL)
    apply_signals (self, signals);

  return G_SOURCE_REMOVE;
}

typedef struct {
  NearbyScannerSdBus *shared;
  gboolean            ok;
} Ready;

static gboolean
ready_cb (gpointer user_data)
{
  Ready *ready = user_data;
  g_autoptr(NearbyScanner) self = g_weak_ref_get (&ready->shared->scanner);

  if (self != NULL && self->sdbus == ready->shared)
    _nearby_scanner_sdbus_ready (self, ready->ok);

  return G_SOURCE_REMOVE;
}

static void
ready_free (gpointer data)
{
  Ready *ready = data;

  shared_unref (ready->shared);
  g_free (ready);
}

static void
post_ready (NearbyScannerSdBus *shared,
            gboolean            ok)
{
  Ready *ready = g_new0 (Ready, 1);
  g_autoptr(GSource) source = g_idle_source_new ();

  ready->shared = shared_ref (shared);
  ready->ok = ok;
  g_source_set_priority (source, G_PRIORITY_DEFAULT);
  g_source_set_static_name (source, "[nearby] scanner signals ready");
  g_source_set_callback (source, ready_cb, ready, ready_free);
  g_source_attach (source, shared->context);
}

/* The thread */

static gpointer
reader_thread (gpointer data)
{
  NearbyScannerSdBus *shared = data;
  gint64 deadline = 0;
  int r;

  r = sd_bus_add_match (shared->bus, NULL, DEVICE_SIGNALS_MATCH, on_device_signal, shared);
  if (r < 0)
    g_debug ("Cannot ask for the Device1 signals on an sd-bus connection: %s",
             g_strerror (-r));
  post_ready (shared, r >= 0);

  /* Waiting for AddMatch's reply may have queued signals that no poll would announce. */
  if (r >= 0 && drain (shared) && shared->reading->len > 0)
    {
      hand_over (shared);
      deadline = g_get_monotonic_time () + BATCH_INTERVAL_US;
    }

  while (r >= 0)
    {
      struct pollfd fds[2] = {
        { .fd = shared->stop_fd, .events = POLLIN },
        { .fd = sd_bus_get_fd (shared->bus), .events = sd_bus_get_events (shared->bus) },
      };
      int timeout_ms = -1;
      nfds_t n_fds = 2;
      gint64 now;

      /* Within an interval the socket is not watched: what comes waits for its end. */
      if (deadline != 0)
        {
          now = g_get_monotonic_time ();
          n_fds = 1;
          timeout_ms = deadline > now ? (int) ((deadline - now + 999) / 1000) : 0;
        }

      if (poll (fds, n_fds, timeout_ms) < 0 && errno != EINTR)
        break;
      if (fds[0].revents != 0)
        break;
      if (!drain (shared))
        break;

      now = g_get_monotonic_time ();
      if (shared->reading->len == 0)
        {
          /* Nothing to hand over. While beacons are held, what they send is read when the
           * first hold ends (or a few seconds from now, for one that comes nearer), not each
           * time one of them advertises again; otherwise the socket is watched. */
          if (deadline == 0 || now >= deadline)
            {
              gint64 rest_us = shared->held_read || deadline != 0
                               ? _nearby_scanner_hold_rest_us (shared->hold) : 0;

              deadline = rest_us > 0 ? now + rest_us : 0;
            }
        }
      else if (shared->first_read || (deadline != 0 && now >= deadline))
        {
          hand_over (shared);
          deadline = now + BATCH_INTERVAL_US;
        }
      else if (deadline == 0)
        {
          deadline = now + BATCH_INTERVAL_US;
        }
      shared->held_read = FALSE;
    }

  /* What was read and not handed over goes with the connection. */
  g_array_set_size (shared->reading, 0);
  shared_unref (shared);

  return NULL;
}

/* The scanner's calls */

gboolean
_nearby_scanner_sdbus_start (NearbyScanner *self,
                             const char    *address)
{
  NearbyScannerSdBus *shared;
  g_autoptr(GThread) thread = NULL;
  g_autoptr(GError) error = NULL;
  const char *choice = g_getenv ("NEARBY_SCANNER_SIGNALS");
  sd_bus *bus = NULL;
  int r;

  if (g_strcmp0 (choice, "gdbus") == 0)
    return FALSE;

  r = sd_bus_new (&bus);
  if (r >= 0)
    r = sd_bus_set_address (bus, address);
  if (r >= 0)
    r = sd_bus_set_bus_client (bus, 1);
  if (r >= 0)
    r = sd_bus_set_description (bus, "nearby-scanner");
  if (r >= 0)
    r = sd_bus_start (bus);
  if (r < 0)
    {
      g_debug ("No sd-bus connection for the Device1 signals (%s): through GDBus",
               g_strerror (-r));
      sd_bus_unref (bus);
      return FALSE;
    }

  shared = g_atomic_rc_box_new0 (NearbyScannerSdBus);
  g_mutex_init (&shared->mutex);
  shared->context = g_main_context_ref_thread_default ();
  g_weak_ref_init (&shared->scanner, self);
  shared->bus = bus;
  shared->stop_fd = eventfd (0, EFD_CLOEXEC | EFD_NONBLOCK);
  shared->hold = _nearby_scanner_hold_ref (self->hold);
  shared->reading = g_array_new (FALSE, FALSE, sizeof (Signal));
  g_array_set_clear_func (shared->reading, signal_clear);
  shared->handed = g_array_new (FALSE, FALSE, sizeof (Signal));
  g_array_set_clear_func (shared->handed, signal_clear);
  shared->heard = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  thread = shared->stop_fd >= 0
           ? g_thread_try_new ("nearby-signals", reader_thread, shared_ref (shared), &error)
           : NULL;
  if (thread == NULL)
    {
      g_debug ("No thread for the Device1 signals: through GDBus");
      if (error != NULL)
        shared_unref (shared);   /* the thread's reference */
      shared_unref (shared);
      return FALSE;
    }

  self->sdbus = shared;
  return TRUE;
}

void
_nearby_scanner_sdbus_stop (NearbyScanner *self)
{
  NearbyScannerSdBus *shared = g_steal_pointer (&self->sdbus);
  g_autoptr(GArray) signals = NULL;
  guint64 one = 1;

  if (shared == NULL)
    return;

  /* The thread ends on its own and drops its reference; nothing waits for it. */
  if (write (shared->stop_fd, &one, sizeof one) != sizeof one)
    g_warning ("Cannot stop the scanner's signal thread: %s", g_strerror (errno));

  g_mutex_lock (&shared->mutex);
  g_clear_pointer (&shared->adapter_path, g_free);
  g_mutex_unlock (&shared->mutex);
  signals = steal_handed (shared);
  shared_unref (shared);
}

void
_nearby_scanner_sdbus_follow (NearbyScanner *self,
                              const char    *adapter_path)
{
  NearbyScannerSdBus *shared = self->sdbus;
  g_autoptr(GArray) signals = steal_handed (shared);

  /* What was handed over before the change belongs to the old adapter or bluetoothd. */
  apply_signals (self, signals);

  g_mutex_lock (&shared->mutex);
  g_free (shared->adapter_path);
  shared->adapter_path = g_strdup (adapter_path);
  g_hash_table_remove_all (shared->heard);
  g_mutex_unlock (&shared->mutex);
}

void
_nearby_scanner_sdbus_flush (NearbyScanner *self)
{
  g_autoptr(GArray) signals = steal_handed (self->sdbus);

  apply_signals (self, signals);
}

void
_nearby_scanner_sdbus_forget (NearbyScanner *self,
                              const char    *path)
{
  g_mutex_lock (&self->sdbus->mutex);
  g_hash_table_remove (self->sdbus->heard, path);
  g_mutex_unlock (&self->sdbus->mutex);
}

#else /* !HAVE_SD_BUS */

gboolean
_nearby_scanner_sdbus_start (NearbyScanner *self,
                             const char    *address)
{
  return FALSE;
}

void
_nearby_scanner_sdbus_stop (NearbyScanner *self)
{
}

void
_nearby_scanner_sdbus_follow (NearbyScanner *self,
                              const char    *adapter_path)
{
}

void
_nearby_scanner_sdbus_flush (NearbyScanner *self)
{
}

void
_nearby_scanner_sdbus_forget (NearbyScanner *self,
                              const char    *path)
{
}

#endif /* HAVE_SD_BUS */
