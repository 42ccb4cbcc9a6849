/* bench-resolve.c: resolving a batch of pages, against curl fetching the same bytes
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 *   meson test -C _build --benchmark bench-resolve --verbose
 *
 * A SoupServer on its own thread of this process serves BENCH_RESOLVE_PAGES (1 000) distinct
 * pages, each with a title, a description and a small PNG <link rel=icon>, and holds every
 * answer for BENCH_RESOLVE_LATENCY_MS (20 ms) before sending it. Each measured program runs as a
 * child process, so that wall time and peak memory (wait4's ru_maxrss) are its own:
 *
 *   - floor: curl --parallel --parallel-max N fetching every page and every icon, where N is the
 *     number of connections the resolver can use for the scenario;
 *   - Nearby: this program again (--resolve-child), resolving every page with one
 *     NearbyResolver as the app creates it (its default max-in-flight and connection limits),
 *     the address classifier letting 127.0.0.x play public hosts;
 *   - `nearby resolve --no-cache --json URL…`: the same through the CLI, which also writes every
 *     result to its SQLite cache and prints it.
 *
 * Two scenarios: every page on one host (127.0.0.1: the per-host connection limit applies),
 * and pages spread over many hosts (127.0.0.1 … 127.0.0.250, one port), as beacons usually are.
 *
 *   meson test -C _build --benchmark bench-resolve-pages --verbose
 *
 * Page mode (/bench/resolve-pages): BENCH_RESOLVE_CORPUS_PAGES (130) pages of real shapes,
 * 20 – 200 KiB each (bench-pages.c), and every page of tests/data/pages, served by
 * `python3 -m http.server` on 127.0.0.1 as in issue 14. A first `nearby resolve`, not measured,
 * says which requests Nearby makes; then BENCH_RESOLVE_ROUNDS (7) rounds of curl over those
 * requests (the floor, with the resolver's 2 connections to one host, and with 6),
 * `nearby resolve`, the resolver alone and libsoup alone; then once the peer, metascraper in
 * Node.js (bench_resolve_metascraper.mjs, 4 pages at a time, from BENCH_RESOLVE_METASCRAPER_DIR
 * or ~/.cache/nearby-bench/metascraper; skipped with a line when it is not installed), and how
 * often Nearby and metascraper agree on titles and descriptions. BENCH_RESOLVE_KEEP_CORPUS keeps
 * the corpus for profiling.
 */

#include "config.h"

#include <fcntl.h>
#include <json-glib/json-glib.h>
#include <glib/gstdio.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench-pages.h"
#include "bench-server.h"
#include "bench-util.h"
#include "nearby-resolver.h"
#include "nearby-test-utils.h"

#define N_HOSTS_SPREAD   250
/* What nearby_resolver_new() gives the app (nearby-resolver.c): jobs at once, and the
 * session's connections per host. */
#define RESOLVER_IN_FLIGHT     4
#define RESOLVER_CONNS_PER_HOST 2

extern char **environ;

/* Children */

typedef struct {
  const char *name;
  double      wall_seconds;
  double      cpu_seconds;
  long        max_rss_kb;
  guint       requests;
  guint       max_in_progress;
  char       *output;
} Run;

static void
run_clear (Run *run)
{
  g_clear_pointer (&run->output, g_free);
}

/* Runs @argv to its end; its stdout goes to a temporary file, which is returned in run->output.
 * @server, when given, counts the requests of the run. */
static void
run_child_with_env (BenchServer *server,
                    const char **argv,
                    char       **envp,
                    Run         *run)
{
  g_autofree char *out_path = NULL;
  g_autoptr(GError) error = NULL;
  posix_spawn_file_actions_t actions;
  struct rusage usage;
  gint64 started;
  pid_t pid;
  int status = 0;
  int fd;

  fd = g_file_open_tmp ("bench-resolve-XXXXXX", &out_path, &error);
  g_assert_no_error (error);
  close (fd);

  posix_spawn_file_actions_init (&actions);
  posix_spawn_file_actions_addopen (&actions, STDOUT_FILENO, out_path,
                                    O_WRONLY | O_TRUNC | O_CREAT, 0600);

  if (server != NULL)
    bench_server_take_counts (server, &run->requests, &run->max_in_progress);
  started = g_get_monotonic_time ();
  g_assert_cmpint (posix_spawn (&pid, argv[0], &actions, NULL, (char **) argv,
                               envp ? envp : environ), ==, 0);
  g_assert_cmpint (wait4 (pid, &status, 0, &usage), ==, pid);
  run->wall_seconds = (g_get_monotonic_time () - started) / 1e6;
  run->max_rss_kb = usage.ru_maxrss;
  run->cpu_seconds = usage.ru_utime.tv_sec + usage.ru_stime.tv_sec
                     + (usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
  if (server != NULL)
    bench_server_take_counts (server, &run->requests, &run->max_in_progress);
  posix_spawn_file_actions_destroy (&actions);

  g_file_get_contents (out_path, &run->output, NULL, &error);
  g_assert_no_error (error);
  g_unlink (out_path);

  if (!WIFEXITED (status) || WEXITSTATUS (status) != 0)
    g_error ("%s failed (status %d): %s", argv[0], status, run->output);
}

static void
run_child (BenchServer *server,
           const char **argv,
           Run         *run)
{
  run_child_with_env (server, argv, NULL, run);
}

static char *
page_url (BenchServer *server,
          guint   n_hosts,
          guint   index)
{
  return g_strdup_printf ("http://127.0.0.%u:%u/p/%u", 1 + index % n_hosts, bench_server_get_port (server), index);
}

static void
measure_curl (BenchServer *server,
              guint   n_pages,
              guint   n_hosts,
              guint   parallel,
              Run    *run)
{
  g_autoptr(GString) config = g_string_new (NULL);
  g_autofree char *config_path = NULL;
  g_autofree char *parallel_arg = g_strdup_printf ("%u", parallel);
  g_autoptr(GError) error = NULL;
  const char *argv[] = { "/usr/bin/curl", "--silent", "--show-error", "--fail", "--no-progress-meter",
                         "--parallel", "--parallel-max", parallel_arg, "--config", NULL, NULL };
  int fd;

  for (guint i = 0; i < n_pages; i++)
    {
      g_autofree char *url = page_url (server, n_hosts, i);

      g_string_append_printf (config, "url = \"%s\"\noutput = \"/dev/null\"\n", url);
      g_string_append_printf (config, "url = \"http://127.0.0.%u:%u/i/%u.png\"\n"
                                      "output = \"/dev/null\"\n",
                              1 + i % n_hosts, bench_server_get_port (server), i);
    }
  fd = g_file_open_tmp ("bench-resolve-curl-XXXXXX", &config_path, &error);
  g_assert_no_error (error);
  close (fd);
  g_file_set_contents (config_path, config->str, config->len, &error);
  g_assert_no_error (error);
  argv[G_N_ELEMENTS (argv) - 2] = config_path;

  run_child (server, argv, run);
  g_unlink (config_path);
  g_assert_cmpuint (run->requests, ==, 2 * n_pages);
}

static void
measure_nearby (BenchServer *server,
                const char *self_path,
                guint       n_pages,
                guint       n_hosts,
                Run        *run)
{
  g_autoptr(GString) urls = g_string_new (NULL);
  g_autofree char *urls_path = NULL;
  g_autoptr(GError) error = NULL;
  const char *argv[] = { self_path, "--resolve-child", NULL, NULL };
  guint resolved = 0, with_icon = 0;
  int fd;

  for (guint i = 0; i < n_pages; i++)
    {
      g_autofree char *url = page_url (server, n_hosts, i);

      g_string_append_printf (urls, "%s\n", url);
    }
  fd = g_file_open_tmp ("bench-resolve-urls-XXXXXX", &urls_path, &error);
  g_assert_no_error (error);
  close (fd);
  g_file_set_contents (urls_path, urls->str, urls->len, &error);
  g_assert_no_error (error);
  argv[2] = urls_path;

  run_child (server, argv, run);
  g_unlink (urls_path);

  /* Every page resolved with its title and its icon: otherwise the time means nothing. */
  g_assert_cmpint (sscanf (run->output, "resolved %u with-icon %u", &resolved, &with_icon), ==, 2);
  g_assert_cmpuint (resolved, ==, n_pages);
  g_assert_cmpuint (with_icon, ==, n_pages);
  g_assert_cmpuint (run->requests, ==, 2 * n_pages);
}

static void
measure_cli (BenchServer *server,
             guint   n_pages,
             guint   n_hosts,
             Run    *run)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new_with_free_func (g_free);
  const char *nearby = g_getenv ("NEARBY_BINARY");
  const char *line;
  guint with_icon = 0;
  guint lines = 0;

  g_ptr_array_add (argv, g_strdup (nearby));
  g_ptr_array_add (argv, g_strdup ("resolve"));
  g_ptr_array_add (argv, g_strdup ("--no-cache"));
  g_ptr_array_add (argv, g_strdup ("--json"));
  for (guint i = 0; i < n_pages; i++)
    g_ptr_array_add (argv, page_url (server, n_hosts, i));
  g_ptr_array_add (argv, NULL);

  run_child (server, (const char **) argv->pdata, run);

  for (line = run->output; line != NULL && *line != '\0'; line = strchr (line, '\n'))
    {
      if (*line == '\n')
        line++;
      if (*line == '\0')
        break;
      lines++;
      if (strstr (line, "\"icon_url\":\"http") != NULL || strstr (line, "\"icon_url\" : \"http") != NULL)
        with_icon++;
    }
  g_assert_cmpuint (lines, ==, n_pages);
  g_assert_cmpuint (with_icon, ==, n_pages);
  g_assert_cmpuint (run->requests, ==, 2 * n_pages);
}

/* The child: resolves every URL of the file it is given, and says how many came back whole. */

typedef struct {
  GMainLoop *loop;
  guint      remaining;
  guint      resolved;
  guint      with_icon;
} ChildRun;

static NearbyAddressClass
classify_as_public (GInetSocketAddress *address,
                    gpointer            user_data)
{
  return NEARBY_ADDRESS_PUBLIC;
}

static void
on_child_resolved (GObject      *source,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  ChildRun *run = user_data;
  g_autoptr(NearbyPage) page = NULL;
  g_autoptr(GError) error = NULL;

  page = nearby_resolver_resolve_finish (NEARBY_RESOLVER (source), result, &error);
  if (page != NULL && page->error == NULL && page->title != NULL)
    run->resolved++;
  else
    g_printerr ("%s\n", page && page->error ? page->error->message : error->message);
  if (page != NULL && page->icon != NULL)
    run->with_icon++;
  if (--run->remaining == 0)
    g_main_loop_quit (run->loop);
}

static int
resolve_child (const char *urls_path)
{
  g_autoptr(NearbyResolver) resolver = nearby_resolver_new ();
  g_autoptr(GMainLoop) loop = g_main_loop_new (NULL, FALSE);
  g_autoptr(GError) error = NULL;
  g_autofree char *contents = NULL;
  g_auto(GStrv) urls = NULL;
  ChildRun run = { .loop = loop };

  if (!g_file_get_contents (urls_path, &contents, NULL, &error))
    g_error ("%s", error->message);
  urls = g_strsplit (g_strstrip (contents), "\n", -1);

  nearby_resolver_set_address_classifier (resolver, classify_as_public, NULL);
  run.remaining = g_strv_length (urls);
  for (guint i = 0; urls[i] != NULL; i++)
    nearby_resolver_resolve_async (resolver, urls[i],
                                   NEARBY_URL_POLICY_AUTOMATIC | NEARBY_URL_POLICY_ALLOW_HTTP,
                                   NEARBY_RESOLVE_FLAGS_NONE, NEARBY_RESOLVE_PRIORITY_DEFAULT,
                                   NULL, on_child_resolved, &run);
  if (run.remaining > 0)
    g_main_loop_run (loop);

  g_print ("resolved %u with-icon %u\n", run.resolved, run.with_icon);

  return 0;
}

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

static int
soup_child (const char *urls_path)
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

/* The benchmark */

static const char *self_path;

static void
print_run (const Run *run,
           const Run *floor_run)
{
  g_print ("  %-44s %8.2f s %9.1f MB %7.2f s %8u %6u %8.2f x %8.2f x\n", run->name,
           run->wall_seconds, run->max_rss_kb / 1024.0, run->cpu_seconds, run->requests,
           run->max_in_progress,
           run->wall_seconds / floor_run->wall_seconds,
           (double) run->max_rss_kb / floor_run->max_rss_kb);
}

/* Returns the number of requests served. */
static guint
bench_scenario (BenchServer *server,
                const char *title,
                guint       n_pages,
                guint       n_hosts,
                guint       latency_ms,
                guint       connections)
{
  Run curl_run = { .name = NULL };
  Run nearby_run = { .name = "NearbyResolver (as the app creates it)" };
  Run cli_run = { .name = "nearby resolve --no-cache --json" };
  Run wide_run = { .name = NULL };
  g_autofree char *wide_name = g_strdup_printf ("reference: curl --parallel-max %u",
                                                RESOLVER_IN_FLIGHT);
  g_autofree char *curl_name = g_strdup_printf ("floor: curl --parallel-max %u", connections);
  /* Every request waits latency_ms; N connections answer N at a time. */
  double ideal = (double) (2 * n_pages) / connections * latency_ms / 1000.0;
  guint served;

  curl_run.name = curl_name;
  measure_curl (server, n_pages, n_hosts, connections, &curl_run);
  measure_nearby (server, self_path, n_pages, n_hosts, &nearby_run);
  if (g_getenv ("NEARBY_BINARY") != NULL &&
      g_file_test (g_getenv ("NEARBY_BINARY"), G_FILE_TEST_IS_EXECUTABLE))
    measure_cli (server, n_pages, n_hosts, &cli_run);
  /* What the resolver would get if the per-host limit did not hold it back. */
  wide_run.name = wide_name;
  if (connections < RESOLVER_IN_FLIGHT)
    measure_curl (server, n_pages, n_hosts, RESOLVER_IN_FLIGHT, &wide_run);

  g_print ("\n%s: %u pages + %u icons on %u host%s, %u ms per answer (%s build)\n",
           title, n_pages, n_pages, n_hosts, n_hosts > 1 ? "s" : "", latency_ms,
           NEARBY_BUILDTYPE);
  g_print ("  %-44s %10s %12s %9s %8s %6s %10s %10s\n", "", "wall", "peak RSS", "CPU",
           "requests", "conc.", "wall ratio", "RSS ratio");
  g_print ("  %-44s %8.2f s\n", "ideal: requests / connections x latency", ideal);
  print_run (&curl_run, &curl_run);
  print_run (&nearby_run, &curl_run);
  if (cli_run.output != NULL)
    print_run (&cli_run, &curl_run);
  if (wide_run.output != NULL)
    print_run (&wide_run, &curl_run);
  g_print ("  (conc.: most requests the server held at once)\n");

  served = curl_run.requests + nearby_run.requests + cli_run.requests + wide_run.requests;
  run_clear (&curl_run);
  run_clear (&nearby_run);
  run_clear (&cli_run);
  run_clear (&wide_run);

  return served;
}

static void
bench_resolve (void)
{
  guint n_pages = bench_env_uint ("BENCH_RESOLVE_PAGES", 1000);
  guint latency_ms = bench_env_uint ("BENCH_RESOLVE_LATENCY_MS", 20);
  BenchServer *server = bench_server_start (latency_ms, N_HOSTS_SPREAD);
  guint total_requests = 0;
  double server_cpu = 0;

  /* One host: the session's per-host limit is what the resolver really gets. */
  total_requests += bench_scenario (server, "one host", n_pages, 1, latency_ms,
                  MIN (RESOLVER_IN_FLIGHT, RESOLVER_CONNS_PER_HOST));
  total_requests += bench_scenario (server, "many hosts", n_pages, N_HOSTS_SPREAD, latency_ms, RESOLVER_IN_FLIGHT);

  bench_server_stop (server, &server_cpu);
  g_print ("\n  server thread: %.3f s CPU for %u requests (%.0f us each)\n", server_cpu,
           total_requests, server_cpu * 1e6 / MAX (total_requests, 1));
}

/* Page mode: a corpus of real page shapes, served by python3 -m http.server as issue 14 did */

#define PAGES_CONCURRENCY 4   /* look-ups in flight, for Nearby and for the peer */

typedef struct {
  GSubprocess *process;
  char        *log_path;
  guint        port;
  gsize        log_seen;
} PageServer;

static void
page_server_start (PageServer *server,
                   const char *dir)
{
  g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE);
  g_autoptr(GDataInputStream) out = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *line = NULL;
  const char *port_text;

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

static void
page_server_stop (PageServer *server)
{
  g_subprocess_force_exit (server->process);
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

  page_server_take_requests (server);
  run_child (NULL, argv, run);
  run->requests = page_server_take_requests (server);
  g_unlink (config_path);
}

static void
measure_cli_pages (PageServer *server,
                   GPtrArray  *pages,
                   const char *data_home,
                   Run        *run)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new_with_free_func (g_free);
  g_auto(GStrv) envp = g_environ_setenv (g_get_environ (), "XDG_DATA_HOME", data_home, TRUE);

  g_ptr_array_add (argv, g_strdup (g_getenv ("NEARBY_BINARY")));
  g_ptr_array_add (argv, g_strdup ("resolve"));
  g_ptr_array_add (argv, g_strdup ("--no-cache"));
  g_ptr_array_add (argv, g_strdup ("--json"));
  for (guint i = 0; i < pages->len; i++)
    g_ptr_array_add (argv, corpus_url (server, ((BenchPage *) pages->pdata[i])->path));
  g_ptr_array_add (argv, NULL);

  /* Its own history: the run writes every page to the cache, as the CLI does. */
  page_server_take_requests (server);
  run_child_with_env (NULL, (const char **) argv->pdata, envp, run);
  run->requests = page_server_take_requests (server);
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
  page_server_take_requests (server);
  run_child (NULL, argv, run);
  run->requests = page_server_take_requests (server);
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
  g_autofree char *ratio = spread (series->ratio, 2);

  g_print ("  %-36s %-16s %-16s %-16s %5u  %s\n", series->name, wall, cpu, rss,
           series->requests, ratio);
}

static void
bench_resolve_pages (void)
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
  Series floor_series, wide_series, cli_series, resolver_series, soup_series, peer_series;
  gsize bytes = 0;
  gsize log_start;

  if (g_getenv ("NEARBY_BINARY") == NULL)
    {
      g_test_skip ("NEARBY_BINARY is not set");
      return;
    }

  series_init (&floor_series, "floor: curl --parallel-max 2");
  series_init (&wide_series, "reference: curl --parallel-max 6");
  series_init (&cli_series, "nearby resolve --no-cache --json");
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
  measure_cli_pages (&server, pages, data_home, &warm_run);
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
      Run resolver_run = { .name = resolver_series.name };
      Run soup_run = { .name = soup_series.name };

      if (round % 2 == 0)
        measure_curl_pages (&server, paths, RESOLVER_CONNS_PER_HOST, &floor_run);
      measure_cli_pages (&server, pages, data_home, &cli_run);
      nearby_test_remove_tree (data_home);
      measure_child_pages (&server, "--resolve-child", page_paths, &resolver_run);
      measure_child_pages (&server, "--soup-child", paths, &soup_run);
      measure_curl_pages (&server, paths, 6, &wide_run);
      if (round % 2 == 1)
        measure_curl_pages (&server, paths, RESOLVER_CONNS_PER_HOST, &floor_run);

      series_add (&cli_series, &cli_run, &floor_run);
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
           "python3 -m http.server (%s build), %u rounds\n", pages->len, MIN (n_pages, pages->len),
           pages->len - MIN (n_pages, pages->len), bytes / 1048576.0, NEARBY_BUILDTYPE, rounds);
  g_print ("  %-36s %-16s %-16s %-16s %5s  %s\n", "min median max:", "wall (s)", "CPU (s)",
           "peak RSS (MB)", "reqs", "wall / floor's in its round");
  print_series (&floor_series);
  print_series (&wide_series);
  print_series (&cli_series);
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
  series_clear (&resolver_series);
  series_clear (&soup_series);
  series_clear (&peer_series);
  /* For profiling a program against the same corpus: python3 -m http.server -d DIR */
  if (g_getenv ("BENCH_RESOLVE_KEEP_CORPUS") != NULL)
    g_print ("  corpus kept in %s\n", dir);
  else
    nearby_test_remove_tree (dir);
}

int
main (int   argc,
      char *argv[])
{
  if (argc == 3 && g_str_equal (argv[1], "--resolve-child"))
    return resolve_child (argv[2]);
  if (argc == 3 && g_str_equal (argv[1], "--soup-child"))
    return soup_child (argv[2]);

  self_path = g_canonicalize_filename (argv[0], NULL);
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/bench/resolve", bench_resolve);
  g_test_add_func ("/bench/resolve-pages", bench_resolve_pages);

  return g_test_run ();
}
