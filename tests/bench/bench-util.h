/* bench-util.h: what every benchmark needs: its settings, its clocks and its statistics
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "nearby-source.h"
#include "nearby-test-utils.h"

G_BEGIN_DECLS

/* The value of the environment variable @name, or @fallback when unset, empty or not positive. */
guint  bench_env_uint          (const char *name,
                                guint       fallback);
/* The value of the environment variable @name, or @fallback when unset or empty. */
double bench_env_double        (const char *name,
                                double      fallback);


/* Asynchronous calls started together and waited for together: count each one in with
 * `pending++` as it starts, with bench_calls_done() as its callback, then bench_calls_wait(). */
typedef struct {
  guint pending;
} BenchCalls;

/* A GAsyncReadyCallback for calls whose GTask returns a boolean: a failure ends the benchmark. */
void   bench_calls_done        (GObject      *object,
                                GAsyncResult *result,
                                gpointer      calls);
void   bench_calls_wait        (BenchCalls   *calls);

int    bench_compare_doubles   (const void *a,
                                const void *b);
int    bench_compare_gint64    (const void *a,
                                const void *b);
/* The @percentile (0..100) of @values, sorted in place. */
double bench_percentile        (GArray     *values,
                                double      percentile);


/* For benchmarks that spawn the app under X: makes @config_home a keyfile settings store
 * (GSETTINGS_BACKEND=keyfile) where the privacy choice is made, with @extra_settings ("key=value"
 * lines, or NULL) too, and starts a private bus that is both the session and the system bus of
 * the children. The window's first-frame message is on (G_MESSAGES_DEBUG), and GTK_A11Y=none
 * unless set: there is no accessibility bus on the private bus. Returns the bus, for
 * bench_app_environment_down(). */
GTestDBus *bench_app_environment_up   (const char *config_home,
                                       const char *extra_settings);
void       bench_app_environment_down (GTestDBus  *bus);

/* The Device1 properties of a beacon sending the Eddystone-URL frame of @url (calibrated power
 * -20 dBm) at @rssi, as the mock bluetoothd's AddBeacon and UpdateDevice take them (a{sv}). */
GVariant *bench_eddystone_url_properties (const char *url,
                                          int         rssi);

/* Beacon number @index, as a source hands it over: address C0:FF:EE:xx:xx:xx from @index, the
 * Eddystone-URL frame (and its bytes) of https://example.com/o/INDEX, calibrated at -20 dBm. */
NearbySighting *bench_beacon_sighting (guint  index,
                                       gint64 time_us,
                                       int    rssi);

/* What a running program costs, measured from outside it: its CPU (utime + stime of every
 * thread, from /proc/PID/stat) over @seconds, in % of a core; and its poll(), ppoll() and
 * epoll_wait() calls per second over @seconds (`strace -f -c` attached to it, its summary
 * written into @tmp), or -1 without strace. strace slows what it traces: take the CPU first. */
double bench_process_cpu_percent   (GPid        pid,
                                    guint       seconds);
double bench_process_wakeups_per_s (GPid        pid,
                                    guint       seconds,
                                    const char *tmp);
/* The same calls of each thread of @pid per second over @seconds, summed by thread name
 * (/proc/PID/task/TID/comm), as "name 12.3, other 4.5" from the busiest down; NULL without
 * strace. Each call is written out by strace, which slows the program more than -c does. */
char  *bench_process_wakeups_by_thread (GPid        pid,
                                        guint       seconds,
                                        const char *tmp);
/* A child's standard output, read to its end on the main context (so that the child never
 * blocks on a full pipe) and kept; @seen is set once a line holds @marker. */
typedef struct {
  GString    *output;
  const char *marker;
  gboolean    seen;
  gboolean    ended;
} BenchChildOutput;

void   bench_child_output_read     (BenchChildOutput *reading,
                                    GInputStream     *stream);

G_END_DECLS
