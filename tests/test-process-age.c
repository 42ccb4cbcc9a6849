/* test-process-age.c: the age the startup figures are measured with
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib.h>

#include "nearby-process-age.h"

/* A process that has just started is a few milliseconds old, not minus one or days old. */
static void
test_just_started (void)
{
  double age = nearby_process_age_ms ();

  g_assert_cmpfloat (age, >=, 0.0);
  g_assert_cmpfloat (age, <, 30 * 1000.0);
}

/* The age follows the clock: it does not stand still between two frames. */
static void
test_grows (void)
{
  double before = nearby_process_age_ms ();
  double after;

  g_usleep (100 * 1000);
  after = nearby_process_age_ms ();

  g_assert_cmpfloat (after - before, >=, 99.0);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/process-age/just-started", test_just_started);
  g_test_add_func ("/process-age/grows", test_grows);

  return g_test_run ();
}
