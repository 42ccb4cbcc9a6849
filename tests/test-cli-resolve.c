/* test-cli-resolve.c: `nearby resolve` against a local server, as a developer runs it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <libsoup/soup.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "nearby-test-utils.h"

static SoupServer *server;
static guint port;

static const char good_html[] =
  "<!DOCTYPE html><html><head><title>Bus stop 42 &ndash; Main St</title>"
  "<meta name=description content='Next buses, live'>"
  "<link rel=icon href=/icon.png sizes=32x32>"
  "<link rel=manifest href=/manifest.json>"
  "</head><body></body></html>";

static GBytes *icon_png;
static guint stop_42_requests;

static void
server_callback (SoupServer        *soup_server,
                 SoupServerMessage *msg,
                 const char        *path,
                 GHashTable        *query,
                 gpointer           user_data)
{
  static const char manifest_json[] =
    "{\"name\": \"Bus 42\", \"shortcuts\": [{\"name\": \"Timetable\", \"url\": \"/timetable\"}]}";

  if (g_str_equal (path, "/stop/42"))
    {
      stop_42_requests++;
      nearby_test_respond_html (msg, good_html);
    }
  else if (g_str_equal (path, "/s/x"))
    nearby_test_redirect (msg, 301, "/t/x");
  else if (g_str_equal (path, "/t/x"))
    nearby_test_redirect (msg, 302, "/stop/42");
  else if (g_str_equal (path, "/manifest.json"))
    nearby_test_respond (msg, 200, "application/manifest+json", manifest_json,
                         strlen (manifest_json));
  else if (g_str_equal (path, "/icon.png"))
    nearby_test_respond (msg, 200, "image/png", g_bytes_get_data (icon_png, NULL),
                         g_bytes_get_size (icon_png));
  else
    nearby_test_respond (msg, 404, NULL, NULL, 0);
}

static char *
url_for (const char *path)
{
  return nearby_test_url (port, path);
}

static JsonObject *
parse_line (JsonParser *parser,
            const char *line)
{
  g_autoptr(GError) error = NULL;
  JsonNode *root;

  json_parser_load_from_data (parser, line, -1, &error);
  g_assert_no_error (error);
  root = json_parser_get_root (parser);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (root));

  return json_node_get_object (root);
}

static void
test_json_good (void)
{
  g_autofree char *url = url_for ("/s/x");
  g_autofree char *final = url_for ("/stop/42");
  g_autofree char *icon_url = url_for ("/icon.png");
  g_autofree char *timetable = url_for ("/timetable");
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(NearbyTestRun) run = nearby_test_run_nearby (NULL, "resolve", "--json", url, NULL);
  JsonObject *page;
  JsonObject *icon;
  JsonArray *redirects;
  JsonArray *actions;

  g_test_message ("%s", run->err);
  g_assert_cmpint (run->status, ==, 0);
  /* One object, on one line */
  g_assert_true (g_str_has_suffix (run->out, "\n"));
  g_assert_cmpstr (strchr (run->out, '\n'), ==, run->out + strlen (run->out) - 1);

  page = parse_line (parser, run->out);
  g_assert_cmpstr (json_object_get_string_member (page, "url"), ==, url);
  g_assert_cmpstr (json_object_get_string_member (page, "final_url"), ==, final);
  g_assert_cmpint (json_object_get_int_member (page, "status"), ==, 200);
  g_assert_cmpstr (json_object_get_string_member (page, "title"), ==, "Bus stop 42 – Main St");
  g_assert_cmpstr (json_object_get_string_member (page, "description"), ==, "Next buses, live");
  g_assert_cmpstr (json_object_get_string_member (page, "icon_url"), ==, icon_url);
  g_assert_true (json_object_get_null_member (page, "error"));
  g_assert_true (json_object_get_null_member (page, "error_code"));

  redirects = json_object_get_array_member (page, "redirects");
  g_assert_cmpuint (json_array_get_length (redirects), ==, 2);
  g_assert_cmpint (json_object_get_int_member (json_array_get_object_element (redirects, 0), "status"), ==, 301);
  g_assert_cmpint (json_object_get_int_member (json_array_get_object_element (redirects, 1), "status"), ==, 302);

  icon = json_object_get_object_member (page, "icon");
  g_assert_nonnull (icon);
  g_assert_cmpstr (json_object_get_string_member (icon, "type"), ==, "image/png");
  g_assert_cmpint (json_object_get_int_member (icon, "width"), ==, 32);
  g_assert_cmpint (json_object_get_int_member (icon, "height"), ==, 32);

  actions = json_object_get_array_member (page, "actions");
  g_assert_cmpuint (json_array_get_length (actions), ==, 1);
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (actions, 0), "title"), ==, "Timetable");
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (actions, 0), "url"), ==, timetable);

}

static void
test_json_failures (void)
{
  g_autofree char *good = url_for ("/stop/42");
  g_autofree char *missing = url_for ("/gone");
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_auto(GStrv) lines = NULL;
  g_autoptr(NearbyTestRun) run = nearby_test_run_nearby (NULL, "resolve", "--json", "--no-cache", good, missing,
                              "urn:uuid:6ba7b810-9dad-11d1-80b4-00c04fd430c8", NULL);
  JsonObject *page;

  g_assert_cmpint (run->status, ==, 1);
  lines = g_strsplit (g_strchomp (run->out), "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), ==, 3);

  /* One object per URL, in the order given */
  page = parse_line (parser, lines[0]);
  g_assert_cmpstr (json_object_get_string_member (page, "url"), ==, good);
  g_assert_true (json_object_get_null_member (page, "error"));

  page = parse_line (parser, lines[1]);
  g_assert_cmpstr (json_object_get_string_member (page, "url"), ==, missing);
  g_assert_cmpstr (json_object_get_string_member (page, "error_code"), ==, "hidden");
  g_assert_cmpint (json_object_get_int_member (page, "status"), ==, 404);
  g_assert_true (json_object_get_null_member (page, "icon"));
  g_assert_nonnull (json_object_get_string_member (page, "error"));

  page = parse_line (parser, lines[2]);
  g_assert_cmpstr (json_object_get_string_member (page, "error_code"), ==, "unsupported-scheme");

}

static void
test_automatic_policy (void)
{
  g_autofree char *url = url_for ("/stop/42");
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(NearbyTestRun) run = nearby_test_run_nearby (NULL, "resolve", "--json", "--automatic", url, NULL);
  JsonObject *page;

  g_assert_cmpint (run->status, ==, 1);
  page = parse_line (parser, run->out);
  g_assert_cmpstr (json_object_get_string_member (page, "error_code"), ==, "needs-confirmation");

}

static void
test_human_output (void)
{
  g_autofree char *url = url_for ("/s/x");
  g_autoptr(NearbyTestRun) run = nearby_test_run_nearby (NULL, "resolve", url, NULL);

  g_assert_cmpint (run->status, ==, 0);
  g_assert_nonnull (strstr (run->out, "Bus stop 42 – Main St"));
  g_assert_nonnull (strstr (run->out, "301 "));
  g_assert_nonnull (strstr (run->out, "image/png 32×32"));
  g_assert_nonnull (strstr (run->out, "Timetable"));

}

/* A page that did not resolve is a failure, told on stderr; the pages that did stay on stdout. */
static void
test_human_failure_on_stderr (void)
{
  g_autofree char *good = url_for ("/stop/42");
  g_autofree char *refused = url_for ("/stop/42?automatic");
  g_autoptr(NearbyTestRun) run = nearby_test_run_nearby (NULL, "resolve", "--automatic", refused,
                                                         NULL);
  g_autoptr(NearbyTestRun) mixed = nearby_test_run_nearby (NULL, "resolve", good,
                                                           "urn:uuid:6ba7b810-9dad-11d1-80b4-00c04fd430c8",
                                                           NULL);

  g_test_message ("stdout:\n%sstderr:\n%s", run->out, run->err);
  g_assert_cmpint (run->status, ==, 1);
  g_assert_cmpstr (run->out, ==, "");
  g_assert_nonnull (strstr (run->err, refused));
  g_assert_nonnull (strstr (run->err, "(needs-confirmation)"));

  g_assert_cmpint (mixed->status, ==, 1);
  g_assert_nonnull (strstr (mixed->out, "Bus stop 42 – Main St"));
  g_assert_null (strstr (mixed->out, "urn:"));
  g_assert_null (strstr (mixed->out, "Error"));
  g_assert_nonnull (strstr (mixed->err, "(unsupported-scheme)"));
  g_assert_null (strstr (mixed->err, "Bus stop"));
}

/* The app's cache serves a second look-up; --no-cache goes to the server and refreshes it. */
static void
test_cache (void)
{
  /* A URL no other test asked for (the query makes it one of its own). */
  g_autofree char *url = url_for ("/stop/42?cache-test");
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(NearbyTestRun) first = NULL;
  g_autoptr(NearbyTestRun) second = NULL;
  g_autoptr(NearbyTestRun) fresh = NULL;
  guint requests;

  first = nearby_test_run_nearby (NULL, "resolve", "--json", url, NULL);
  g_assert_cmpint (first->status, ==, 0);
  g_assert_false (json_object_get_boolean_member (parse_line (parser, first->out), "from_cache"));
  requests = stop_42_requests;

  second = nearby_test_run_nearby (NULL, "resolve", "--json", url, NULL);
  g_assert_cmpint (second->status, ==, 0);
  g_assert_true (json_object_get_boolean_member (parse_line (parser, second->out), "from_cache"));
  g_assert_cmpstr (json_object_get_string_member (parse_line (parser, second->out), "title"), ==,
                   "Bus stop 42 – Main St");
  g_assert_cmpuint (stop_42_requests, ==, requests);

  fresh = nearby_test_run_nearby (NULL, "resolve", "--json", "--no-cache", url, NULL);
  g_assert_cmpint (fresh->status, ==, 0);
  g_assert_false (json_object_get_boolean_member (parse_line (parser, fresh->out), "from_cache"));
  g_assert_cmpuint (stop_42_requests, ==, requests + 1);

}

static gboolean
run_command (const char * const *argv)
{
  int status = -1;

  return g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL, NULL,
                       &status, NULL)
         && g_spawn_check_wait_status (status, NULL);
}

/* The cache write resolve makes fails (a full disk, a folder it cannot write): it says so on
 * stderr and exits 1, the page still shown. A small tmpfs is mounted for it, which needs
 * root. */
static void
test_cache_write_fails (void)
{
  g_autofree char *url = url_for ("/stop/42?cache-write-test");
  g_autofree char *data_home = NULL;
  g_autofree char *folder = NULL;
  g_autofree char *filler = NULL;
  g_autofree char *saved_data_home = g_strdup (g_getenv ("XDG_DATA_HOME"));
  g_autofree char *first_url = url_for ("/stop/42?cache-write-first");
  g_autoptr(NearbyTestRun) first = NULL;
  g_autoptr(NearbyTestRun) full = NULL;
  g_autoptr(NearbyTestRun) read_only = NULL;
  FILE *file;

  if (getuid () != 0)
    {
      g_test_skip ("mounting a small tmpfs needs root");
      return;
    }

  data_home = nearby_test_make_temp_dir ("nearby-cli-resolve-disk");
  folder = g_build_filename (data_home, "nearby", NULL);
  filler = g_build_filename (folder, "filler", NULL);
  g_assert_cmpint (g_mkdir (folder, 0700), ==, 0);
  {
    const char *mount[] = { "mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", folder, NULL };

    if (!run_command (mount))
      {
        g_test_skip ("this system does not let the test mount a tmpfs");
        nearby_test_remove_tree (data_home);
        return;
      }
  }
  g_setenv ("XDG_DATA_HOME", data_home, TRUE);

  /* The history exists, then the disk fills up. */
  first = nearby_test_run_nearby (NULL, "resolve", first_url, NULL);
  g_assert_cmpint (first->status, ==, 0);
  file = fopen (filler, "w");
  g_assert_nonnull (file);
  for (char block[512] = { 0 }; fwrite (block, 1, sizeof block, file) == sizeof block
       && fflush (file) == 0;)
    ;
  while (fputc (0, file) != EOF && fflush (file) == 0)
    ;
  fclose (file);

  full = nearby_test_run_nearby (NULL, "resolve", url, NULL);
  g_test_message ("%s%s", full->out, full->err);
  g_assert_cmpint (full->status, ==, 1);
  g_assert_nonnull (strstr (full->out, "Bus stop 42"));
  /* On a disk this full even opening the history cannot write: it is kept in memory, and
   * that is said instead. */
  g_assert_true (strstr (full->err, "nearby resolve: Nearby could not save your history: "
                                    "the disk is full\n") != NULL
                 || strstr (full->err, "nearby resolve: Nearby cannot save your history in")
                    != NULL);

  g_assert_cmpint (g_unlink (filler), ==, 0);
  {
    const char *remount[] = { "mount", "-o", "remount,ro", folder, NULL };

    g_assert_true (run_command (remount));
  }
  read_only = nearby_test_run_nearby (NULL, "resolve", url, NULL);
  g_test_message ("%s%s", read_only->out, read_only->err);
  g_assert_cmpint (read_only->status, ==, 1);
  g_assert_nonnull (strstr (read_only->out, "Bus stop 42"));
  g_assert_nonnull (strstr (read_only->err, "cannot save your history"));

  {
    const char *umount[] = { "umount", folder, NULL };

    g_assert_true (run_command (umount));
  }
  g_setenv ("XDG_DATA_HOME", saved_data_home, TRUE);
  nearby_test_remove_tree (data_home);
}

static void
test_usage (void)
{
  g_autoptr(NearbyTestRun) none = nearby_test_run_nearby (NULL, "resolve", NULL);
  g_autoptr(NearbyTestRun) bad = nearby_test_run_nearby (NULL, "resolve", "--frobnicate", "https://example.com", NULL);

  g_assert_cmpint (none->status, ==, 2);
  g_assert_nonnull (strstr (none->err, "URL"));
  g_assert_cmpint (bad->status, ==, 2);

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

  icon_png = nearby_test_make_image ("png", 32, 32);

  server = soup_server_new (NULL, NULL);
  soup_server_add_handler (server, NULL, server_callback, NULL, NULL);
  port = nearby_test_server_listen (server, 0);

  g_test_add_func ("/cli-resolve/json-good", test_json_good);
  g_test_add_func ("/cli-resolve/json-failures", test_json_failures);
  g_test_add_func ("/cli-resolve/automatic-policy", test_automatic_policy);
  g_test_add_func ("/cli-resolve/human-output", test_human_output);
  g_test_add_func ("/cli-resolve/human-failure-on-stderr", test_human_failure_on_stderr);
  g_test_add_func ("/cli-resolve/usage", test_usage);
  g_test_add_func ("/cli-resolve/cache", test_cache);
  g_test_add_func ("/cli-resolve/cache-write-fails", test_cache_write_fails);

  /* A history (the page cache) of this run's own, not one shared with other tests. */
  data_home = nearby_test_make_temp_dir ("nearby-cli-resolve");
  g_setenv ("XDG_DATA_HOME", data_home, TRUE);

  status = g_test_run ();

  nearby_test_remove_tree (data_home);

  soup_server_disconnect (server);
  g_clear_object (&server);
  g_bytes_unref (icon_png);

  return status;
}
