/* nearby-settings.c: the app's settings as an earlier version left them
 *
 * A renamed key stays in the schema under its old name, so that what the person chose there can
 * still be read; it is moved to the new key the first time, and never read again.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "nearby-settings"

#include "config.h"

#include "nearby-settings.h"

static const struct {
  const char *old_key;
  const char *new_key;
} renamed_keys[] = {
  /* 0.1 called the UriBeacon hint "hidden", the word the hidden sites now have. */
  { "show-hidden", "show-invisible" },
};

void
nearby_settings_migrate (GSettings *settings)
{
  g_return_if_fail (G_IS_SETTINGS (settings));

  for (guint i = 0; i < G_N_ELEMENTS (renamed_keys); i++)
    {
      g_autoptr(GVariant) old_value = g_settings_get_user_value (settings,
                                                                 renamed_keys[i].old_key);
      g_autoptr(GVariant) new_value = NULL;

      if (old_value == NULL)
        continue;

      /* A value under the new name was set by this version: it wins. */
      new_value = g_settings_get_user_value (settings, renamed_keys[i].new_key);
      if (new_value == NULL)
        g_settings_set_value (settings, renamed_keys[i].new_key, old_value);
      g_settings_reset (settings, renamed_keys[i].old_key);
    }
}
