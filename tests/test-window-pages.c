/* test-window-pages.c: which page the window shows for each state (no display needed)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <glib.h>

#include "nearby-window.h"

static void
test_first_run_comes_first (void)
{
  /* Nothing is looked up before the person has chosen, whatever Bluetooth does. */
  for (int state = NEARBY_SOURCE_STATE_STARTING; state <= NEARBY_SOURCE_STATE_ERROR; state++)
    g_assert_cmpstr (nearby_window_page_for (state, 3, FALSE), ==, "first-run");
}

static void
test_states (void)
{
  g_assert_cmpstr (nearby_window_page_for (NEARBY_SOURCE_STATE_STARTING, 0, TRUE), ==, "starting");
  g_assert_cmpstr (nearby_window_page_for (NEARBY_SOURCE_STATE_SCANNING, 0, TRUE), ==, "searching");
  g_assert_cmpstr (nearby_window_page_for (NEARBY_SOURCE_STATE_SCANNING, 2, TRUE), ==, "list");
  g_assert_cmpstr (nearby_window_page_for (NEARBY_SOURCE_STATE_NO_SERVICE, 0, TRUE), ==, "no-service");
  g_assert_cmpstr (nearby_window_page_for (NEARBY_SOURCE_STATE_NO_ADAPTER, 0, TRUE), ==, "no-adapter");
  g_assert_cmpstr (nearby_window_page_for (NEARBY_SOURCE_STATE_OFF, 0, TRUE), ==, "off");
  g_assert_cmpstr (nearby_window_page_for (NEARBY_SOURCE_STATE_BLOCKED, 0, TRUE), ==, "blocked");
  g_assert_cmpstr (nearby_window_page_for (NEARBY_SOURCE_STATE_ERROR, 0, TRUE), ==, "error");
  g_assert_cmpstr (nearby_window_page_for (NEARBY_SOURCE_STATE_FINISHED, 0, TRUE), ==, "finished");
  /* A finished replay keeps its objects on screen until they expire. */
  g_assert_cmpstr (nearby_window_page_for (NEARBY_SOURCE_STATE_FINISHED, 1, TRUE), ==, "list");
  /* Bluetooth turned off: say so, rather than show objects that can no longer be heard. */
  g_assert_cmpstr (nearby_window_page_for (NEARBY_SOURCE_STATE_OFF, 4, TRUE), ==, "off");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/window/pages/first-run", test_first_run_comes_first);
  g_test_add_func ("/window/pages/states", test_states);

  return g_test_run ();
}
