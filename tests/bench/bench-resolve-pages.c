/* bench-resolve-pages.c: bench-resolve's page mode, real page shapes against curl and metascraper
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 *   meson test -C _build --benchmark bench-resolve-pages --verbose
 *
 * Page mode (/bench/resolve-pages): BENCH_RESOLVE_CORPUS_PAGES (130) pages of real shapes,
 * 20 – 200 KiB each (bench-pages.c), and every page of tests/data/pages, served by
 * `python3 -m http.server` on 127.0.0.1 as in issue 14, or by nginx with
 * BENCH_RESOLVE_SERVER=nginx. A first `nearby resolve`, not measured, says which requests Nearby
 * makes; then BENCH_RESOLVE_ROUNDS (7) rounds of curl over those
 * requests (the floor, with the resolver's 2 connections to one host, and with 6),
 * `nearby resolve`, the resolver alone and libsoup alone; then once the peer, metascraper in
 * Node.js (bench_resolve_metascraper.mjs, 4 pages at a time, from BENCH_RESOLVE_METASCRAPER_DIR
 * or ~/.cache/nearby-bench/metascraper; skipped with a line when it is not installed), and how
 * often Nearby and metascraper agree on titles and descriptions. BENCH_RESOLVE_KEEP_CORPUS keeps
 * the corpus for profiling.
 */

#include "config.h"

#include <fcntl.h>
#include <signal.h>
#include <json-glib/json-glib.h>
#include <glib/gstdio.h>
#include <libsoup/soup.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "bench-pages.h"
#include "bench-resolve.h"
#include "bench-util.h"
#include "nearby-test-utils.h"

/* The program itself, run again as a child (--resolve-child, --soup-child). */
static const char *self_path;

/* The other child: libsoup alone, as the resolver's session is set up (2 connections per host),
 * fetching every URL of the file at once and reading each body to its end, nothing parsed: what
 * the HTTP stack under the resolver costs by itself. */

typedef struct {
  GMainLoop *loop;
  guint      remaining;
  guint      failed;
} SoupChildRun;

static void
on_soup_child_read (GObject      *source,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  SoupChildRun *run = user_data;
  g_autoptr(GBytes) body = NULL;
  g_autoptr(GError) error = NULL;

  body = soup_session_send_and_read_finish (SOUP_SESSION (source), result, &error);
  if (body == NULL)
    {
      g_printerr ("%s\n", error->message);
      run->failed++;
    }
  if (--run->remaining == 0)
    g_main_loop_quit (run->loop);
}

int
bench_resolve_soup_child (const char *urls_path)
{
  /* No proxy resolver: not even the question of a proxy is asked. */
  g_autoptr(SoupSession) session = soup_session_new_with_options ("max-conns-per-host",
                                                                  RESOLVER_CONNS_PER_HOST,
                                                                  "proxy-resolver", NULL,
                                                                  NULL);
  g_autoptr(GMainLoop) loop = g_main_loop_new (NULL, FALSE);
  g_autoptr(GError) error = NULL;
  g_autofree char *contents = NULL;
  g_auto(GStrv) urls = NULL;
  SoupChildRun run = { .loop = loop };

  if (!g_file_get_contents (urls_path, &contents, NULL, &error))
    g_error ("%s", error->message);
  urls = g_strsplit (g_strstrip (contents), "\n", -1);

  run.remaining = g_strv_length (urls);
  for (guint i = 0; urls[i] != NULL; i++)
    {
      g_autoptr(SoupMessage) message = soup_message_new (SOUP_METHOD_GET, urls[i]);

      soup_session_send_and_read_async (session, message, G_PRIORITY_DEFAULT, NULL,
                                        on_soup_child_read, &run);
    }
  if (run.remaining > 0)
    g_main_loop_run (loop);

  g_print ("fetched %u failed %u\n", g_strv_length (urls) - run.failed, run.failed);

  return 0;
}

/* Page mode: a corpus of real page shapes, served by python3 -m http.server as issue 14 did */

#define PAGES_CONCURRENCY 4   /* look-ups in flight, for Nearby and for the peer */

typedef struct {
  GSubprocess *process;
  char        *log_path;
  const char  *name;      /* as printed */
  guint        port;
  gsize        log_seen;
} PageServer;

static void
page_server_start_python (PageServer *server,
                          const char *dir)
{
  g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE);
  g_autoptr(GDataInputStream) out = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *line = NULL;
  const char *port_text;

  server->name = "python3 -m http.server";
  server->log_path = g_build_filename (dir, "server.log", NULL);
  g_subprocess_launcher_set_stderr_file_path (launcher, server->log_path);
  server->process = g_subprocess_launcher_spawn (launcher, &error, "/usr/bin/python3", "-u", "-m",
                                                 "http.server", "--bind", "127.0.0.1",
                                                 "--directory", dir, "0", NULL);
  g_assert_no_error (error);

  /* "Serving HTTP on 127.0.0.1 port 40123 (http://127.0.0.1:40123/) ..." */
  out = g_data_input_stream_new (g_subprocess_get_stdout_pipe (server->process));
  line = g_data_input_stream_read_line_utf8 (out, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (line);
  port_text = strstr (line, " port ");
  g_assert_nonnull (port_text);
  server->port = (guint) g_ascii_strtoull (port_text + strlen (" port "), NULL, 10);
  g_assert_cmpuint (server->port, >, 0);
}

/* A port free a moment ago, for a server that cannot be told to pick one */
static guint
free_port (void)
{
  g_autoptr(GSocket) socket = g_socket_new (G_SOCKET_FAMILY_IPV4, G_SOCKET_TYPE_STREAM,
                                            G_SOCKET_PROTOCOL_TCP, NULL);
  g_autoptr(GInetAddress) loopback = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  g_autoptr(GSocketAddress) any = g_inet_socket_address_new (loopback, 0);
  g_autoptr(GSocketAddress) bound = NULL;

  g_assert_nonnull (socket);
  g_assert_true (g_socket_bind (socket, any, TRUE, NULL));
  bound = g_socket_get_local_address (socket, NULL);

  return g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (bound));
}

/* nginx, as a real site's server is: HTTP/1.1 with keep-alive, sendfile; one process, this
 * program's child, running as its user.
 * Its access log has the request line in quotes, as http.server's log does. */
static void
page_server_start_nginx (PageServer *server,
                         const char *dir,
                         const char *nginx)
{
  g_autofree char *conf_path = g_build_filename (dir, "nginx.conf", NULL);
  g_autofree char *error_log = g_build_filename (dir, "nginx-error.log", NULL);
  g_autofree char *conf = NULL;
  g_autoptr(GError) error = NULL;

  server->name = "nginx";
  server->log_path = g_build_filename (dir, "server.log", NULL);
  server->port = free_port ();
  conf = g_strdup_printf ("master_process off;\n"
                          "pid %s/nginx.pid;\n"
                          "error_log %s;\n"
                          "events { worker_connections 256; }\n"
                          "http {\n"
                          "  access_log %s;\n"
                          "  types { text/html html; image/png png; application/json json; }\n"
                          "  keepalive_timeout 30;\n"
                          "  server { listen 127.0.0.1:%u; root %s; }\n"
                          "}\n",
                          dir, error_log,
                          server->log_path, server->port, dir);
  g_file_set_contents (conf_path, conf, -1, &error);
  g_assert_no_error (error);
  g_file_set_contents (server->log_path, "", 0, &error);
  g_assert_no_error (error);

  server->process = g_subprocess_new (G_SUBPROCESS_FLAGS_NONE, &error, nginx, "-e", error_log,
                                      "-p", dir, "-c", conf_path, "-g", "daemon off;", NULL);
  g_assert_no_error (error);

  /* Listening once a connection is taken */
  for (guint i = 0; i < 100; i++)
    {
      g_autoptr(GSocketClient) client = g_socket_client_new ();
      g_autoptr(GSocketConnection) connection =
        g_socket_client_connect_to_host (client, "127.0.0.1", server->port, NULL, NULL);

      if (connection != NULL)
        return;
      g_usleep (20 * 1000);
    }
  g_error ("nginx did not listen on port %u (see %s)", server->port, error_log);
}

/* BENCH_RESOLVE_SERVER=nginx serves the corpus with nginx instead, when it is installed. */
static void
page_server_start (PageServer *server,
                   const char *dir)
{
  const char *which = g_getenv ("BENCH_RESOLVE_SERVER");
  g_autofree char *nginx = g_find_program_in_path ("nginx");

  if (nginx == NULL && g_file_test ("/usr/sbin/nginx", G_FILE_TEST_IS_EXECUTABLE))
    nginx = g_strdup ("/usr/sbin/nginx");

  if (g_strcmp0 (which, "nginx") == 0 && nginx != NULL)
    page_server_start_nginx (server, dir, nginx);
  else
    {
      if (g_strcmp0 (which, "nginx") == 0)
        g_print ("nginx is not installed (apt install nginx-light): python3 -m http.server instead\n");
      page_server_start_python (server, dir);
    }
}

static void
page_server_stop (PageServer *server)
{
  g_subprocess_send_signal (server->process, SIGTERM);
  g_subprocess_wait (server->process, NULL, NULL);
  g_clear_object (&server->process);
  g_clear_pointer (&server->log_path, g_free);
}

/* The paths of the requests logged since the last call, in order: http.server writes one line
 * per request to stderr, '… "GET /pages/p007.html HTTP/1.1" 200 -'. */
static GPtrArray *
page_server_take_paths (PageServer *server)
{
  GPtrArray *paths = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *log = NULL;
  gsize length = 0;

  if (!g_file_get_contents (server->log_path, &log, &length, NULL))
    return paths;
  for (const char *p = log + MIN (server->log_seen, length); (p = strstr (p, "\"GET /")) != NULL; )
    {
      const char *end;

      p += strlen ("\"GET /");
      end = strchr (p, ' ');
      if (end == NULL)
        break;
      g_ptr_array_add (paths, g_strndup (p, end - p));
      p = end;
    }
  server->log_seen = length;

  return paths;
}

static guint
page_server_take_requests (PageServer *server)
{
  g_autoptr(GPtrArray) paths = page_server_take_paths (server);

  return paths->len;
}

/* The CPU time the server's process has used, its threads' included (/proc/PID/stat, in clock
 * ticks: 10 ms here), or 0 where that cannot be read. */
static double
page_server_cpu_seconds (PageServer *server)
{
  g_autofree char *path = NULL;
  g_autofree char *stat = NULL;
  g_auto(GStrv) fields = NULL;
  const char *after_name;

  if (server->process == NULL || g_subprocess_get_identifier (server->process) == NULL)
    return 0;
  path = g_strdup_printf ("/proc/%s/stat", g_subprocess_get_identifier (server->process));
  if (!g_file_get_contents (path, &stat, NULL, NULL) ||
      (after_name = strrchr (stat, ')')) == NULL)
    return 0;
  /* After "pid (name)": state is field 3, utime 14 and stime 15. */
  fields = g_strsplit (after_name + 2, " ", 14);
  if (g_strv_length (fields) < 14)
    return 0;

  return (g_ascii_strtod (fields[11], NULL) + g_ascii_strtod (fields[12], NULL)) /
         sysconf (_SC_CLK_TCK);
}

/* One program's pass over the corpus: the requests the server logged for it, and the CPU time
 * the server spent on them, which a client's own CPU time takes from on two cores. */
static void
page_server_run (PageServer  *server,
                 const char **argv,
                 char       **envp,
                 Run         *run)
{
  double server_cpu;

  page_server_take_requests (server);
  server_cpu = page_server_cpu_seconds (server);
  run_child_with_env (NULL, argv, envp, run);
  run->requests = page_server_take_requests (server);
  run->server_cpu_seconds = page_server_cpu_seconds (server) - server_cpu;
}

static char *
corpus_url (PageServer *server,
            const char *path)
{
  return g_strdup_printf ("http://127.0.0.1:%u/%s", server->port, path);
}

/* curl fetches @paths, the requests `nearby resolve` made for the corpus (pages, icons,
 * manifests, the targets of refreshes), so that both sides ask the server for the same. */
static void
measure_curl_pages (PageServer *server,
                    GPtrArray  *paths,
                    guint       parallel,
                    Run        *run)
{
  g_autoptr(GString) config = g_string_new (NULL);
  g_autofree char *config_path = NULL;
  g_autofree char *parallel_arg = g_strdup_printf ("%u", parallel);
  g_autoptr(GError) error = NULL;
  const char *argv[] = { "/usr/bin/curl", "--silent", "--show-error", "--no-progress-meter",
                         "--parallel", "--parallel-max", parallel_arg, "--config", NULL, NULL };
  int fd;

  for (guint i = 0; i < paths->len; i++)
    {
      g_autofree char *url = corpus_url (server, paths->pdata[i]);

      g_string_append_printf (config, "url = \"%s\"\noutput = \"/dev/null\"\n", url);
    }
  fd = g_file_open_tmp ("bench-resolve-curl-XXXXXX", &config_path, &error);
  g_assert_no_error (error);
  close (fd);
  g_file_set_contents (config_path, config->str, config->len, &error);
  g_assert_no_error (error);
  argv[G_N_ELEMENTS (argv) - 2] = config_path;

  page_server_run (server, argv, NULL, run);
  g_unlink (config_path);
}

static void
measure_cli_pages (PageServer *server,
                   const char *binary,
                   GPtrArray  *pages,
                   const char *data_home,
                   Run        *run)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new_with_free_func (g_free);
  g_auto(GStrv) envp = g_environ_setenv (g_get_environ (), "XDG_DATA_HOME", data_home, TRUE);

  g_ptr_array_add (argv, g_strdup (binary));
  g_ptr_array_add (argv, g_strdup ("resolve"));
  g_ptr_array_add (argv, g_strdup ("--no-cache"));
  g_ptr_array_add (argv, g_strdup ("--json"));
  for (guint i = 0; i < pages->len; i++)
    g_ptr_array_add (argv, corpus_url (server, ((BenchPage *) pages->pdata[i])->path));
  g_ptr_array_add (argv, NULL);

  /* Its own history: the run writes every page to the cache, as the CLI does. */
  page_server_run (server, (const char **) argv->pdata, envp, run);
}

/* A temporary file of the URLs of @paths, one a line, for a child to read. */
static char *
write_urls (PageServer *server,
            GPtrArray  *paths)
{
  g_autoptr(GString) urls = g_string_new (NULL);
  g_autofree char *urls_path = NULL;
  g_autoptr(GError) error = NULL;
  int fd;

  for (guint i = 0; i < paths->len; i++)
    {
      g_autofree char *url = corpus_url (server, paths->pdata[i]);

      g_string_append_printf (urls, "%s\n", url);
    }
  fd = g_file_open_tmp ("bench-resolve-urls-XXXXXX", &urls_path, &error);
  g_assert_no_error (error);
  close (fd);
  g_file_set_contents (urls_path, urls->str, urls->len, &error);
  g_assert_no_error (error);

  return g_steal_pointer (&urls_path);
}

/* @argv, whose NULL slot is given the file of the URLs of @paths, counting its requests. */
static void
measure_with_urls (PageServer  *server,
                   const char **argv,
                   guint        urls_slot,
                   GPtrArray   *paths,
                   Run         *run)
{
  g_autofree char *urls_path = write_urls (server, paths);

  argv[urls_slot] = urls_path;
  page_server_run (server, argv, NULL, run);
  g_unlink (urls_path);
}

/* This program as its child: the resolver alone over @page_paths, without the CLI's history and
 * printing (--resolve-child), or libsoup alone over the requests the resolver made (--soup-child,
 * see soup_child). */
static void
measure_child_pages (PageServer *server,
                     const char *mode,
                     GPtrArray  *paths,
                     Run        *run)
{
  const char *argv[] = { self_path, mode, NULL, NULL };

  measure_with_urls (server, argv, 2, paths, run);
}

/* Where `npm install --prefix DIR metascraper …` put the peer, or NULL and why not. */
static char *
find_metascraper (char **node,
                  char **why_not)
{
  const char *dir = g_getenv ("BENCH_RESOLVE_METASCRAPER_DIR");
  g_autofree char *default_dir = g_build_filename (g_get_user_cache_dir (), "nearby-bench",
                                                   "metascraper", NULL);
  g_autofree char *module = NULL;

  if (dir == NULL)
    dir = default_dir;
  *node = g_find_program_in_path ("node");
  if (*node == NULL)
    {
      *why_not = g_strdup ("Node.js is not installed");
      return NULL;
    }
  module = g_build_filename (dir, "node_modules", "metascraper", "package.json", NULL);
  if (!g_file_test (module, G_FILE_TEST_EXISTS))
    {
      *why_not = g_strdup_printf ("no metascraper in %s: npm install --prefix %s metascraper "
                                  "metascraper-title metascraper-description metascraper-image",
                                  dir, dir);
      g_clear_pointer (node, g_free);
      return NULL;
    }

  return g_strdup (dir);
}

static void
measure_metascraper (PageServer *server,
                     GPtrArray  *page_paths,
                     const char *node,
                     const char *modules_dir,
                     Run        *run)
{
  g_autofree char *script = g_test_build_filename (G_TEST_DIST, "bench",
                                                   "bench_resolve_metascraper.mjs", NULL);
  g_autofree char *concurrency = g_strdup_printf ("%u", PAGES_CONCURRENCY);
  const char *argv[] = { node, script, modules_dir, NULL, concurrency, NULL };

  measure_with_urls (server, argv, 3, page_paths, run);
}

/* url -> JsonObject of each line of a run's output */
static GHashTable *
parse_json_lines (const char *output)
{
  GHashTable *by_url = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                              (GDestroyNotify) json_object_unref);
  g_auto(GStrv) lines = g_strsplit (output, "\n", -1);

  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_autoptr(JsonParser) parser = json_parser_new ();
      JsonObject *object;

      if (lines[i][0] != '{' || !json_parser_load_from_data (parser, lines[i], -1, NULL))
        continue;
      object = json_node_get_object (json_parser_get_root (parser));
      g_hash_table_replace (by_url, g_strdup (json_object_get_string_member (object, "url")),
                            json_object_ref (object));
    }

  return by_url;
}

static char *
normalized_member (JsonObject *object,
                   const char *name)
{
  const char *value = object && json_object_has_member (object, name) &&
                      !json_object_get_null_member (object, name)
                      ? json_object_get_string_member (object, name) : NULL;
  g_autoptr(GString) spaced = g_string_new (value);
  g_auto(GStrv) words = NULL;
  g_autoptr(GString) out = g_string_new (NULL);

  /* Runs of white space count as one space, and a no-break space as a space. */
  g_string_replace (spaced, "\xc2\xa0", " ", 0);
  words = value ? g_strsplit_set (spaced->str, " \t\n\r", -1) : NULL;

  for (guint i = 0; words != NULL && words[i] != NULL; i++)
    {
      if (words[i][0] == '\0')
        continue;
      if (out->len > 0)
        g_string_append_c (out, ' ');
      g_string_append (out, words[i]);
    }

  return g_string_free (g_steal_pointer (&out), FALSE);
}

/* How often Nearby and metascraper say the same, and the first few places where they do not. */
static void
print_agreement (PageServer *server,
                 GPtrArray  *pages,
                 const char *nearby_output,
                 const char *peer_output)
{
  g_autoptr(GHashTable) nearby = parse_json_lines (nearby_output);
  g_autoptr(GHashTable) peer = parse_json_lines (peer_output);
  guint same_title = 0, same_description = 0, shown = 0;

  for (guint i = 0; i < pages->len; i++)
    {
      BenchPage *page = g_ptr_array_index (pages, i);
      g_autofree char *url = corpus_url (server, page->path);
      JsonObject *ours = g_hash_table_lookup (nearby, url);
      JsonObject *theirs = g_hash_table_lookup (peer, url);
      g_autofree char *our_title = normalized_member (ours, "title");
      g_autofree char *their_title = normalized_member (theirs, "title");
      g_autofree char *our_description = normalized_member (ours, "description");
      g_autofree char *their_description = normalized_member (theirs, "description");
      gboolean title_agrees = g_str_equal (our_title, their_title);
      /* metascraper cuts nothing; Nearby ends a long description with "…" at 300 characters. */
      gboolean description_agrees = g_str_equal (our_description, their_description) ||
        (g_str_has_suffix (our_description, "…") &&
         strncmp (our_description, their_description, strlen (our_description) - strlen ("…")) == 0);

      same_title += title_agrees;
      same_description += description_agrees;
      /* printf, not g_print: the titles are UTF-8 whatever the locale. */
      if ((!title_agrees || !description_agrees) && shown++ < 8)
        printf ("  %s differs: %s (%s)\n    Nearby:      %.70s | %.70s\n"
                "    metascraper: %.70s | %.70s\n",
                !title_agrees && !description_agrees ? "title and description"
                : !title_agrees ? "title" : "description",
                page->path, page->shape, our_title, our_description, their_title,
                their_description);
    }
  printf ("  same title: %u of %u pages; same description: %u of %u\n", same_title,
          pages->len, same_description, pages->len);
  fflush (stdout);
}

/* One program's runs over the rounds: walls, CPUs and peak RSSs, and the wall of each round
 * divided by the floor's in the same round. */
typedef struct {
  const char *name;
  GArray     *wall;
  GArray     *cpu;
  GArray     *rss_mb;
  GArray     *server_cpu;
  GArray     *ratio;
  guint       requests;
  char       *output;   /* the last run's */
} Series;

static void
series_init (Series     *series,
             const char *name)
{
  *series = (Series) { .name = name };
  series->wall = g_array_new (FALSE, FALSE, sizeof (double));
  series->cpu = g_array_new (FALSE, FALSE, sizeof (double));
  series->rss_mb = g_array_new (FALSE, FALSE, sizeof (double));
  series->server_cpu = g_array_new (FALSE, FALSE, sizeof (double));
  series->ratio = g_array_new (FALSE, FALSE, sizeof (double));
}

static void
series_add (Series    *series,
            Run       *run,
            const Run *floor_run)
{
  double rss_mb = run->max_rss_kb / 1024.0;
  double ratio = run->wall_seconds / floor_run->wall_seconds;

  g_array_append_val (series->wall, run->wall_seconds);
  g_array_append_val (series->cpu, run->cpu_seconds);
  g_array_append_val (series->rss_mb, rss_mb);
  g_array_append_val (series->server_cpu, run->server_cpu_seconds);
  g_array_append_val (series->ratio, ratio);
  series->requests = run->requests;
  g_free (series->output);
  series->output = g_steal_pointer (&run->output);
}

static void
series_clear (Series *series)
{
  g_clear_pointer (&series->wall, g_array_unref);
  g_clear_pointer (&series->cpu, g_array_unref);
  g_clear_pointer (&series->rss_mb, g_array_unref);
  g_clear_pointer (&series->server_cpu, g_array_unref);
  g_clear_pointer (&series->ratio, g_array_unref);
  g_clear_pointer (&series->output, g_free);
}

/* "min – median – max" of @values (sorted in place), or the one value. */
static char *
spread (GArray *values,
        int     decimals)
{
  g_autofree char *low = g_strdup_printf ("%.*f", decimals, bench_percentile (values, 0));
  g_autofree char *mid = g_strdup_printf ("%.*f", decimals, bench_percentile (values, 50));
  g_autofree char *high = g_strdup_printf ("%.*f", decimals, bench_percentile (values, 100));

  if (values->len == 1)
    return g_steal_pointer (&mid);

  return g_strdup_printf ("%s %s %s", low, mid, high);
}

static void
print_series (Series *series)
{
  g_autofree char *wall = spread (series->wall, 2);
  g_autofree char *cpu = spread (series->cpu, 2);
  g_autofree char *rss = spread (series->rss_mb, 1);
  g_autofree char *server_cpu = spread (series->server_cpu, 2);
  g_autofree char *ratio = spread (series->ratio, 2);

  g_print ("  %-36s %-16s %-16s %-16s %-16s %5u  %s\n", series->name, wall, cpu, rss, server_cpu,
           series->requests, ratio);
}

/* The machine's load average over the last minute, as uptime says it: on a shared machine
 * the figures only mean something next to it. */
static double
load_average (void)
{
  g_autofree char *text = NULL;

  if (!g_file_get_contents ("/proc/loadavg", &text, NULL, NULL))
    return -1;

  return g_ascii_strtod (text, NULL);
}

void
bench_resolve_pages (gconstpointer self)
{
  g_autofree char *dir = nearby_test_make_temp_dir ("bench-resolve-pages");
  g_autofree char *extra = g_test_build_filename (G_TEST_DIST, "data", "pages", NULL);
  g_autofree char *data_home = g_build_filename (dir, "data-home", NULL);
  g_autofree char *node = NULL;
  g_autofree char *why_not = NULL;
  g_autofree char *modules_dir = NULL;
  g_autoptr(GPtrArray) pages = NULL;
  g_autoptr(GPtrArray) paths = NULL;
  g_autoptr(GPtrArray) page_paths = g_ptr_array_new ();
  guint n_pages = bench_env_uint ("BENCH_RESOLVE_CORPUS_PAGES", 130);
  guint rounds = MAX (bench_env_uint ("BENCH_RESOLVE_ROUNDS", 7), 1);
  PageServer server = { NULL };
  Run warm_run = { .name = "warm-up: nearby resolve" };
  Run peer_run = { .name = "peer: metascraper, 4 at a time" };
  Series floor_series, wide_series, cli_series, before_series, resolver_series, soup_series;
  Series peer_series;
  const char *nearby = g_getenv ("NEARBY_BINARY");
  /* Another build's `nearby resolve` in every round, beside this one's. */
  const char *before = g_getenv ("BENCH_RESOLVE_BEFORE");
  gsize bytes = 0;
  gsize log_start;
  double load_before = load_average ();

  if (nearby == NULL)
    {
      g_test_skip ("NEARBY_BINARY is not set");
      return;
    }

  self_path = self;
  series_init (&floor_series, "floor: curl --parallel-max 2");
  series_init (&wide_series, "reference: curl --parallel-max 6");
  series_init (&cli_series, "nearby resolve --no-cache --json");
  series_init (&before_series, "before: nearby resolve (other build)");
  series_init (&resolver_series, "NearbyResolver alone");
  series_init (&soup_series, "libsoup alone, 2 per host");
  series_init (&peer_series, "peer: metascraper, 4 at a time");

  pages = bench_pages_write (dir, n_pages, extra);
  for (guint i = 0; i < pages->len; i++)
    {
      g_autofree char *path = g_build_filename (dir, ((BenchPage *) pages->pdata[i])->path, NULL);
      GStatBuf st;

      if (g_stat (path, &st) == 0)
        bytes += st.st_size;
      g_ptr_array_add (page_paths, ((BenchPage *) pages->pdata[i])->path);
    }
  page_server_start (&server, dir);
  modules_dir = find_metascraper (&node, &why_not);

  /* A first pass of `nearby resolve`, not measured, warms the server and the page cache and
   * says what curl is to fetch: every request it made. */
  log_start = server.log_seen;
  measure_cli_pages (&server, nearby, pages, data_home, &warm_run);
  server.log_seen = log_start;
  paths = page_server_take_paths (&server);
  nearby_test_remove_tree (data_home);

  /* Then rounds of one run each, the floor first in odd rounds and last in even ones: on a
   * shared machine single runs of half a second vary by 2 x, so only figures taken side by
   * side, many times, compare. */
  for (guint round = 0; round < rounds; round++)
    {
      Run floor_run = { .name = floor_series.name };
      Run wide_run = { .name = wide_series.name };
      Run cli_run = { .name = cli_series.name };
      Run before_run = { .name = before_series.name };
      Run resolver_run = { .name = resolver_series.name };
      Run soup_run = { .name = soup_series.name };

      if (round % 2 == 0)
        measure_curl_pages (&server, paths, RESOLVER_CONNS_PER_HOST, &floor_run);
      /* This build and the one before take turns going first, as the floor does. */
      for (guint turn = 0; turn < 2; turn++)
        {
          gboolean this_build = (turn + round) % 2 == 0;

          if (!this_build && (before == NULL || *before == '\0'))
            continue;
          measure_cli_pages (&server, this_build ? nearby : before, pages, data_home,
                             this_build ? &cli_run : &before_run);
          nearby_test_remove_tree (data_home);
        }
      measure_child_pages (&server, "--resolve-child", page_paths, &resolver_run);
      measure_child_pages (&server, "--soup-child", paths, &soup_run);
      measure_curl_pages (&server, paths, 6, &wide_run);
      if (round % 2 == 1)
        measure_curl_pages (&server, paths, RESOLVER_CONNS_PER_HOST, &floor_run);

      series_add (&cli_series, &cli_run, &floor_run);
      if (before != NULL && *before != '\0')
        series_add (&before_series, &before_run, &floor_run);
      series_add (&resolver_series, &resolver_run, &floor_run);
      series_add (&soup_series, &soup_run, &floor_run);
      series_add (&wide_series, &wide_run, &floor_run);
      series_add (&floor_series, &floor_run, &floor_run);
    }

  /* The peer takes seconds where the others take a fraction of one: one run, against the
   * floor's median. */
  if (modules_dir != NULL)
    {
      Run median_floor = { .wall_seconds = bench_percentile (floor_series.wall, 50) };

      measure_metascraper (&server, page_paths, node, modules_dir, &peer_run);
      series_add (&peer_series, &peer_run, &median_floor);
    }

  g_print ("\npages: %u pages (%u generated, %u from tests/data/pages), %.1f MB, on one host, "
           "%s (%s build), %u rounds\n", pages->len, MIN (n_pages, pages->len),
           pages->len - MIN (n_pages, pages->len), bytes / 1048576.0, server.name, NEARBY_BUILDTYPE,
           rounds);
  g_print ("  load average (1 min): %.2f before, %.2f after\n", load_before, load_average ());
  g_print ("  %-36s %-16s %-16s %-16s %-16s %5s  %s\n", "min median max:", "wall (s)", "CPU (s)",
           "peak RSS (MB)", "server CPU (s)", "reqs", "wall / floor's in its round");
  print_series (&floor_series);
  print_series (&wide_series);
  print_series (&cli_series);
  if (before != NULL && *before != '\0')
    print_series (&before_series);
  print_series (&resolver_series);
  print_series (&soup_series);
  if (peer_series.output != NULL)
    {
      print_series (&peer_series);
      g_print ("  Nearby against metascraper: %.2f x wall, %.2f x peak RSS (medians)\n",
               bench_percentile (cli_series.wall, 50) / bench_percentile (peer_series.wall, 50),
               bench_percentile (cli_series.rss_mb, 50) / bench_percentile (peer_series.rss_mb, 50));
      print_agreement (&server, pages, cli_series.output, peer_series.output);
    }
  else
    {
      g_print ("  metascraper: not run (%s)\n", why_not);
    }

  page_server_stop (&server);
  run_clear (&warm_run);
  series_clear (&floor_series);
  series_clear (&wide_series);
  series_clear (&cli_series);
  series_clear (&before_series);
  series_clear (&resolver_series);
  series_clear (&soup_series);
  series_clear (&peer_series);
  /* For profiling a program against the same corpus: python3 -m http.server -d DIR */
  if (g_getenv ("BENCH_RESOLVE_KEEP_CORPUS") != NULL)
    g_print ("  corpus kept in %s\n", dir);
  else
    nearby_test_remove_tree (dir);
}
