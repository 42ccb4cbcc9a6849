/* nearby-distance.h: how far away a beacon seems
 *
 * Pure: no GLib, no I/O. Times are in microseconds from any monotonic origin.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define NEARBY_PATH_LOSS_DEFAULT 2.0

/* Metres from the calibrated power at 0 m and a received RSSI:
 * d = 10^((tx0 - 41 - rssi) / (10 n)). Returns a negative number when either input is unknown
 * (tx outside -100..+20, RSSI 127 or 0, or n not positive). */
double nearby_distance_estimate (int    tx_power_0m,
                                 int    rssi,
                                 double path_loss_exponent);

#ifdef __cplusplus
}
#endif
