/* nearby-resolve-error.c
 *
 * The names are stored in the page cache and printed by `nearby resolve --json`: they never
 * change once published.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "nearby-resolve-error"

#include "config.h"

#include "nearby-resolve-error.h"

G_DEFINE_QUARK (nearby-resolve-error-quark, nearby_resolve_error)

static const char * const error_names[] = {
  [NEARBY_RESOLVE_ERROR_INVALID_URL] = "invalid-url",
  [NEARBY_RESOLVE_ERROR_UNSUPPORTED_SCHEME] = "unsupported-scheme",
  [NEARBY_RESOLVE_ERROR_NEEDS_CONFIRMATION] = "needs-confirmation",
  [NEARBY_RESOLVE_ERROR_NETWORK] = "network",
  [NEARBY_RESOLVE_ERROR_TLS] = "tls",
  [NEARBY_RESOLVE_ERROR_TIMEOUT] = "timeout",
  [NEARBY_RESOLVE_ERROR_HTTP] = "http",
  [NEARBY_RESOLVE_ERROR_HIDDEN] = "hidden",
  [NEARBY_RESOLVE_ERROR_TOO_MANY_REDIRECTS] = "too-many-redirects",
  [NEARBY_RESOLVE_ERROR_BAD_REDIRECT] = "bad-redirect",
  [NEARBY_RESOLVE_ERROR_NOT_HTML] = "not-html",
};

const char *
nearby_resolve_error_to_string (NearbyResolveError code)
{
  if ((guint) code >= G_N_ELEMENTS (error_names))
    return "unknown";

  return error_names[code];
}

gboolean
nearby_resolve_error_from_string (const char         *name,
                                  NearbyResolveError *code)
{
  g_return_val_if_fail (code != NULL, FALSE);

  if (name == NULL)
    return FALSE;

  for (guint i = 0; i < G_N_ELEMENTS (error_names); i++)
    {
      if (g_str_equal (name, error_names[i]))
        {
          *code = (NearbyResolveError) i;
          return TRUE;
        }
    }

  return FALSE;
}
