/* nearby-history-private.h: what the files of NearbyHistory share: the object, its jobs and
 * the SQLite helpers of its worker thread
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <sqlite3.h>

#include "nearby-history.h"

G_BEGIN_DECLS

/* SQLite runs on one worker thread that owns the connection and takes jobs from a queue in
 * order. A job's results travel back to the caller's main context, where the in-memory
 * snapshots (for the synchronous lookups) are updated before the caller's callback runs.
 * nearby-history.c is the object and runs the worker, nearby-history-database.c opens the
 * file, and the tables have their files: visits, sites (favourites and hidden sites) and the
 * page cache. */

G_DEFINE_AUTOPTR_CLEANUP_FUNC (sqlite3_stmt, sqlite3_finalize)

typedef struct {
  char        *path;
  sqlite3     *db;
  GAsyncQueue *queue;
  GQueue       held;    /* writes that failed, in order, to retry (nearby-history-writes.c) */
  /* SQL text -> sqlite3_stmt on statements_db, prepared once (nearby-history-database.c) */
  GHashTable  *statements;
  sqlite3     *statements_db;
} NearbyHistoryWorker;

typedef struct _NearbyHistoryJob NearbyHistoryJob;

typedef gpointer (*NearbyHistoryJobRun)   (NearbyHistoryWorker  *worker,
                                           NearbyHistoryJob     *job,
                                           GError              **error);
typedef void     (*NearbyHistoryJobApply) (NearbyHistory    *self,
                                           NearbyHistoryJob *job);

/* What a failed write becomes: nothing (a read), a problem to report (the page cache, which
 * can be fetched again), or also data kept in memory and written when the disk lets it. */
typedef enum {
  NEARBY_HISTORY_WRITE_NONE,
  NEARBY_HISTORY_WRITE_REPORT,
  NEARBY_HISTORY_WRITE_KEEP,
} NearbyHistoryWrite;

struct _NearbyHistoryJob
{
  NearbyHistoryJobRun    run;     /* on the worker; NULL stops the worker */
  NearbyHistoryJobApply  apply;   /* on the caller's context, only if run succeeded */
  GTask                 *task;

  char                  *key;     /* a URL, or a host */
  char                  *text;
  NearbyCacheEntry      *entry;
  gint64                 time_us;
  gint64                 limit;
  gint64                 cache_limit;
  NearbyHistoryData      what;

  gpointer               result;
  GDestroyNotify         result_destroy;
  GError                *error;
  NearbyHistoryData      changed;
  guint                  visit_count;
  gint64                 last_visit_us;

  NearbyHistoryWrite     write;
  NearbyHistoryJobApply  apply_held;   /* the in-memory effect of a kept write; NULL: apply */
  gboolean               held;         /* this write failed and is kept to be retried */
  GError                *write_error;  /* why a write failed, to report */
  gboolean               all_written;  /* every kept write has now reached the disk */
};

struct _NearbyHistory
{
  GObject      parent_instance;

  char        *path;
  GAsyncQueue *queue;
  GThread     *worker_thread;

  GHashTable  *visit_stats;    /* url -> its VisitStats (nearby-history-visits.c) */
  GHashTable  *favourites;     /* url set */
  GHashTable  *hidden_sites;  /* host set */

  char        *problem;
  char        *write_problem;
  guint        retry_source;
  char        *set_aside_path;
  gint64       cache_limit;

  guint        is_open : 1;
  guint        persistent : 1;
  guint        damage_reported : 1;
};

/* What opening found, handed from the worker to the object. */
typedef struct {
  char       *problem;
  char       *set_aside_path;
  gboolean    persistent;
  GHashTable *visit_stats;
  GHashTable *favourites;
  GHashTable *hidden_sites;
} NearbyHistoryOpenResult;

/* nearby-history.c: jobs, queued from the caller's thread */
NearbyHistoryJob *_nearby_history_job_new           (NearbyHistory          *self,
                                                     NearbyHistoryJobRun     run,
                                                     NearbyHistoryJobApply   apply,
                                                     gpointer                source_tag,
                                                     GCancellable           *cancellable,
                                                     GAsyncReadyCallback     callback,
                                                     gpointer                user_data);
void              _nearby_history_job_queue         (NearbyHistory          *self,
                                                     NearbyHistoryJob       *job);
gboolean          _nearby_history_propagate_boolean (NearbyHistory          *self,
                                                     GAsyncResult           *result,
                                                     gpointer                source_tag,
                                                     GError                **error);
/* For the jobs that hand back a value: the value, which the caller owns, or NULL. */
gpointer          _nearby_history_propagate_pointer (NearbyHistory          *self,
                                                     GAsyncResult           *result,
                                                     gpointer                source_tag,
                                                     GError                **error);
/* Whether a URL or host may be stored: not empty, not absurdly long, UTF-8. */
gboolean          _nearby_history_key_is_acceptable (const char             *key);

/* nearby-history-writes.c: failed writes kept and retried */
/* On the worker, around a job: retries what is kept, runs the job, keeps it if it is a write
 * that failed for want of a writable disk. */
void              _nearby_history_worker_run_write  (NearbyHistoryWorker    *worker,
                                                     NearbyHistoryJob       *job);
void              _nearby_history_worker_clear_held (NearbyHistoryWorker    *worker);
/* On the caller's context, as a job completes: reports a failed write once, and notices when
 * the kept ones went through. */
void              _nearby_history_note_write        (NearbyHistory          *self,
                                                     NearbyHistoryJob       *job);
void              _nearby_history_writes_dispose    (NearbyHistory          *self);
void              _nearby_history_notify_write_problem (NearbyHistory       *self);

/* nearby-history-database.c: SQLite, on the worker thread only */
gboolean          _nearby_history_set_error         (sqlite3                *db,
                                                     int                     rc,
                                                     GError                **error);
gboolean          _nearby_history_reconnect         (NearbyHistoryWorker    *worker,
                                                     GError                **error);
gboolean          _nearby_history_exec              (sqlite3                *db,
                                                     const char             *sql,
                                                     GError                **error);
sqlite3_stmt     *_nearby_history_prepare           (sqlite3                *db,
                                                     const char             *sql,
                                                     GError                **error);
gboolean          _nearby_history_step_done         (sqlite3_stmt           *stmt,
                                                     GError                **error);
gboolean          _nearby_history_begin             (sqlite3                *db,
                                                     GError                **error);
gboolean          _nearby_history_commit            (sqlite3                *db,
                                                     GError                **error);
/* Always returns FALSE, so that a failing job can return it. */
gboolean          _nearby_history_rollback          (sqlite3                *db);
/* A statement of the worker's connection, prepared the first time and kept: reset, its
 * bindings cleared. The caller resets it when done (g_autoptr(NearbyHistoryStatement)). */
typedef sqlite3_stmt NearbyHistoryStatement;
NearbyHistoryStatement *_nearby_history_statement   (NearbyHistoryWorker    *worker,
                                                     const char             *sql,
                                                     GError                **error);
/* Before the worker's connection is closed, which fails while statements are left. */
void              _nearby_history_forget_statements (NearbyHistoryWorker    *worker);
gboolean          _nearby_history_query_int         (sqlite3                *db,
                                                     const char             *sql,
                                                     gint64                 *value,
                                                     GError                **error);

/* The job that opens the database; its result is a NearbyHistoryOpenResult. */
gpointer          _nearby_history_open_run          (NearbyHistoryWorker    *worker,
                                                     NearbyHistoryJob       *job,
                                                     GError                **error);
void              _nearby_history_open_result_free  (NearbyHistoryOpenResult *result);

/* nearby-history-visits.c */
GHashTable       *_nearby_history_visit_stats_new   (void);
gboolean          _nearby_history_load_visit_stats  (sqlite3                *db,
                                                     GHashTable             *visit_stats,
                                                     GError                **error);

/* nearby-history-sites.c */
GHashTable       *_nearby_history_site_set_new      (void);
gboolean          _nearby_history_load_sites        (sqlite3                *db,
                                                     GHashTable             *favourites,
                                                     GHashTable             *hidden_sites,
                                                     GError                **error);

/* nearby-history-cache.c */
void              _nearby_history_page_cache_iface_init (NearbyPageCacheInterface *iface);
gboolean          _nearby_history_job_is_cache_store (NearbyHistoryJob      *job);
/* Runs cache stores that came one after the other in one transaction; on any failure, each
 * on its own as _nearby_history_worker_run_write would. */
void              _nearby_history_cache_store_batch (NearbyHistoryWorker    *worker,
                                                     GPtrArray              *jobs);

static inline void
_nearby_history_statement_release (NearbyHistoryStatement *stmt)
{
  sqlite3_reset (stmt);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (NearbyHistoryStatement, _nearby_history_statement_release)

G_END_DECLS
