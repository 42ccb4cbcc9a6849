/* nearby-cli-scan-report.h: what `nearby scan --all` shows of a captured advertising report
 * without a beacon (a phone, a watch, a lamp)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

#include "nearby-btsnoop.h"

G_BEGIN_DECLS

/* The JSON object of @report, without its closing newline: "time" (@time_text), "address",
 * "address_type", "rssi" (null when unknown), "distance_m": null, "protocol": null, "raw" (the
 * advertising data in hex), "ad" (each AD structure: "type" and "data" in hex, in order),
 * "company_id" (of the first manufacturer data) when there is one, and "service_uuids" (the
 * 16-, 32- and 128-bit UUIDs of its UUID lists and service data). */
char *nearby_cli_scan_report_json     (const NearbyBtsnoopReport *report,
                                       const char                *time_text,
                                       int                        rssi);

/* The table's words for it: "no beacon: company 0x004c, services 180d" */
char *nearby_cli_scan_report_describe (const NearbyBtsnoopReport *report);

G_END_DECLS
