/* test-settings.c: a choice made under a setting's old name survives the rename
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "nearby-settings.h"

static GSettings *
fresh_settings (void)
{
  GSettings *settings = g_settings_new (APP_ID);

  g_settings_reset (settings, "show-hidden");
  g_settings_reset (settings, "show-invisible");
  return settings;
}

/* Someone who showed objects that ask to be hidden in 0.1 still sees them. */
static void
test_old_choice_carries_over (void)
{
  g_autoptr(GSettings) settings = fresh_settings ();
  g_autoptr(GVariant) old_value = NULL;

  g_settings_set_boolean (settings, "show-hidden", TRUE);
  nearby_settings_migrate (settings);

  g_assert_true (g_settings_get_boolean (settings, "show-invisible"));
  old_value = g_settings_get_user_value (settings, "show-hidden");
  g_assert_null (old_value);

  /* Once moved, it is never moved again: turning it off stays off. */
  g_settings_set_boolean (settings, "show-invisible", FALSE);
  nearby_settings_migrate (settings);
  g_assert_false (g_settings_get_boolean (settings, "show-invisible"));
}

/* A choice made under the new name is not overwritten by a stale old one. */
static void
test_new_choice_wins (void)
{
  g_autoptr(GSettings) settings = fresh_settings ();

  g_settings_set_boolean (settings, "show-invisible", FALSE);
  g_settings_set_boolean (settings, "show-hidden", TRUE);
  nearby_settings_migrate (settings);

  g_assert_false (g_settings_get_boolean (settings, "show-invisible"));
  g_assert_false (g_settings_get_boolean (settings, "show-hidden"));
}

/* Nothing chosen: nothing set. */
static void
test_nothing_to_move (void)
{
  g_autoptr(GSettings) settings = fresh_settings ();
  g_autoptr(GVariant) new_value = NULL;

  nearby_settings_migrate (settings);
  new_value = g_settings_get_user_value (settings, "show-invisible");
  g_assert_null (new_value);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/settings/old-choice-carries-over", test_old_choice_carries_over);
  g_test_add_func ("/settings/new-choice-wins", test_new_choice_wins);
  g_test_add_func ("/settings/nothing-to-move", test_nothing_to_move);

  return g_test_run ();
}
