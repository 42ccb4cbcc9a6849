/* nearby-cli-scan-filter.h: which sightings `nearby scan` shows: --all and the filters
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

#include "nearby-source.h"

G_BEGIN_DECLS

/* Lives on the subcommand's stack; clear it with nearby_cli_scan_filter_clear(). */
typedef struct {
  gboolean   all;              /* --all: also invalid frames, hidden beacons, frames without URL */
  gboolean   has_min_rssi;
  int        min_rssi;         /* dBm */
  guint      protocols;        /* bit (1 << NearbyProtocol) per --protocol; 0: any */
  GPtrArray *addresses;        /* upper-case "C0:FF:EE:00:00:01", NULL: any */
  char      *url_contains;     /* in lower case; NULL: any */
} NearbyCliScanFilter;

/* Reads the options' values as the user typed them (each may be NULL). On a bad value returns
 * FALSE with a message that names the option, for a usage error. */
gboolean nearby_cli_scan_filter_init    (NearbyCliScanFilter  *filter,
                                         gboolean              all,
                                         const char           *min_rssi,
                                         char                **protocols,
                                         char                **addresses,
                                         const char           *url_contains,
                                         char                **message);
void     nearby_cli_scan_filter_clear   (NearbyCliScanFilter  *filter);

/* Whether @sighting is shown, in the table and in --json alike. */
gboolean nearby_cli_scan_filter_matches (const NearbyCliScanFilter *filter,
                                         const NearbySighting      *sighting);

G_END_DECLS
