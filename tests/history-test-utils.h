/* history-test-utils.h: what the history tests share: one call at a time, a temporary history,
 * and the database file read behind the history's back
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <sqlite3.h>

#include "nearby-history.h"
#include "nearby-test-utils.h"

G_BEGIN_DECLS

/* The history, one call at a time, each asserted to succeed unless said otherwise */

NearbyHistory    *open_history     (const char    *path);
/* Asserts that nothing else holds the history. */
void              close_history    (NearbyHistory *history);
gboolean          try_record_visit (NearbyHistory  *history,
                                    const char     *url,
                                    gint64          time_us,
                                    GError        **error);
void              record_visit     (NearbyHistory *history,
                                    const char    *url,
                                    gint64         time_us);
GPtrArray        *list_visits      (NearbyHistory *history,
                                    guint          limit);
/* From now on, ORs into *@seen what each "changed" signal of @history says has changed. */
void              collect_changes  (NearbyHistory *history,
                                    guint         *seen);

typedef void     (*KeyAsync)  (NearbyHistory *, const char *, GCancellable *,
                               GAsyncReadyCallback, gpointer);
typedef gboolean (*KeyFinish) (NearbyHistory *, GAsyncResult *, GError **);
typedef void     (*ListAsync) (NearbyHistory *, GCancellable *, GAsyncReadyCallback, gpointer);
typedef char **  (*ListFinish) (NearbyHistory *, GAsyncResult *, GError **);

void              run_key_job      (NearbyHistory *history,
                                    KeyAsync       start,
                                    KeyFinish      finish,
                                    const char    *key);
char            **run_list_job     (NearbyHistory *history,
                                    ListAsync      start,
                                    ListFinish     finish);

void              cache_store      (NearbyHistory *history,
                                    const char    *url,
                                    const char    *page_json,
                                    GBytes        *icon,
                                    const char    *icon_type,
                                    gint64         expires_at_us);
NearbyCacheEntry *cache_lookup     (NearbyHistory *history,
                                    const char    *url);

/* Temporary folders and files */

/* A new folder, and the path of a history in it that does not exist yet. */
typedef struct {
  char *dir;
  char *path;
} TempHistory;

void              temp_history_init  (TempHistory *temp);
/* Removes the folder and everything in it. */
void              temp_history_clear (TempHistory *temp);
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (TempHistory, temp_history_clear)


/* The database file, behind the history's back */

sqlite3          *raw_open           (const char  *path);
void              raw_exec           (sqlite3     *db,
                                      const char  *sql);
gint64            raw_query_int      (sqlite3     *db,
                                      const char  *sql);

G_END_DECLS
