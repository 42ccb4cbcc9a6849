/* test-list-calm.c: the list's order in real radio noise holds still, and follows a walk
 *
 * The fixed-seed scenarios of list-calm-traces.c, run through a real NearbyObjectList.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "list-calm-traces.h"

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  return g_test_run ();
}
