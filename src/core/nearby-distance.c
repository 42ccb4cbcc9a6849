/* nearby-distance.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <math.h>

#include "nearby-distance.h"
#include "nearby-frame.h"

/* Received power is about 41 dB below the calibrated 0 m figure at 1 m (Eddystone spec). */
#define LOSS_AT_ONE_METRE 41

double
nearby_distance_estimate (int    tx_power_0m,
                          int    rssi,
                          double path_loss_exponent)
{
  if (tx_power_0m < NEARBY_TX_POWER_MIN || tx_power_0m > NEARBY_TX_POWER_MAX)
    return -1.0;
  if (rssi == 127 || rssi == 0 || rssi < -127 || rssi > 20)
    return -1.0;
  if (!(path_loss_exponent > 0.0))
    return -1.0;

  return pow (10.0, (tx_power_0m - LOSS_AT_ONE_METRE - rssi) / (10.0 * path_loss_exponent));
}
