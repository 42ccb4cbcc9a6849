/* fuzz-manifest.c: a web app manifest from hostile bytes
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <stdint.h>
#include <string.h>

#include "nearby-manifest.h"
#include "nearby-url-policy.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

static void
assert_text (const char *text,
             guint       max_chars)
{
  g_assert (text == NULL || (g_utf8_validate (text, -1, NULL) && *text != '\0' &&
                             g_utf8_strlen (text, -1) <= max_chars));
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  NearbyManifest *manifest;
  GError *error = NULL;

  manifest = nearby_manifest_parse ("https://fuzz.example/app/manifest.json", data, size, &error);
  g_assert ((manifest == NULL) != (error == NULL));
  g_clear_error (&error);
  if (manifest == NULL)
    return 0;

  assert_text (manifest->name, NEARBY_PAGE_META_MAX_TITLE);
  assert_text (manifest->short_name, NEARBY_PAGE_META_MAX_TITLE);
  assert_text (manifest->description, NEARBY_PAGE_META_MAX_DESC);

  g_assert (manifest->icons->len <= NEARBY_PAGE_META_MAX_ICONS);
  for (guint i = 0; i < manifest->icons->len; i++)
    {
      NearbyPageIcon *icon = g_ptr_array_index (manifest->icons, i);

      g_assert (nearby_url_is_fetchable (icon->url));
      g_assert (icon->type == NULL || g_utf8_validate (icon->type, -1, NULL));
    }

  g_assert (manifest->actions->len <= NEARBY_MANIFEST_MAX_ACTIONS);
  for (guint i = 0; i < manifest->actions->len; i++)
    {
      NearbyPageAction *action = g_ptr_array_index (manifest->actions, i);

      assert_text (action->title, 80);
      g_assert (action->title != NULL);
      g_assert (nearby_url_is_fetchable (action->url));
    }

  nearby_manifest_free (manifest);

  return 0;
}
