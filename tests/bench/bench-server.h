/* bench-server.h: pages with icons, served from a thread of the benchmark's own process
 *
 * /p/N is a page titled "Exhibit N: the loom", with a description and <link rel=icon> to
 * /i/N.png, a 32x32 PNG. Every answer is held for the server's latency before it is sent. The
 * server listens on 127.0.0.1 … 127.0.0.<n_hosts>, one port, so that a client sees that many
 * hosts, and on [::1] (same port) when it can.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define BENCH_SERVER_MAX_INDEX 4096   /* pages whose arrival times are kept */

typedef struct _BenchServer BenchServer;

BenchServer *bench_server_start          (guint        latency_ms,
                                          guint        n_hosts);
void         bench_server_stop           (BenchServer *server,
                                          double      *cpu_seconds);
guint        bench_server_get_port       (BenchServer *server);
char        *bench_server_page_title     (guint        index);
void         bench_server_take_counts    (BenchServer *server,
                                          guint       *requests,
                                          guint       *max_in_progress);
gint64       bench_server_page_arrival   (BenchServer *server,
                                          guint        index);
gint64       bench_server_icon_arrival   (BenchServer *server,
                                          guint        index);

G_END_DECLS
