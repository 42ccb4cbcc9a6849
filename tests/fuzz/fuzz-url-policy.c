/* fuzz-url-policy.c: URL checks and display forms from hostile strings
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <stdint.h>
#include <string.h>

#include "nearby-url-policy.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  char *url;
  char *display;
  char *host;
  char *resolved;
  GUri *uri;
  NearbyUrlDisplayFlags flags;

  /* URLs from beacons and pages are strings: stop at the first NUL, as C callers would. */
  url = g_strndup ((const char *) data, size);

  for (int policy = 0; policy <= NEARBY_URL_POLICY_EXPLICIT; policy++)
    {
      GError *error = NULL;

      uri = nearby_url_policy_check_url (url, policy, &error);
      g_assert ((uri == NULL) != (error == NULL));
      if (uri != NULL)
        {
          char *again = g_uri_to_string (uri);

          /* What passed the check is a fetchable URL in its own right. */
          g_assert (nearby_url_is_fetchable (again));
          g_free (again);
          g_uri_unref (uri);
        }
      g_clear_error (&error);
    }

  display = nearby_url_display (url, &flags);
  g_assert (g_utf8_validate (display, -1, NULL));
  for (const char *p = display; *p; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      g_assert (c >= 0x20 && c != 0x7f && !(c >= 0x202a && c <= 0x202e) &&
                !(c >= 0x2066 && c <= 0x2069));
    }
  host = nearby_url_display_host (url, NULL);
  g_assert (g_utf8_validate (host, -1, NULL));
  nearby_url_policy_classify_host (url);

  resolved = nearby_url_resolve ("https://fuzz.example/a/b?c#d", url);
  g_assert (resolved == NULL || nearby_url_is_fetchable (resolved));

  g_free (resolved);
  g_free (host);
  g_free (display);
  g_free (url);

  return 0;
}
