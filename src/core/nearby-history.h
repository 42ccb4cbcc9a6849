/* nearby-history.h: visits, favourites, hidden sites and the page cache, kept in SQLite
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "nearby-page-cache.h"

G_BEGIN_DECLS

/* One visited URL, aggregated over all its visits. */
typedef struct {
  char   *url;
  char   *host;
  guint   count;
  gint64  first_visit_us;  /* g_get_real_time() of the first and the latest visit */
  gint64  last_visit_us;
} NearbyVisit;

#define NEARBY_TYPE_VISIT (nearby_visit_get_type ())
GType        nearby_visit_get_type (void) G_GNUC_CONST;
NearbyVisit *nearby_visit_copy     (const NearbyVisit *visit);
void         nearby_visit_free     (NearbyVisit       *visit);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (NearbyVisit, nearby_visit_free)

typedef enum {
  NEARBY_HISTORY_DATA_VISITS        = 1 << 0,
  NEARBY_HISTORY_DATA_FAVOURITES    = 1 << 1,
  NEARBY_HISTORY_DATA_HIDDEN_SITES = 1 << 2,
  NEARBY_HISTORY_DATA_CACHE         = 1 << 3,
  NEARBY_HISTORY_DATA_ALL           = 0xf,
} NearbyHistoryData;

#define NEARBY_TYPE_HISTORY_DATA (nearby_history_data_get_type ())
GType nearby_history_data_get_type (void) G_GNUC_CONST;

/* The schema version this build writes (PRAGMA user_version). */
#define NEARBY_HISTORY_SCHEMA_VERSION 3

/* Stored pages and icons beyond this are pruned, oldest first. */
#define NEARBY_HISTORY_DEFAULT_CACHE_LIMIT (32 * 1024 * 1024)

/* Signals: "changed" (NearbyHistoryData what) after a write changed what is stored, on the
 * caller's main context, before that write's own callback runs. */
#define NEARBY_TYPE_HISTORY (nearby_history_get_type ())
G_DECLARE_FINAL_TYPE (NearbyHistory, nearby_history, NEARBY, HISTORY, GObject)

char          *nearby_history_dup_default_path      (void);

/* path: a database file, NULL for the default path, or ":memory:". Nothing touches the disk
 * until nearby_history_open_async(). Calls made before that fail with
 * G_IO_ERROR_NOT_INITIALIZED; calls made after it, even before it completes, wait for it:
 * jobs run one at a time, in the order they were made. */
NearbyHistory *nearby_history_new                   (const char           *path);
const char    *nearby_history_get_path              (NearbyHistory        *self);

/* Opening never fails because of the file: a damaged, unreadable or newer database is moved
 * aside and a new one started; if none can be written, the history lives in memory. Either way
 * "problem" then holds a sentence for the user (it is also set, and notified, if the file
 * turns out damaged while open). Only cancellation makes opening fail. */
void           nearby_history_open_async            (NearbyHistory        *self,
                                                     GCancellable         *cancellable,
                                                     GAsyncReadyCallback   callback,
                                                     gpointer              user_data);
gboolean       nearby_history_open_finish           (NearbyHistory        *self,
                                                     GAsyncResult         *result,
                                                     GError              **error);
gboolean       nearby_history_get_is_open           (NearbyHistory        *self);
const char    *nearby_history_get_problem           (NearbyHistory        *self);
gboolean       nearby_history_get_persistent        (NearbyHistory        *self);
/* While changes cannot be written (a full disk, a read-only folder, a lock, an I/O error), a
 * sentence for the user, set once per spell of trouble; NULL again once they are written.
 * Visits, favourites and hidden sites are kept meanwhile, and written when the disk lets
 * them; a page that could not be cached is fetched again another time. */
const char    *nearby_history_get_write_problem     (NearbyHistory        *self);
const char    *nearby_history_get_set_aside_path    (NearbyHistory        *self);

/* Completes once every call made before it has completed (jobs run in order), to wait for
 * writes before the process ends; fails only when the history never opened. */
void           nearby_history_sync_async            (NearbyHistory        *self,
                                                     GCancellable         *cancellable,
                                                     GAsyncReadyCallback   callback,
                                                     gpointer              user_data);
gboolean       nearby_history_sync_finish           (NearbyHistory        *self,
                                                     GAsyncResult         *result,
                                                     GError              **error);
/* time_us: when it happened (g_get_real_time()), or 0 for now. */
void           nearby_history_record_visit_async    (NearbyHistory        *self,
                                                     const char           *url,
                                                     gint64                time_us,
                                                     GCancellable         *cancellable,
                                                     GAsyncReadyCallback   callback,
                                                     gpointer              user_data);
gboolean       nearby_history_record_visit_finish   (NearbyHistory        *self,
                                                     GAsyncResult         *result,
                                                     GError              **error);
/* Most recent first; limit 0 means all. Returns a GPtrArray of NearbyVisit. */
void           nearby_history_list_visits_async     (NearbyHistory        *self,
                                                     guint                 limit,
                                                     GCancellable         *cancellable,
                                                     GAsyncReadyCallback   callback,
                                                     gpointer              user_data);
GPtrArray     *nearby_history_list_visits_finish    (NearbyHistory        *self,
                                                     GAsyncResult         *result,
                                                     GError              **error);
/* Synchronous and cheap (an in-memory copy kept in step with the database), for ranking.
 * It reflects every write whose callback has run. */
gboolean       nearby_history_get_visit_stats       (NearbyHistory        *self,
                                                     const char           *url,
                                                     guint                *count,
                                                     gint64               *last_visit_us);

void           nearby_history_add_favourite_async    (NearbyHistory        *self,
                                                      const char           *url,
                                                      GCancellable         *cancellable,
                                                      GAsyncReadyCallback   callback,
                                                      gpointer              user_data);
gboolean       nearby_history_add_favourite_finish   (NearbyHistory        *self,
                                                      GAsyncResult         *result,
                                                      GError              **error);
void           nearby_history_remove_favourite_async (NearbyHistory        *self,
                                                      const char           *url,
                                                      GCancellable         *cancellable,
                                                      GAsyncReadyCallback   callback,
                                                      gpointer              user_data);
gboolean       nearby_history_remove_favourite_finish (NearbyHistory       *self,
                                                       GAsyncResult        *result,
                                                       GError             **error);
/* Newest first; a NULL-terminated array. */
void           nearby_history_list_favourites_async  (NearbyHistory        *self,
                                                      GCancellable         *cancellable,
                                                      GAsyncReadyCallback   callback,
                                                      gpointer              user_data);
char         **nearby_history_list_favourites_finish (NearbyHistory        *self,
                                                      GAsyncResult         *result,
                                                      GError              **error);
gboolean       nearby_history_is_favourite           (NearbyHistory        *self,
                                                      const char           *url);

/* A hidden site is a host whose objects the list leaves out. Hosts are compared
 * case-insensitively. Undo of showing a site again is hiding it again (and the other way round):
 * nothing else is attached to a hidden site. */
void           nearby_history_hide_site_async       (NearbyHistory        *self,
                                                      const char           *host,
                                                      GCancellable         *cancellable,
                                                      GAsyncReadyCallback   callback,
                                                      gpointer              user_data);
gboolean       nearby_history_hide_site_finish      (NearbyHistory        *self,
                                                      GAsyncResult         *result,
                                                      GError              **error);
void           nearby_history_show_site_async     (NearbyHistory        *self,
                                                      const char           *host,
                                                      GCancellable         *cancellable,
                                                      GAsyncReadyCallback   callback,
                                                      gpointer              user_data);
gboolean       nearby_history_show_site_finish    (NearbyHistory        *self,
                                                      GAsyncResult         *result,
                                                      GError              **error);
void           nearby_history_list_hidden_sites_async  (NearbyHistory     *self,
                                                         GCancellable      *cancellable,
                                                         GAsyncReadyCallback callback,
                                                         gpointer           user_data);
char         **nearby_history_list_hidden_sites_finish (NearbyHistory     *self,
                                                         GAsyncResult      *result,
                                                         GError           **error);
gboolean       nearby_history_is_site_hidden        (NearbyHistory        *self,
                                                      const char           *host);

/* The entry is copied; its fetched_at_us is set to the time of storing. */
void           nearby_history_cache_store_async      (NearbyHistory          *self,
                                                      const char             *url,
                                                      const NearbyCacheEntry *entry,
                                                      GCancellable           *cancellable,
                                                      GAsyncReadyCallback     callback,
                                                      gpointer                user_data);
gboolean       nearby_history_cache_store_finish     (NearbyHistory        *self,
                                                      GAsyncResult         *result,
                                                      GError              **error);
/* Returns NULL without an error when nothing fresh is cached for the URL. */
void           nearby_history_cache_lookup_async     (NearbyHistory        *self,
                                                      const char           *url,
                                                      GCancellable         *cancellable,
                                                      GAsyncReadyCallback   callback,
                                                      gpointer              user_data);
NearbyCacheEntry *nearby_history_cache_lookup_finish (NearbyHistory        *self,
                                                      GAsyncResult         *result,
                                                      GError              **error);
/* Removes expired entries, then the oldest until the rest fit in the cache limit.
 * Storing does the same when the limit is exceeded. */
void           nearby_history_cache_prune_async      (NearbyHistory        *self,
                                                      GCancellable         *cancellable,
                                                      GAsyncReadyCallback   callback,
                                                      gpointer              user_data);
gboolean       nearby_history_cache_prune_finish     (NearbyHistory        *self,
                                                      GAsyncResult         *result,
                                                      GError              **error);
void           nearby_history_set_cache_limit        (NearbyHistory        *self,
                                                      gint64                max_bytes);
gint64         nearby_history_get_cache_limit        (NearbyHistory        *self);

/* Deletes for good: freed pages are zeroed, the write-ahead log is emptied and the file
 * rebuilt, so nothing of what was removed stays on disk. */
void           nearby_history_clear_async            (NearbyHistory        *self,
                                                      NearbyHistoryData     what,
                                                      GCancellable         *cancellable,
                                                      GAsyncReadyCallback   callback,
                                                      gpointer              user_data);
gboolean       nearby_history_clear_finish           (NearbyHistory        *self,
                                                      GAsyncResult         *result,
                                                      GError              **error);

G_END_DECLS
