/* nearby-scanner-private.h: the scanner's instance and the calls between its three files
 *
 * nearby-scanner.c follows bluetoothd and the adapter, nearby-scanner-discovery.c keeps a
 * discovery session going, nearby-scanner-devices.c turns device properties into sightings.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "nearby-scanner.h"

G_BEGIN_DECLS

#define SCANNER_CALL_TIMEOUT_MS 10000

typedef struct _NearbyScannerBatch NearbyScannerBatch;
typedef struct _NearbyScannerSdBus NearbyScannerSdBus;

struct _NearbyScanner
{
  GObject             parent_instance;

  char               *adapter_name;
  guint               stall_timeout_ms;
  guint               retry_interval_ms;
  guint               retry_interval_max_ms;

  GCancellable       *cancellable;
  GDBusObjectManager *manager;
  GDBusConnection    *connection;
  GDBusProxy         *adapter;
  char               *owner;     /* the bluetoothd our adapter and session belong to */
  GHashTable         *devices;   /* object path -> Device, see nearby-scanner-devices.c */
  char               *bus_address; /* the system bus's */
  /* Device1 signals off the main loop: on an sd-bus connection (nearby-scanner-sdbus.c) or,
   * without one, taken off the GDBus connection (nearby-scanner-batch.c). */
  NearbyScannerSdBus *sdbus;
  NearbyScannerBatch *batch;
  guint               batch_filter_id;
  gboolean            signals_ready;  /* the signals are followed, discovery may start */

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

/* Some of a Device1's properties changed, as a PropertiesChanged said (@invalidated may be
 * NULL). */
void        _nearby_scanner_device_properties_changed (NearbyScanner      *self,
                                                       GDBusProxy         *proxy,
                                                       GVariant           *changed,
                                                       const char * const *invalidated);

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
/* The scanner's GDBus connection asks bluetoothd for its ObjectManager and Adapter1 signals
 * only, rather than all of them as GDBusObjectManagerClient did for @owner. */
void        _nearby_scanner_narrow_gdbus_matches     (NearbyScanner   *self);
void        _nearby_scanner_remove_gdbus_owner_match (NearbyScanner   *self,
                                                      const char      *owner);

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

/* Whether anyone listens to "other-device", and emitting it for @proxy. */
gboolean    _nearby_scanner_wants_other_devices (NearbyScanner        *self);
void        _nearby_scanner_emit_other_device   (NearbyScanner        *self,
                                                 GDBusProxy           *proxy,
                                                 const char           *address,
                                                 int                   rssi);

/* nearby-scanner-devices.c */
/* For self->devices: object path -> what that device sent. */
GHashTable *_nearby_scanner_devices_new         (void);
/* A Device1 appeared, with the properties it has. */
void        _nearby_scanner_device_added        (NearbyScanner        *self,
                                                 GDBusProxy           *proxy);
/* Some of a Device1's properties changed; the others are NULL. */
void        _nearby_scanner_device_changed      (NearbyScanner        *self,
                                                 GDBusProxy           *proxy,
                                                 GVariant             *rssi,
                                                 GVariant             *service_data,
                                                 GVariant             *manufacturer_data,
                                                 GVariant             *uuids,
                                                 gboolean              rssi_invalidated);
/* The same for a signal read without GVariants for its RSSI (@has_rssi, @rssi); @proxy may be
 * NULL, and is then looked up only when the device is not yet known as a beacon. */
void        _nearby_scanner_device_advert       (NearbyScanner        *self,
                                                 const char           *path,
                                                 GDBusProxy           *proxy,
                                                 gboolean              has_rssi,
                                                 int                   rssi,
                                                 GVariant             *service_data,
                                                 GVariant             *manufacturer_data,
                                                 GVariant             *uuids,
                                                 gboolean              rssi_invalidated);
/* Whether @path sent a beacon frame (and so is followed without its proxy). */
gboolean    _nearby_scanner_device_is_beacon    (NearbyScanner        *self,
                                                 const char           *path);

G_END_DECLS
