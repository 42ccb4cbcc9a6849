/* test-page-corpus.c: tests/data/pages through `nearby resolve`, served as files are served
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <json-glib/json-glib.h>
#include <libsoup/soup.h>
#include <string.h>

#include "nearby-test-utils.h"

static SoupServer *server;
static guint port;
static char *pages_dir;

static void
server_callback (SoupServer        *soup_server,
                 SoupServerMessage *msg,
                 const char        *path,
                 GHashTable        *query,
                 gpointer           user_data)
{
  g_autofree char *file = NULL;
  g_autofree char *data = NULL;
  gsize len;

  /* Two pages that refresh to each other, for ever */
  if (g_str_equal (path, "/loop-a") || g_str_equal (path, "/loop-b"))
    {
      g_autofree char *html = g_strdup_printf ("<title>Loop %s</title>"
                                               "<meta http-equiv=refresh content='0; url=%s'>",
                                               path + strlen ("/loop-"),
                                               g_str_equal (path, "/loop-a") ? "loop-b" : "loop-a");

      nearby_test_respond_html (msg, html);
      return;
    }

  file = g_build_filename (pages_dir, path, NULL);
  if (strstr (path, "..") != NULL || !g_str_has_suffix (path, ".html") ||
      !g_file_get_contents (file, &data, &len, NULL))
    {
      nearby_test_respond (msg, 404, NULL, NULL, 0);
      return;
    }

  nearby_test_respond (msg, 200, "text/html", data, len);
}

static const char *
string_or_null (JsonObject *object,
                const char *member)
{
  JsonNode *node = json_object_get_member (object, member);

  return node != NULL && !JSON_NODE_HOLDS_NULL (node) ? json_node_get_string (node) : NULL;
}

/* Every page at once, as a list of beacons would have them looked up: what a browser shows. */
static void
test_corpus (void)
{
  g_autofree char *expected_path = g_build_filename (pages_dir, "expected.json", NULL);
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GList) names = NULL;
  g_autoptr(GPtrArray) argv = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) results = NULL;
  g_autoptr(NearbyTestRun) run = NULL;
  JsonObject *expected;
  guint i = 0;

  json_parser_load_from_file (parser, expected_path, &error);
  g_assert_no_error (error);
  expected = json_node_get_object (json_parser_get_root (parser));
  names = json_object_get_members (expected);

  g_ptr_array_add (argv, g_strdup ("resolve"));
  g_ptr_array_add (argv, g_strdup ("--json"));
  g_ptr_array_add (argv, g_strdup ("--no-cache"));
  for (GList *l = names; l != NULL; l = l->next)
    {
      g_autofree char *path = g_strconcat ("/", (const char *) l->data, NULL);

      g_ptr_array_add (argv, nearby_test_url (port, path));
    }
  g_ptr_array_add (argv, NULL);

  run = nearby_test_run_nearbyv (NULL, (const char **) argv->pdata);
  g_test_message ("%s", run->err);
  g_assert_cmpint (run->status, ==, 0);
  results = nearby_test_parse_json_lines (run->out);
  g_assert_cmpuint (results->len, ==, g_list_length (names));

  for (GList *l = names; l != NULL; l = l->next, i++)
    {
      JsonObject *result = g_ptr_array_index (results, i);
      JsonObject *page = json_object_get_object_member (expected, l->data);
      const char *refresh = string_or_null (page, "refresh");
      g_autofree char *final_path = g_strconcat ("/", (const char *) l->data, NULL);
      g_autofree char *final_url = NULL;
      g_autofree char *fallback = NULL;
      const char *title;

      g_test_message ("%s", (const char *) l->data);
      /* A refresh is followed: the page it leads to is what is shown */
      if (refresh != NULL)
        {
          JsonArray *redirects = json_object_get_array_member (result, "redirects");

          g_assert_cmpuint (json_array_get_length (redirects), ==, 1);
          g_assert_cmpint (json_object_get_int_member (json_array_get_object_element (redirects, 0),
                                                       "status"), ==, 200);
          g_free (final_path);
          final_path = g_strdup (refresh);
          page = json_object_get_object_member (expected, refresh + 1);
        }
      final_url = nearby_test_url (port, final_path);
      fallback = g_strconcat ("127.0.0.1", final_path, NULL);

      g_assert_true (json_object_get_null_member (result, "error"));
      g_assert_cmpstr (string_or_null (result, "final_url"), ==, final_url);
      title = string_or_null (page, "title");
      g_assert_cmpstr (string_or_null (result, "title"), ==, title != NULL ? title : fallback);
      g_assert_cmpstr (string_or_null (result, "description"), ==,
                       string_or_null (page, "description"));
    }
}

/* Refreshes are followed within the limit of hops, and past it the page is taken as it is. */
static void
test_refresh_loop (void)
{
  g_autofree char *url = nearby_test_url (port, "/loop-a");
  g_autoptr(NearbyTestRun) run = nearby_test_run_nearby (NULL, "resolve", "--json", "--no-cache",
                                                         url, NULL);
  g_autoptr(GPtrArray) results = NULL;
  JsonObject *result;

  g_assert_cmpint (run->status, ==, 0);
  results = nearby_test_parse_json_lines (run->out);
  g_assert_cmpuint (results->len, ==, 1);
  result = g_ptr_array_index (results, 0);
  g_assert_true (json_object_get_null_member (result, "error"));
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (result, "redirects")),
                    ==, 5);
  g_assert_cmpstr (string_or_null (result, "title"), ==, "Loop b");
}

int
main (int   argc,
      char *argv[])
{
  int status;
  g_autofree char *data_home = NULL;

  g_test_init (&argc, &argv, NULL);

  if (g_getenv ("NEARBY_BINARY") == NULL)
    {
      g_test_skip ("NEARBY_BINARY is not set");
      return 0;
    }

  pages_dir = g_test_build_filename (G_TEST_DIST, "data", "pages", NULL);
  server = soup_server_new (NULL, NULL);
  soup_server_add_handler (server, NULL, server_callback, NULL, NULL);
  port = nearby_test_server_listen (server, 0);

  g_test_add_func ("/page-corpus/corpus", test_corpus);
  g_test_add_func ("/page-corpus/refresh-loop", test_refresh_loop);

  data_home = nearby_test_make_temp_dir ("nearby-page-corpus");
  g_setenv ("XDG_DATA_HOME", data_home, TRUE);

  status = g_test_run ();

  nearby_test_remove_tree (data_home);
  soup_server_disconnect (server);
  g_clear_object (&server);
  g_free (pages_dir);

  return status;
}
