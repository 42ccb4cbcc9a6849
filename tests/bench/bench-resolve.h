/* bench-resolve.h: what bench-resolve's two modes share: running a child and measuring it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

#include "bench-server.h"

G_BEGIN_DECLS

/* What nearby_resolver_new() gives the app (nearby-resolver.c): jobs at once, and the
 * session's connections per host. */
#define RESOLVER_IN_FLIGHT     4
#define RESOLVER_CONNS_PER_HOST 2
/* and its connections in all, MAX (in-flight × 2, 4): a look-up gives its slot back once its
 * page is in, so icons and manifests are fetched beside the next pages. */
#define RESOLVER_MAX_CONNS     8

/* One run of a child: wall time, peak RSS and CPU from wait4(), its standard output. */
typedef struct {
  const char *name;
  double      wall_seconds;
  double      cpu_seconds;
  long        max_rss_kb;
  guint       requests;
  guint       max_in_progress;
  double      server_cpu_seconds;  /* what the run cost the server, where it is measured */
  char       *output;
} Run;

void run_clear          (Run          *run);
void run_child_with_env (BenchServer  *server,
                         const char  **argv,
                         char        **envp,
                         Run          *run);
void run_child          (BenchServer  *server,
                         const char  **argv,
                         Run          *run);

/* bench-resolve-pages.c */
void bench_resolve_pages      (gconstpointer  self_path);
int  bench_resolve_soup_child (const char    *urls_path);

G_END_DECLS
