/* nearby-configurator.h: read and change a beacon's configuration over a Bluetooth connection
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "nearby-frame.h"

G_BEGIN_DECLS

/* NearbyConfigurator: one beacon, reached through BlueZ by its address.
 *
 * An operation connects (Device1.Connect, then waits for ServicesResolved), finds the Eddystone
 * GATT configuration service (a3c87500-…) or else UriBeacon's (ee0c2080-…), unlocks the beacon
 * when a key is given, reads its configuration, writes the changes, reads it again, and
 * disconnects. A device runs one operation at a time, across every configurator of the process.
 * A write counts as done only once the beacon has answered it: a link that drops, a bluetoothd
 * that stops or a beacon that does not answer in time makes it an error. */

#define NEARBY_CONFIGURATOR_ERROR (nearby_configurator_error_quark ())

typedef enum {
  NEARBY_CONFIGURATOR_ERROR_INVALID_INPUT,    /* refused before connecting (the URL does not fit) */
  NEARBY_CONFIGURATOR_ERROR_NO_SERVICE,       /* bluetoothd is not running */
  NEARBY_CONFIGURATOR_ERROR_NOT_FOUND,        /* bluetoothd knows no device with this address */
  NEARBY_CONFIGURATOR_ERROR_BUSY,             /* an operation on this device is under way */
  NEARBY_CONFIGURATOR_ERROR_CONNECT_FAILED,
  NEARBY_CONFIGURATOR_ERROR_NOT_CONFIGURABLE, /* connected, but neither service is there */
  NEARBY_CONFIGURATOR_ERROR_LOCKED,           /* a key is needed */
  NEARBY_CONFIGURATOR_ERROR_WRONG_KEY,
  NEARBY_CONFIGURATOR_ERROR_NOT_PERMITTED,
  NEARBY_CONFIGURATOR_ERROR_INVALID_VALUE,    /* outside the beacon's capabilities or length */
  NEARBY_CONFIGURATOR_ERROR_DISCONNECTED,     /* the link dropped: the operation was not done */
  NEARBY_CONFIGURATOR_ERROR_BLUETOOTH_GONE,   /* bluetoothd stopped: the operation was not done */
  NEARBY_CONFIGURATOR_ERROR_TIMED_OUT,
  NEARBY_CONFIGURATOR_ERROR_FAILED,
} NearbyConfiguratorError;

typedef enum {
  NEARBY_CONFIG_SERVICE_EDDYSTONE,
  NEARBY_CONFIG_SERVICE_URIBEACON,
} NearbyConfigService;

#define NEARBY_CONFIG_KEY_LEN        16
#define NEARBY_CONFIG_TX_LEVELS_MAX  32

/* What was read from a beacon. When it is locked and no key opened it, only the service and
 * the lock state are known (readable is FALSE). */
typedef struct {
  NearbyConfigService service;
  gboolean            locked;
  gboolean            readable;
  guint8              lock_state;        /* Eddystone 0x00-0x02; UriBeacon 0 or 1 */

  /* Both: what the (active) slot broadcasts, decoded; kind NONE for an empty slot. */
  NearbyFrame         frame;
  guint               interval_ms;       /* UriBeacon: the beacon period (0: not broadcasting) */
  int                 tx_power;          /* Eddystone: radio tx power; UriBeacon: advertised level
                                          * of the current tx power mode */
  int                 tx_levels[NEARBY_CONFIG_TX_LEVELS_MAX];
  guint               n_tx_levels;

  /* Eddystone */
  guint8              version;
  guint8              max_slots;
  guint8              max_eid_slots;
  guint8              capabilities;      /* 0x01 per-slot interval, 0x02 per-slot tx power */
  guint16             frame_types;       /* 0x01 UID, 0x02 URL, 0x04 TLM, 0x08 EID */
  guint8              active_slot;
  int                 advertised_tx_power;
  gboolean            can_be_non_connectable;
  gboolean            has_public_key;    /* read when the beacon lists EID among its frames */
  guint8              public_key[32];    /* the beacon's ECDH public key (Curve25519) */
  /* An EID slot (frame.kind EID): what registering the beacon with a resolver takes. */
  guint8              eid_exponent;      /* a new EID every 2^eid_exponent seconds */
  guint32             eid_clock;         /* the beacon's time counter, in seconds */
  gboolean            has_identity_key;  /* read wrapped and unwrapped with the lock key, which
                                          * takes the key given (FALSE without one) */
  guint8              identity_key[16];

  /* UriBeacon */
  guint8              flags;
  guint8              tx_power_mode;     /* 0 lowest … 3 high; index into tx_levels */
} NearbyBeaconConfig;

/* What to change; a field left at its default changes nothing. */
typedef struct {
  int          slot;                     /* -1: the active slot as the beacon starts (0) */
  const char  *url;
  gboolean     set_uid;
  guint8       uid[16];                  /* namespace (10 bytes) then instance (6) */
  gboolean     set_tlm;                  /* Eddystone: the slot broadcasts telemetry */
  gboolean     clear_slot;               /* Eddystone: the slot broadcasts nothing */
  gboolean     set_eid;                  /* Eddystone: the slot broadcasts EID, its identity key
                                          * made by key exchange with this resolver */
  guint8       eid_resolver_key[32];     /* the resolver's ECDH public key (Curve25519) */
  guint8       eid_exponent;             /* 0-15 */
  gboolean     set_advertised_tx_power;  /* Eddystone: the power written into the frames */
  int          advertised_tx_power;
  gboolean     set_remain_connectable;   /* Eddystone */
  gboolean     remain_connectable;
  gboolean     set_flags;                /* UriBeacon: the flags byte */
  guint8       flags;
  gboolean     set_tx_levels;            /* UriBeacon: the advertised power of each mode */
  int          tx_levels[4];
  gboolean     set_tx_mode;              /* UriBeacon: which of the four levels it uses */
  guint8       tx_mode;
  gboolean     set_tx_power;
  int          tx_power;
  gboolean     set_interval;
  guint        interval_ms;
  gboolean     has_key;
  guint8       key[NEARBY_CONFIG_KEY_LEN];
  gboolean     set_new_key;              /* lock, with this key, once the rest is written */
  guint8       new_key[NEARBY_CONFIG_KEY_LEN];
  gboolean     reset;                    /* factory reset, before anything else */
} NearbyBeaconChanges;

#define NEARBY_BEACON_CHANGES_INIT { .slot = -1 }

typedef struct {
  NearbyBeaconConfig *before;
  NearbyBeaconConfig *after;             /* NULL when nothing was to be written */
} NearbyConfigureResult;

void                   nearby_configure_result_free (NearbyConfigureResult *result);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (NearbyConfigureResult, nearby_configure_result_free)

const char            *nearby_config_service_to_string (NearbyConfigService service);
/* Whether @changes writes anything. */
gboolean               nearby_beacon_changes_write  (const NearbyBeaconChanges *changes);
/* Refuses what cannot be written to any beacon, before connecting: a URL that no frame can carry,
 * or that is too long (saying by how many bytes). */
gboolean               nearby_beacon_changes_check  (const NearbyBeaconChanges *changes,
                                                     GError                   **error);

#define NEARBY_TYPE_CONFIGURATOR (nearby_configurator_get_type ())
G_DECLARE_FINAL_TYPE (NearbyConfigurator, nearby_configurator, NEARBY, CONFIGURATOR, GObject)

GQuark                 nearby_configurator_error_quark (void);

/* @address: "C0:FF:EE:00:00:01"; @adapter: "hci0", or NULL for any. */
NearbyConfigurator    *nearby_configurator_new         (const char          *address,
                                                        const char          *adapter);
const char            *nearby_configurator_get_address (NearbyConfigurator  *self);
/* How long a connection (Connect and the services' discovery) and each read or write may take,
 * in milliseconds (20 000 and 10 000 by default). */
void                   nearby_configurator_set_timeouts (NearbyConfigurator *self,
                                                         guint               connect_ms,
                                                         guint               operation_ms);

/* Reads the configuration and, when @changes writes something, writes it and reads it back.
 * @changes is copied. */
void                   nearby_configurator_run_async   (NearbyConfigurator        *self,
                                                        const NearbyBeaconChanges *changes,
                                                        GCancellable              *cancellable,
                                                        GAsyncReadyCallback        callback,
                                                        gpointer                   user_data);
NearbyConfigureResult *nearby_configurator_run_finish  (NearbyConfigurator  *self,
                                                        GAsyncResult        *result,
                                                        GError             **error);

G_END_DECLS
