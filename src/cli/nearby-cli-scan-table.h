/* nearby-cli-scan-table.h: the table `nearby scan` prints: one row per device and frame kind,
 * rows that fade and leave as the app's do
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

#include "nearby-source.h"

G_BEGIN_DECLS

/* How long an unheard device stays in the table, as the app's default "expiry-seconds". */
#define NEARBY_CLI_SCAN_EXPIRY_DEFAULT_S 30

typedef struct _NearbyCliScanTable NearbyCliScanTable;

/* Rows of devices not heard for @expiry_us leave; with @show_fading they are shown faint (in a
 * terminal that allows it) from a third of that time on, as the app fades them. */
NearbyCliScanTable *nearby_cli_scan_table_new      (gint64                expiry_us,
                                                    gboolean              show_fading);
void                nearby_cli_scan_table_free     (NearbyCliScanTable   *table);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (NearbyCliScanTable, nearby_cli_scan_table_free)

/* Updates (or adds) the row of the sighting's device and frame kind. */
void                nearby_cli_scan_table_remember (NearbyCliScanTable   *table,
                                                    const NearbySighting *sighting);
/* Updates (or adds) the row of a device heard without a beacon frame (scan --all over a
 * capture), which says @what. */
void                nearby_cli_scan_table_remember_other (NearbyCliScanTable *table,
                                                          const char         *address,
                                                          int                 rssi,
                                                          gint64              time_us,
                                                          const char         *what);
/* Removes the rows not heard for the expiry time at @now_us. */
void                nearby_cli_scan_table_expire   (NearbyCliScanTable   *table,
                                                    gint64                now_us);
guint               nearby_cli_scan_table_get_n_rows (NearbyCliScanTable *table);
/* The heading and the rows at @now_us (after expiring what left), nearest first; @faint: mark
 * fading rows with the SGR "faint" attribute. */
void                nearby_cli_scan_table_format   (NearbyCliScanTable   *table,
                                                    gint64                now_us,
                                                    gboolean              faint,
                                                    GString              *out);

/* The estimated distance of @sighting in metres; negative when unknown. */
double              nearby_cli_sighting_distance   (const NearbySighting *sighting);

/* Whether this process may colour its standard output: it is a terminal and NO_COLOR is not
 * set (https://no-color.org). */
gboolean            nearby_cli_stdout_has_color    (void);

G_END_DECLS
