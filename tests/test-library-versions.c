/* test-library-versions.c: the libxml2 and libsoup that run are the ones Nearby was built
 * against, so a build against the Flatpak runtime's newer libraries (build-aux/test's
 * _build-runtime/) really tests them and not the system's older ones
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <gio/gio.h>
#include <libsoup/soup.h>
#include <libxml/parser.h>

static void
test_libxml2 (void)
{
  /* xmlParserVersion is LIBXML_VERSION_STRING of the library loaded ("21406" for 2.14.6),
   * perhaps with a suffix. */
  guint64 loaded = g_ascii_strtoull (xmlParserVersion, NULL, 10);

  g_test_message ("loaded libxml2 %u.%u.%u (built against %s)",
                  (guint) (loaded / 10000), (guint) (loaded / 100 % 100), (guint) (loaded % 100),
                  LIBXML_DOTTED_VERSION);
  g_assert_true (g_str_has_prefix (xmlParserVersion, LIBXML_VERSION_STRING));
}

static void
test_libsoup (void)
{
  g_test_message ("loaded libsoup %u.%u.%u (built against %d.%d.%d)",
                  soup_get_major_version (), soup_get_minor_version (), soup_get_micro_version (),
                  SOUP_MAJOR_VERSION, SOUP_MINOR_VERSION, SOUP_MICRO_VERSION);
  g_assert_cmpuint (soup_get_major_version (), ==, SOUP_MAJOR_VERSION);
  g_assert_cmpuint (soup_get_minor_version (), ==, SOUP_MINOR_VERSION);
  g_assert_cmpuint (soup_get_micro_version (), ==, SOUP_MICRO_VERSION);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/library-versions/libxml2", test_libxml2);
  g_test_add_func ("/library-versions/libsoup", test_libsoup);

  return g_test_run ();
}
