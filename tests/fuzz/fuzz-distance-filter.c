/* fuzz-distance-filter.c: any sequence of samples keeps the RSSI filter's results sane
 *
 * Input: one byte for the path-loss exponent, then records of a signed 16-bit step in
 * milliseconds (possibly backwards), an RSSI and a calibrated power (signed bytes).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "nearby-distance.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  NearbyDistanceConfig config;
  NearbyRssiFilter filter;
  int64_t time_us = 0;
  bool ever_known_tx = false;

  if (size < 1)
    return 0;

  nearby_distance_config_init (&config);
  config.path_loss_exponent = 1.0 + data[0] / 64.0;
  nearby_rssi_filter_init (&filter, &config);

  for (size_t i = 1; i + 4 <= size; i += 4)
    {
      int16_t step_ms = (int16_t) (data[i] | data[i + 1] << 8);
      int rssi = (int8_t) data[i + 2];
      int tx_power = (int8_t) data[i + 3];
      bool used;
      double smoothed;
      double distance;
      NearbyBucket bucket;

      time_us += step_ms * 1000;
      used = nearby_rssi_filter_update (&filter, time_us, rssi, tx_power);
      if (used != nearby_rssi_is_known (rssi))
        abort ();
      if (used && tx_power >= -100 && tx_power <= 20)
        ever_known_tx = true;

      smoothed = nearby_rssi_filter_get_rssi (&filter);
      distance = nearby_rssi_filter_get_distance (&filter);
      bucket = nearby_rssi_filter_get_bucket (&filter);

      if (bucket < NEARBY_BUCKET_UNKNOWN || bucket > NEARBY_BUCKET_FAR)
        abort ();
      if (!nearby_rssi_filter_has_value (&filter))
        {
          if (bucket != NEARBY_BUCKET_UNKNOWN || distance >= 0)
            abort ();
          continue;
        }

      /* Every value shown is an average of samples a radio could report. */
      if (!isfinite (smoothed) || smoothed < -127.000001 || smoothed > 20.000001)
        abort ();
      if (ever_known_tx != (distance >= 0))
        abort ();
      if (distance >= 0 && (!isfinite (distance) || distance == 0))
        abort ();
    }

  return 0;
}
