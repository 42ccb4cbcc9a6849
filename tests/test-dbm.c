/* test-dbm.c: signal strengths read as a person expects, with a real minus sign
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib.h>

#include "nearby-dbm.h"

static void
assert_formats (double      dbm,
                const char *number,
                const char *with_unit)
{
  g_autofree char *formatted_number = nearby_dbm_format_number (dbm);
  g_autofree char *formatted = nearby_dbm_format (dbm);

  g_assert_cmpstr (formatted_number, ==, number);
  g_assert_cmpstr (formatted, ==, with_unit);
}

/* A weak signal is negative: U+2212, not the hyphen a screen reader would skip or call "dash". */
static void
test_negative (void)
{
  assert_formats (-62.0, "\u221262", "\u221262 dBm");
  assert_formats (-100.0, "\u2212100", "\u2212100 dBm");
  assert_formats (-18.0, "\u221218", "\u221218 dBm");
}

/* Smoothed values are shown as whole numbers, halves away from zero. */
static void
test_rounding (void)
{
  assert_formats (-62.3, "\u221262", "\u221262 dBm");
  assert_formats (-62.5, "\u221263", "\u221263 dBm");
  assert_formats (-79.7, "\u221280", "\u221280 dBm");
}

/* Nothing below a whole dBm gets a sign: never "−0". */
static void
test_zero_and_positive (void)
{
  assert_formats (0.0, "0", "0 dBm");
  assert_formats (-0.4, "0", "0 dBm");
  assert_formats (4.0, "4", "4 dBm");
  assert_formats (20.0, "20", "20 dBm");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/dbm/negative", test_negative);
  g_test_add_func ("/dbm/rounding", test_rounding);
  g_test_add_func ("/dbm/zero-and-positive", test_zero_and_positive);

  return g_test_run ();
}
