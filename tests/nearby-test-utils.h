/* nearby-test-utils.h: what the tests share: waiting on the main loop, a fake clock, a source of
 * made-up sightings, temporary folders, a page cache one call at a time, a web server on
 * 127.0.0.1 and the images it serves, and the built `nearby`
 *
 * No GTK: every test links it, the widget tests included.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>
#include <libsoup/soup.h>

#include "nearby-page-cache.h"
#include "nearby-source.h"

G_BEGIN_DECLS

#define NEARBY_TEST_SECOND ((gint64) G_USEC_PER_SEC)

/* Waiting on the main context */

/* How long a test waits for something that takes milliseconds when all is well. */
#define NEARBY_TEST_WAIT_SECONDS 60

/* Timeout callbacks: the first sets the gboolean it is given, the second only wakes the loop. */
gboolean nearby_test_set_flag   (gpointer flag);
gboolean nearby_test_wake_up    (gpointer unused);
/* Lets the main loop run for a while, to observe what happens meanwhile (no assertion on time). */
void     nearby_test_run_for_ms (guint    ms);

/* Iterates the default main context until @condition holds, for at most
 * NEARBY_TEST_WAIT_SECONDS, then asserts it. Conditions that ask another process (a D-Bus call)
 * need the loop to wake up now and then, so a 20 ms timeout keeps it turning. */
#define WAIT_UNTIL(condition)                                                              \
  G_STMT_START {                                                                           \
    gboolean timed_out_ = FALSE;                                                           \
    guint timeout_id_ = g_timeout_add_seconds (NEARBY_TEST_WAIT_SECONDS,                   \
                                               nearby_test_set_flag, &timed_out_);         \
    guint poll_id_ = g_timeout_add (20, nearby_test_wake_up, NULL);                        \
    while (!(condition) && !timed_out_)                                                    \
      g_main_context_iteration (NULL, TRUE);                                               \
    if (!timed_out_)                                                                       \
      g_source_remove (timeout_id_);                                                       \
    g_source_remove (poll_id_);                                                            \
    g_assert_true (condition);                                                             \
  } G_STMT_END

/* The result of one asynchronous call: nearby_test_on_result() is its GAsyncReadyCallback. */
typedef struct {
  GAsyncResult *result;
  gboolean      done;
} NearbyTestWaiter;

void          nearby_test_on_result   (GObject          *object,
                                       GAsyncResult     *result,
                                       gpointer          waiter);
/* Waits for the call to finish; the caller owns the result. */
GAsyncResult *nearby_test_wait_result (NearbyTestWaiter *waiter);

/* CPU seconds of this process so far, all threads, user and system. */
double nearby_test_cpu_seconds (void);

/* A fake clock: nearby_test_clock_now() is a NearbyClockFunc that reads @clock->now_us, so a test
 * moves time forward by assigning it. */
typedef struct {
  gint64 now_us;
} NearbyTestClock;

gint64 nearby_test_clock_now (gpointer clock);

/* Made-up beacons */

/* A valid Eddystone-URL frame for @url, calibrated at @tx_power dBm at 0 m. */
NearbyFrame nearby_test_url_frame (const char *url,
                                   int         tx_power);

/* A byte array as bluetoothd publishes it (ay). Floating. */
GVariant   *nearby_test_bytes_variant (const guint8 *data,
                                       gsize         len);
/* ServiceData as bluetoothd publishes it: a{sv}, @uuid to @data as ay. Floating. */
GVariant   *nearby_test_service_data  (const char   *uuid,
                                       const guint8 *data,
                                       gsize         len);

/* A NearbySource that reports what the test tells it to; "scanning" until told otherwise. */
#define NEARBY_TYPE_TEST_SOURCE (nearby_test_source_get_type ())
G_DECLARE_FINAL_TYPE (NearbyTestSource, nearby_test_source, NEARBY, TEST_SOURCE, GObject)

NearbyTestSource *nearby_test_source_new       (void);
void              nearby_test_source_set_state (NearbyTestSource  *self,
                                                NearbySourceState  state,
                                                const char        *message);
/* Emits a sighting of @frame from @address; @raw (optional) is the data it was decoded from. */
void              nearby_test_source_emit (NearbyTestSource  *self,
                                           const char        *address,
                                           gint64             time_us,
                                           int                rssi,
                                           const NearbyFrame *frame,
                                           const guint8      *raw,
                                           gsize              raw_len);

/* Temporary folders and files */

/* A new empty folder under the system's temporary folder, named after @prefix. */
char     *nearby_test_make_temp_dir (const char *prefix);
/* Removes @path and everything below it, even where the test took the permissions away. */
void      nearby_test_remove_tree   (const char *path);
void      nearby_test_write_file    (const char *path,
                                     const void *data,
                                     gsize       length);
gboolean  nearby_test_file_contains (const char *path,
                                     const char *needle);

/* A page cache, one call at a time, each asserted to succeed */

void              nearby_test_cache_store  (NearbyPageCache        *cache,
                                            const char             *url,
                                            const NearbyCacheEntry *entry);
/* NULL when @url has no entry that is still good. */
NearbyCacheEntry *nearby_test_cache_lookup (NearbyPageCache        *cache,
                                            const char             *url);

/* A web server on 127.0.0.1: the tests' own, on the main loop they share with the client */

/* Makes @server listen on a new port of 127.0.0.1 (HTTPS when @options say so); returns it. */
guint  nearby_test_server_listen (SoupServer              *server,
                                  SoupServerListenOptions  options);
/* "http://127.0.0.1:PORT/PATH" */
char  *nearby_test_url           (guint                    port,
                                  const char              *path);
/* Answers @msg with @status and, when @type is not NULL, a body of @type. */
void   nearby_test_respond       (SoupServerMessage       *msg,
                                  guint                    status,
                                  const char              *type,
                                  const void              *data,
                                  gsize                    len);
void   nearby_test_respond_html  (SoupServerMessage       *msg,
                                  const char              *html);
void   nearby_test_redirect      (SoupServerMessage       *msg,
                                  guint                    status,
                                  const char              *location);

/* Images as a server sends them */

/* A @width x @height image of one colour, saved by GdkPixbuf as @type ("png", "ico", "jpeg"...). */
GBytes *nearby_test_make_image (const char *type,
                                int         width,
                                int         height);
/* The smallest GIF: one transparent pixel. */
GBytes *nearby_test_gif_1x1    (void);

/* The built `nearby` ($NEARBY_BINARY) */

/* Starts it with the NULL-terminated arguments after @error. */
GSubprocess *nearby_test_spawn_nearby  (GSubprocessFlags   flags,
                                        GError           **error,
                                        ...) G_GNUC_NULL_TERMINATED;
/* Runs it to its end while the main loop (a test's web server or bus) keeps going, writing
 * @input (may be NULL) to its standard input if it has a pipe there. Returns its exit status;
 * @out and @err get what it wrote where it had pipes. */
int          nearby_test_finish_nearby (GSubprocess       *process,
                                        const char        *input,
                                        char             **out,
                                        char             **err);

/* One run of `nearby` with every stream piped. */
typedef struct {
  int   status;
  char *out;
  char *err;
} NearbyTestRun;

NearbyTestRun *nearby_test_run_nearby  (const char    *input,
                                        const char    *first_arg,
                                        ...) G_GNUC_NULL_TERMINATED;
NearbyTestRun *nearby_test_run_nearbyv (const char    *input,
                                        const char  **argv);
void           nearby_test_run_free    (NearbyTestRun *run);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (NearbyTestRun, nearby_test_run_free)

/* JSON Lines as `nearby` writes them: a JsonObject per non-empty line, asserted to be one. */
GPtrArray     *nearby_test_parse_json_lines (const char *text);

G_END_DECLS
