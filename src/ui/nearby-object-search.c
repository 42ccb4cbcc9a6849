/* nearby-object-search.c: what the window's search finds
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "nearby-object-row.h"
#include "nearby-object-search.h"

static gboolean
text_matches (const char *query,
              const char *text)
{
  g_autofree char *folded_query = NULL;
  g_autofree char *folded_text = NULL;

  if (text == NULL || *text == '\0')
    return FALSE;
  /* Word starts, with accents folded ("cafe" finds "Bluebird Café")... */
  if (g_str_match_string (query, text, TRUE))
    return TRUE;
  /* ...or anywhere, for parts of addresses and hosts ("4E:42", "museum"). */
  folded_query = g_utf8_casefold (query, -1);
  folded_text = g_utf8_casefold (text, -1);

  return strstr (folded_text, folded_query) != NULL;
}

/* What a row shows is what a search finds. */
gboolean
nearby_object_matches_search (NearbyObject *object,
                              NearbySource *source,
                              const char   *query,
                              gboolean      developer)
{
  g_autofree char *stripped = g_strstrip (g_strdup (query));
  g_autofree char *host = NULL;
  g_autofree char *name = NULL;

  if (*stripped == '\0')
    return TRUE;

  host = nearby_object_row_dup_host (object, source, NULL, NULL);
  name = nearby_object_row_name (object, host, NULL);
  if (text_matches (stripped, name) ||
      text_matches (stripped, nearby_object_get_description (object)) ||
      text_matches (stripped, host))
    return TRUE;

  if (!developer)
    return FALSE;

  for (guint i = 0; i < nearby_object_get_n_devices (object); i++)
    {
      const NearbyObjectDevice *device = nearby_object_get_device (object, i);

      if (text_matches (stripped, nearby_object_device_get_address (device)))
        return TRUE;
      for (NearbyFrameKind kind = NEARBY_FRAME_KIND_URL; kind < NEARBY_FRAME_N_KINDS; kind++)
        if (nearby_object_device_get_frame (device, kind) != NULL &&
            text_matches (stripped, nearby_frame_kind_to_string (kind)))
          return TRUE;
    }

  return FALSE;
}

