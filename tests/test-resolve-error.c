/* test-resolve-error.c: the names of resolve errors, as JSON and the page cache store them
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "nearby-resolve-error.h"

static void
test_error_names (void)
{
  NearbyResolveError code;

  for (int i = NEARBY_RESOLVE_ERROR_INVALID_URL; i <= NEARBY_RESOLVE_ERROR_NOT_HTML; i++)
    {
      g_assert_true (nearby_resolve_error_from_string (nearby_resolve_error_to_string (i), &code));
      g_assert_cmpint (code, ==, i);
    }
  g_assert_cmpstr (nearby_resolve_error_to_string (NEARBY_RESOLVE_ERROR_NEEDS_CONFIRMATION), ==,
                   "needs-confirmation");
  g_assert_false (nearby_resolve_error_from_string ("nonsense", &code));
}

/* A cache written by a newer version may hold a code this one does not know. */
static void
test_unknown (void)
{
  NearbyResolveError code = NEARBY_RESOLVE_ERROR_TLS;

  g_assert_cmpstr (nearby_resolve_error_to_string (NEARBY_RESOLVE_ERROR_NOT_HTML + 1), ==,
                   "unknown");
  g_assert_false (nearby_resolve_error_from_string (NULL, &code));
  g_assert_false (nearby_resolve_error_from_string ("", &code));
  g_assert_false (nearby_resolve_error_from_string ("unknown", &code));
  g_assert_cmpint (code, ==, NEARBY_RESOLVE_ERROR_TLS);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/resolve-error/names", test_error_names);
  g_test_add_func ("/resolve-error/unknown", test_unknown);

  return g_test_run ();
}
