/* nearby-scanner-private.h: the scanner's instance and the calls between its files
 *
 * nearby-scanner.c chooses and follows the adapter, nearby-scanner-objects.c follows bluetoothd's
 * objects, nearby-scanner-discovery.c keeps a discovery session going, nearby-scanner-devices.c
 * turns device properties into sightings, nearby-scanner-hold.c holds back the adverts of still
 * beacons, nearby-scanner-sdbus.c and nearby-scanner-batch.c read the Device1 signals.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "nearby-scanner.h"

G_BEGIN_DECLS

#define SCANNER_CALL_TIMEOUT_MS 10000

typedef struct _NearbyScannerBatch NearbyScannerBatch;
typedef struct _NearbyScannerSdBus NearbyScannerSdBus;
typedef struct _NearbyScannerHold NearbyScannerHold;

struct _NearbyScanner
{
  GObject             parent_instance;

  char               *adapter_name;
  guint               stall_timeout_ms;
  guint               retry_interval_ms;
  guint               retry_interval_max_ms;

  GCancellable       *cancellable;
  GDBusConnection    *connection;
  GDBusProxy         *adapter;
  char               *owner;     /* the bluetoothd our adapter and session belong to */
  /* Every Device1 under the adapter: object path -> Device, see nearby-scanner-devices.c */
  GHashTable         *devices;

  /* bluetoothd's objects (nearby-scanner-objects.c) */
  guint               signal_ids[3];
  guint               name_watch_id;
  gboolean            name_known;     /* the name watcher answered */
  char               *name_owner;     /* org.bluez's owner now; NULL: none */
  gboolean            objects_ready;  /* GetManagedObjects answered for name_owner */
  GCancellable       *objects_cancellable;
  GCancellable       *replay_cancellable;
  GHashTable         *adapters;       /* object path -> GDBusProxy of its Adapter1 */
  GVariant           *known_objects;  /* while an answer to GetManagedObjects is applied */
  char               *bus_address; /* the system bus's */
  /* Device1 signals off the main loop: on an sd-bus connection (nearby-scanner-sdbus.c) or,
   * without one, taken off the GDBus connection (nearby-scanner-batch.c). */
  NearbyScannerSdBus *sdbus;
  NearbyScannerBatch *batch;
  guint               batch_filter_id;
  guint               batch_signal_id;
  gboolean            signals_ready;  /* the signals are followed, discovery may start */

  /* Still beacons' adverts held back (nearby-scanner-hold.c). */
  NearbyScannerHold  *hold;
  gboolean            hold_steady;
  guint               hold_stale_ms;
  guint               hold_expiry_ms;
  /* When the advert being handled was read (g_get_real_time()); 0: now. */
  gint64              advert_time_us;

  NearbySourceState   state;
  char               *state_message;

  /* One discovery session attempt: SetDiscoveryFilter, StartDiscovery. Cancelling it makes
   * late replies harmless when the adapter or bluetoothd changes under us. */
  GCancellable       *session_cancellable;
  gboolean            arming;
  gboolean            session_active;
  gboolean            seen_discovering;
  gboolean            stopped;
  guint               retry_source;
  guint               retry_delay_ms;
  guint               discovering_check_source;
  guint               restart_count;

  guint               watchdog_source;
  gint64              last_activity_us;
  guint               stall_factor;
};

/* nearby-scanner.c */
void        _nearby_scanner_set_state           (NearbyScanner        *self,
                                                 NearbySourceState     state,
                                                 const char           *message);
/* A boolean property as bluetoothd last published it, or @fallback when it is missing or of
 * another type. */
gboolean    _nearby_scanner_proxy_get_boolean   (GDBusProxy           *proxy,
                                                 const char           *name,
                                                 gboolean              fallback);
/* Works out the state from what bluetoothd publishes, and starts discovery when it can. */
void        _nearby_scanner_refresh             (NearbyScanner        *self);
/* The adapter in use, or its bluetoothd, went away. */
void        _nearby_scanner_drop_adapter        (NearbyScanner        *self);
/* The adapter in use published @changed (a{sv}); its proxy's cache is up to date. */
void        _nearby_scanner_adapter_changed     (NearbyScanner        *self,
                                                 GVariant             *changed);

/* nearby-scanner-objects.c */
/* Follows InterfacesAdded, InterfacesRemoved and the adapters' PropertiesChanged on
 * self->connection. */
void        _nearby_scanner_objects_start       (NearbyScanner        *self);
void        _nearby_scanner_objects_stop        (NearbyScanner        *self);
/* The Device1 signals are followed: sets self->signals_ready, and bluetoothd's objects are
 * asked for. */
void        _nearby_scanner_signals_ready       (NearbyScanner        *self);
/* The adapter to use among self->adapters (a new reference), or NULL. */
GDBusProxy *_nearby_scanner_find_adapter        (NearbyScanner        *self);
/* Adds the devices bluetoothd already has under the adapter just chosen. */
void        _nearby_scanner_replay_devices      (NearbyScanner        *self);
void        _nearby_scanner_cancel_replay       (NearbyScanner        *self);

/* nearby-scanner-batch.c */
/* Takes the Device1 PropertiesChanged of the followed bluetoothd and adapter off the main loop
 * from now on (self->connection is set): on an sd-bus connection when there is one, unless
 * @gdbus_only. self->signals_ready is set when they are followed. */
void        _nearby_scanner_batch_start         (NearbyScanner        *self,
                                                 gboolean              gdbus_only);
void        _nearby_scanner_batch_stop          (NearbyScanner        *self);
/* Which bluetoothd (its unique name) and adapter the signals taken are from; NULL: none. What
 * was taken until then is applied first. */
void        _nearby_scanner_batch_follow        (NearbyScanner        *self,
                                                 const char           *owner,
                                                 const char           *adapter_path);
/* Applies what was taken so far, now: before an object or interface comes or goes, so that
 * signals apply in the order bluetoothd sent them. */
void        _nearby_scanner_batch_flush         (NearbyScanner        *self);
/* @path went away: its next signal is a first one again. */
void        _nearby_scanner_batch_forget        (NearbyScanner        *self,
                                                 const char           *path);

/* The sd-bus connection asked for the Device1 signals, or could not (@ok FALSE). */
void        _nearby_scanner_sdbus_ready         (NearbyScanner        *self,
                                                 gboolean              ok);

/* nearby-scanner-sdbus.c, called by nearby-scanner-batch.c's functions when self->sdbus is set */
/* FALSE when there is no sd-bus (not built with libsystemd, NEARBY_SCANNER_SIGNALS=gdbus, or it
 * cannot connect to @address); otherwise self->sdbus is set and _nearby_scanner_sdbus_ready()
 * follows. */
gboolean    _nearby_scanner_sdbus_start         (NearbyScanner        *self,
                                                 const char           *address);
void        _nearby_scanner_sdbus_stop          (NearbyScanner        *self);
void        _nearby_scanner_sdbus_follow        (NearbyScanner        *self,
                                                 const char           *adapter_path);
void        _nearby_scanner_sdbus_flush         (NearbyScanner        *self);
void        _nearby_scanner_sdbus_forget        (NearbyScanner        *self,
                                                 const char           *path);

/* nearby-scanner-discovery.c */
void        _nearby_scanner_begin_session       (NearbyScanner        *self,
                                                 gboolean              stop_first);
void        _nearby_scanner_end_session         (NearbyScanner        *self);
void        _nearby_scanner_schedule_watchdog   (NearbyScanner        *self,
                                                 guint                 delay_ms);
/* The adapter's Discovering property changed. */
void        _nearby_scanner_discovering_changed (NearbyScanner        *self,
                                                 gboolean              discovering);
/* Calls @method of the Adapter1 interface of the adapter in use. */
void        _nearby_scanner_call_adapter        (NearbyScanner        *self,
                                                 const char           *method,
                                                 GVariant             *parameters,
                                                 GCancellable         *cancellable,
                                                 GAsyncReadyCallback   callback,
                                                 gpointer              user_data);

/* Whether anyone listens to "other-device", and emitting it (@described: a{sv}). */
gboolean    _nearby_scanner_wants_other_devices (NearbyScanner        *self);
void        _nearby_scanner_emit_other_device   (NearbyScanner        *self,
                                                 const char           *address,
                                                 int                   rssi,
                                                 GVariant             *described);

/* nearby-scanner-devices.c */
/* For self->devices: object path -> what that device is and sent. */
GHashTable *_nearby_scanner_devices_new         (void);
/* A Device1 appeared, with its properties (a{sv}). */
void        _nearby_scanner_device_added        (NearbyScanner        *self,
                                                 const char           *path,
                                                 GVariant             *properties);
/* Some of a Device1's properties changed: its RSSI (@has_rssi, @rssi), the others in
 * @changed (a{sv}; NULL when none), @invalidated may be NULL. */
void        _nearby_scanner_device_advert       (NearbyScanner        *self,
                                                 const char           *path,
                                                 gboolean              has_rssi,
                                                 int                   rssi,
                                                 GVariant             *changed,
                                                 const char * const   *invalidated);
/* The same with the RSSI in @changed, as a PropertiesChanged says it. */
void        _nearby_scanner_device_properties_changed (NearbyScanner      *self,
                                                       const char         *path,
                                                       GVariant           *changed,
                                                       const char * const *invalidated);
/* Whether @path sent a beacon frame. */
gboolean    _nearby_scanner_device_is_beacon    (NearbyScanner        *self,
                                                 const char           *path);
/* The adapter was powered off: every device's next frame is a first one again. */
void        _nearby_scanner_devices_forget_frames (NearbyScanner      *self);

/* nearby-scanner-hold.c */
void        _nearby_scanner_hold_init           (NearbyScanner        *self);
NearbyScannerHold *_nearby_scanner_hold_new     (void);
NearbyScannerHold *_nearby_scanner_hold_ref     (NearbyScannerHold    *hold);
void        _nearby_scanner_hold_unref          (NearbyScannerHold    *hold);
/* How long an advert that says nothing new is held (0: none is); forgets every device. */
void        _nearby_scanner_hold_set_time       (NearbyScannerHold    *hold,
                                                 gint64                hold_us);
/* Whether an advert of @path that says nothing new but its @rssi, read at @time_us
 * (g_get_real_time()), is held back; from any thread. */
gboolean    _nearby_scanner_hold_rssi           (NearbyScannerHold    *hold,
                                                 const char           *path,
                                                 gint64                time_us,
                                                 int                   rssi);
/* An advert of @path, read at @time_us with @rssi, was passed on: its hold starts. */
void        _nearby_scanner_hold_passed         (NearbyScannerHold    *hold,
                                                 const char           *path,
                                                 gint64                time_us,
                                                 int                   rssi);
/* @path (NULL: every device) went away or was forgotten. */
void        _nearby_scanner_hold_forget         (NearbyScannerHold    *hold,
                                                 const char           *path);
/* How long, from now, until the first device held ends its hold (at most a few seconds); 0
 * when none is held. */
gint64      _nearby_scanner_hold_rest_us        (NearbyScannerHold    *hold);

G_END_DECLS
