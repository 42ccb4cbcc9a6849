/* nearby-cli-scan-report.h: what `nearby scan --all` shows of a device heard without a beacon
 * frame (a phone, a watch, a lamp), from a capture's advertising report or from bluetoothd
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

#include "nearby-btsnoop.h"

G_BEGIN_DECLS

typedef struct {
  char      *address;
  char      *address_type;  /* "public", "random-static", "resolvable", "non-resolvable", ... */
  int        rssi;          /* NEARBY_RSSI_UNKNOWN when not known */
  gint64     time_us;
  GBytes    *raw;           /* the whole advertising data; NULL when bluetoothd kept none */
  GPtrArray *ad;            /* "type" and "data" of each AD structure, as JSON objects */
  int        company_id;    /* of the first manufacturer data; -1: none */
  GPtrArray *uuids;         /* service UUIDs: "180d", or the 32- or 128-bit form */
} NearbyCliScanOther;

/* From a report of a btsnoop capture. */
NearbyCliScanOther *nearby_cli_scan_other_new_for_report     (const NearbyBtsnoopReport *report,
                                                              int                        rssi);
/* From the Device1 properties the scanner's "other-device" passes (a{sv}). */
NearbyCliScanOther *nearby_cli_scan_other_new_for_properties (const char                *address,
                                                              int                        rssi,
                                                              gint64                     time_us,
                                                              GVariant                  *properties);
void                nearby_cli_scan_other_free               (NearbyCliScanOther        *other);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (NearbyCliScanOther, nearby_cli_scan_other_free)

/* Its JSON object, without a newline: "time" (@time_text), "address", "address_type", "rssi"
 * (null when unknown), "distance_m": null, "protocol": null, "raw" (null when unknown), "ad",
 * "company_id" when there is one, and "service_uuids". */
char *nearby_cli_scan_other_to_json  (const NearbyCliScanOther *other,
                                      const char               *time_text);
/* The table's words for it: "no beacon: company 0x004c, services 180d". */
char *nearby_cli_scan_other_describe (const NearbyCliScanOther *other);

G_END_DECLS
