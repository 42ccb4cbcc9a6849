/* test-distance.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <glib.h>

#include "nearby-distance.h"

/* A beacon calibrated at -20 dBm (0 m) is heard at -61 dBm one metre away. */
static void
test_estimate_path_loss (void)
{
  g_assert_cmpfloat_with_epsilon (nearby_distance_estimate (-20, -61, 2.0), 1.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (nearby_distance_estimate (-20, -81, 2.0), 10.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (nearby_distance_estimate (-20, -81, 4.0), 3.1622776601683795, 1e-9);
}

static void
test_estimate_unknown (void)
{
  /* RSSI 127 is BlueZ's "not available"; 0 is what it sets on StopDiscovery. */
  g_assert_cmpfloat (nearby_distance_estimate (-20, 127, 2.0), <, 0.0);
  g_assert_cmpfloat (nearby_distance_estimate (-20, 0, 2.0), <, 0.0);
  /* Calibrated power outside -100..+20 is "unknown", not a far-away beacon. */
  g_assert_cmpfloat (nearby_distance_estimate (21, -60, 2.0), <, 0.0);
  g_assert_cmpfloat (nearby_distance_estimate (-101, -60, 2.0), <, 0.0);
  g_assert_cmpfloat (nearby_distance_estimate (-20, -60, 0.0), <, 0.0);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/distance/estimate/path-loss", test_estimate_path_loss);
  g_test_add_func ("/distance/estimate/unknown", test_estimate_unknown);

  return g_test_run ();
}
