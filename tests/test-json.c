/* test-json.c: the members every JSON record is built from
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "nearby-json.h"

static char *
object_with_string_member (const char *name,
                           const char *value)
{
  g_autoptr(JsonBuilder) builder = json_builder_new_immutable ();
  g_autoptr(JsonNode) root = NULL;

  json_builder_begin_object (builder);
  nearby_json_add_string_member (builder, name, value);
  json_builder_end_object (builder);
  root = json_builder_get_root (builder);

  return json_to_string (root, FALSE);
}

static void
test_string_member (void)
{
  g_autofree char *json = object_with_string_member ("title", "Bus stop «Gare»");

  g_assert_cmpstr (json, ==, "{\"title\":\"Bus stop «Gare»\"}");
}

/* Scripts read `title` whether or not the page had one: an unknown value is there, as null. */
static void
test_unknown_string_is_null (void)
{
  g_autofree char *json = object_with_string_member ("title", NULL);

  g_assert_cmpstr (json, ==, "{\"title\":null}");
}

static void
test_empty_string_is_not_null (void)
{
  g_autofree char *json = object_with_string_member ("title", "");

  g_assert_cmpstr (json, ==, "{\"title\":\"\"}");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/json/string-member", test_string_member);
  g_test_add_func ("/json/unknown-string-is-null", test_unknown_string_is_null);
  g_test_add_func ("/json/empty-string-is-not-null", test_empty_string_is_not_null);

  return g_test_run ();
}
