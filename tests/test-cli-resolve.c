/* test-cli-resolve.c: `nearby resolve` against a local server, as a developer runs it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <gdk-pixbuf/gdk-pixbuf.h>
#include <json-glib/json-glib.h>
#include <libsoup/soup.h>
#include <string.h>

#define WAIT_LIMIT_US (60 * G_USEC_PER_SEC)

static SoupServer *server;
static guint port;

static const char good_html[] =
  "<!DOCTYPE html><html><head><title>Bus stop 42 &ndash; Main St</title>"
  "<meta name=description content='Next buses, live'>"
  "<link rel=icon href=/icon.png sizes=32x32>"
  "<link rel=manifest href=/manifest.json>"
  "</head><body></body></html>";

static GBytes *icon_png;

static void
server_callback (SoupServer        *soup_server,
                 SoupServerMessage *msg,
                 const char        *path,
                 GHashTable        *query,
                 gpointer           user_data)
{
  if (g_str_equal (path, "/stop/42"))
    {
      soup_server_message_set_status (msg, 200, NULL);
      soup_server_message_set_response (msg, "text/html; charset=utf-8", SOUP_MEMORY_STATIC,
                                        good_html, strlen (good_html));
    }
  else if (g_str_equal (path, "/s/x"))
    {
      soup_server_message_set_status (msg, 301, NULL);
      soup_message_headers_replace (soup_server_message_get_response_headers (msg), "Location", "/t/x");
    }
  else if (g_str_equal (path, "/t/x"))
    {
      soup_server_message_set_status (msg, 302, NULL);
      soup_message_headers_replace (soup_server_message_get_response_headers (msg), "Location", "/stop/42");
    }
  else if (g_str_equal (path, "/manifest.json"))
    {
      const char *json = "{\"name\": \"Bus 42\", \"shortcuts\": [{\"name\": \"Timetable\", \"url\": \"/timetable\"}]}";

      soup_server_message_set_status (msg, 200, NULL);
      soup_server_message_set_response (msg, "application/manifest+json", SOUP_MEMORY_COPY, json, strlen (json));
    }
  else if (g_str_equal (path, "/icon.png"))
    {
      soup_server_message_set_status (msg, 200, NULL);
      soup_server_message_set_response (msg, "image/png", SOUP_MEMORY_COPY,
                                        g_bytes_get_data (icon_png, NULL), g_bytes_get_size (icon_png));
    }
  else
    {
      soup_server_message_set_status (msg, 404, NULL);
    }
}

typedef struct {
  gboolean  done;
  char     *out;
  char     *err;
  int       status;
} RunResult;

static void
on_communicated (GObject      *source,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  RunResult *run = user_data;
  g_autoptr(GError) error = NULL;

  g_subprocess_communicate_utf8_finish (G_SUBPROCESS (source), result, &run->out, &run->err, &error);
  g_assert_no_error (error);
  run->status = g_subprocess_get_exit_status (G_SUBPROCESS (source));
  run->done = TRUE;
}

/* Runs `nearby ARGS…` while this process keeps serving HTTP. */
static RunResult
run_nearby (const char *first_arg,
            ...)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GError) error = NULL;
  RunResult run = { 0 };
  gint64 give_up;
  va_list args;

  g_ptr_array_add (argv, g_strdup (g_getenv ("NEARBY_BINARY")));
  va_start (args, first_arg);
  for (const char *arg = first_arg; arg != NULL; arg = va_arg (args, const char *))
    g_ptr_array_add (argv, g_strdup (arg));
  va_end (args);
  g_ptr_array_add (argv, NULL);

  process = g_subprocess_newv ((const char * const *) argv->pdata,
                               G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE,
                               &error);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8_async (process, NULL, NULL, on_communicated, &run);

  give_up = g_get_monotonic_time () + WAIT_LIMIT_US;
  while (!run.done && g_get_monotonic_time () < give_up)
    g_main_context_iteration (NULL, TRUE);
  g_assert_true (run.done);

  return run;
}

static void
run_result_clear (RunResult *run)
{
  g_free (run->out);
  g_free (run->err);
}

static char *
url_for (const char *path)
{
  return g_strdup_printf ("http://127.0.0.1:%u%s", port, path);
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
  RunResult run = run_nearby ("resolve", "--json", url, NULL);
  JsonObject *page;
  JsonObject *icon;
  JsonArray *redirects;
  JsonArray *actions;

  g_test_message ("%s", run.err);
  g_assert_cmpint (run.status, ==, 0);
  /* One object, on one line */
  g_assert_true (g_str_has_suffix (run.out, "\n"));
  g_assert_cmpstr (strchr (run.out, '\n'), ==, run.out + strlen (run.out) - 1);

  page = parse_line (parser, run.out);
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

  run_result_clear (&run);
}

static void
test_json_failures (void)
{
  g_autofree char *good = url_for ("/stop/42");
  g_autofree char *missing = url_for ("/gone");
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_auto(GStrv) lines = NULL;
  RunResult run = run_nearby ("resolve", "--json", "--no-cache", good, missing,
                              "urn:uuid:6ba7b810-9dad-11d1-80b4-00c04fd430c8", NULL);
  JsonObject *page;

  g_assert_cmpint (run.status, ==, 1);
  lines = g_strsplit (g_strchomp (run.out), "\n", -1);
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

  run_result_clear (&run);
}

static void
test_automatic_policy (void)
{
  g_autofree char *url = url_for ("/stop/42");
  g_autoptr(JsonParser) parser = json_parser_new ();
  RunResult run = run_nearby ("resolve", "--json", "--automatic", url, NULL);
  JsonObject *page;

  g_assert_cmpint (run.status, ==, 1);
  page = parse_line (parser, run.out);
  g_assert_cmpstr (json_object_get_string_member (page, "error_code"), ==, "needs-confirmation");

  run_result_clear (&run);
}

static void
test_human_output (void)
{
  g_autofree char *url = url_for ("/s/x");
  RunResult run = run_nearby ("resolve", url, NULL);

  g_assert_cmpint (run.status, ==, 0);
  g_assert_nonnull (strstr (run.out, "Bus stop 42 – Main St"));
  g_assert_nonnull (strstr (run.out, "301 "));
  g_assert_nonnull (strstr (run.out, "image/png 32×32"));
  g_assert_nonnull (strstr (run.out, "Timetable"));

  run_result_clear (&run);
}

static void
test_usage (void)
{
  RunResult none = run_nearby ("resolve", NULL);
  RunResult bad = run_nearby ("resolve", "--frobnicate", "https://example.com", NULL);

  g_assert_cmpint (none.status, ==, 2);
  g_assert_nonnull (strstr (none.err, "URL"));
  g_assert_cmpint (bad.status, ==, 2);

  run_result_clear (&none);
  run_result_clear (&bad);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GInetAddress) loopback = NULL;
  g_autoptr(GSocketAddress) address = NULL;
  g_autoptr(GError) error = NULL;
  GSList *uris;
  int status;

  g_test_init (&argc, &argv, NULL);

  if (g_getenv ("NEARBY_BINARY") == NULL)
    {
      g_test_skip ("NEARBY_BINARY is not set");
      return 0;
    }

  {
    g_autoptr(GdkPixbuf) pixbuf = gdk_pixbuf_new (GDK_COLORSPACE_RGB, FALSE, 8, 32, 32);
    char *buffer = NULL;
    gsize len = 0;

    gdk_pixbuf_fill (pixbuf, 0xe5a50aff);
    gdk_pixbuf_save_to_buffer (pixbuf, &buffer, &len, "png", &error, NULL);
    g_assert_no_error (error);
    icon_png = g_bytes_new_take (buffer, len);
  }

  server = soup_server_new (NULL, NULL);
  soup_server_add_handler (server, NULL, server_callback, NULL, NULL);
  loopback = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  address = g_inet_socket_address_new (loopback, 0);
  soup_server_listen (server, address, 0, &error);
  g_assert_no_error (error);
  uris = soup_server_get_uris (server);
  port = g_uri_get_port (uris->data);
  g_slist_free_full (uris, (GDestroyNotify) g_uri_unref);

  g_test_add_func ("/cli-resolve/json-good", test_json_good);
  g_test_add_func ("/cli-resolve/json-failures", test_json_failures);
  g_test_add_func ("/cli-resolve/automatic-policy", test_automatic_policy);
  g_test_add_func ("/cli-resolve/human-output", test_human_output);
  g_test_add_func ("/cli-resolve/usage", test_usage);

  status = g_test_run ();

  soup_server_disconnect (server);
  g_clear_object (&server);
  g_bytes_unref (icon_png);

  return status;
}
