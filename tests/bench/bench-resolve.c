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
 * The page mode, against real page shapes and metascraper, is in bench-resolve-pages.c.
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

#include "bench-resolve.h"
#include "bench-server.h"
#include "bench-util.h"
#include "nearby-resolver.h"
#include "nearby-test-utils.h"

#define N_HOSTS_SPREAD   250

extern char **environ;

/* Children */

void
run_clear (Run *run)
{
  g_clear_pointer (&run->output, g_free);
}

/* Runs @argv to its end; its stdout goes to a temporary file, which is returned in run->output.
 * @server, when given, counts the requests of the run. */
void
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

void
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
  /* Many hosts: the session's limit in all, since icons are fetched beside the next pages. */
  total_requests += bench_scenario (server, "many hosts", n_pages, N_HOSTS_SPREAD, latency_ms,
                                    RESOLVER_MAX_CONNS);

  bench_server_stop (server, &server_cpu);
  g_print ("\n  server thread: %.3f s CPU for %u requests (%.0f us each)\n", server_cpu,
           total_requests, server_cpu * 1e6 / MAX (total_requests, 1));
}

int
main (int   argc,
      char *argv[])
{
  if (argc == 3 && g_str_equal (argv[1], "--resolve-child"))
    return resolve_child (argv[2]);
  if (argc == 3 && g_str_equal (argv[1], "--soup-child"))
    return bench_resolve_soup_child (argv[2]);

  self_path = g_canonicalize_filename (argv[0], NULL);
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/bench/resolve", bench_resolve);
  g_test_add_data_func ("/bench/resolve-pages", self_path, bench_resolve_pages);

  return g_test_run ();
}
