/* nearby-history-database.c: the SQLite file: opening, checking, migrating, setting aside
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "nearby-history"

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

#include "nearby-history-private.h"

#define HISTORY_BUSY_TIMEOUT_MS 5000
/* Debian builds SQLite without secure delete: removed rows must not linger in free pages. The
 * page cache is SQLite's 2 MiB by default, which the pages and icons written for a busy room
 * fill and keep for as long as the app runs; a look-up reads a few pages of an index, and a miss
 * costs a read from the system's own cache. */
#define HISTORY_CONNECTION_PRAGMAS \
  "PRAGMA foreign_keys = ON; PRAGMA secure_delete = ON; PRAGMA cache_size = -256"

/* Each entry upgrades the schema from its index to the next version. A shipped entry never
 * changes: a new version appends one. */
static const char * const migrations[] = {
  /* 0 -> 1 */
  "CREATE TABLE visits ("
  "  id INTEGER PRIMARY KEY,"
  "  url TEXT NOT NULL UNIQUE,"
  "  host TEXT NOT NULL,"
  "  visit_count INTEGER NOT NULL DEFAULT 1 CHECK (visit_count >= 1),"
  "  first_visit_us INTEGER NOT NULL,"
  "  last_visit_us INTEGER NOT NULL"
  ");"
  "CREATE INDEX visits_by_last_visit ON visits (last_visit_us);"
  "CREATE INDEX visits_by_host ON visits (host);"
  "CREATE TABLE favourites ("
  "  url TEXT PRIMARY KEY,"
  "  added_us INTEGER NOT NULL"
  ");"
  "CREATE TABLE blocked_hosts ("
  "  host TEXT PRIMARY KEY,"
  "  blocked_us INTEGER NOT NULL"
  ");",

  /* 1 -> 2. Pruning adds up sizes newest first: the index on (fetched_us, size_bytes)
   * answers that without reading the rows and their icons. */
  "CREATE TABLE page_cache ("
  "  url TEXT PRIMARY KEY,"
  "  fetched_us INTEGER NOT NULL,"
  "  expires_us INTEGER NOT NULL,"
  "  size_bytes INTEGER NOT NULL CHECK (size_bytes >= 0),"
  "  icon_type TEXT,"
  "  page_json TEXT,"
  "  icon BLOB"
  ");"
  "CREATE INDEX page_cache_by_fetched ON page_cache (fetched_us, size_bytes);"
  "CREATE INDEX page_cache_by_expires ON page_cache (expires_us);",

  /* 2 -> 3. The table takes the name the app gives what the person chose: hidden sites. */
  "ALTER TABLE blocked_hosts RENAME TO hidden_sites;"
  "ALTER TABLE hidden_sites RENAME COLUMN blocked_us TO hidden_us;",
};

G_STATIC_ASSERT (G_N_ELEMENTS (migrations) == NEARBY_HISTORY_SCHEMA_VERSION);

/* Queries that every table of the current schema must answer, or the file is not ours. */
static const char * const schema_probes[] = {
  "SELECT id, url, host, visit_count, first_visit_us, last_visit_us FROM visits LIMIT 0",
  "SELECT url, added_us FROM favourites LIMIT 0",
  "SELECT host, hidden_us FROM hidden_sites LIMIT 0",
  "SELECT url, page_json, icon, icon_type, fetched_us, expires_us, size_bytes"
  " FROM page_cache LIMIT 0",
};

/* Statements */

static GIOErrorEnum
history_io_error_from_sqlite (int rc)
{
  switch (rc & 0xff)
    {
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
      return G_IO_ERROR_BUSY;
    case SQLITE_READONLY:
      return G_IO_ERROR_READ_ONLY;
    case SQLITE_PERM:
    case SQLITE_AUTH:
      return G_IO_ERROR_PERMISSION_DENIED;
    case SQLITE_FULL:
      return G_IO_ERROR_NO_SPACE;
    case SQLITE_CORRUPT:
    case SQLITE_NOTADB:
      return G_IO_ERROR_INVALID_DATA;
    case SQLITE_CONSTRAINT:
    case SQLITE_TOOBIG:
    case SQLITE_RANGE:
      return G_IO_ERROR_INVALID_ARGUMENT;
    default:
      return G_IO_ERROR_FAILED;
    }
}

gboolean
_nearby_history_set_error (sqlite3  *db,
                           int       rc,
                           GError  **error)
{
  g_set_error (error, G_IO_ERROR, history_io_error_from_sqlite (rc),
               "History database: %s", db != NULL ? sqlite3_errmsg (db) : sqlite3_errstr (rc));
  return FALSE;
}

/* A connection that met a full disk can keep failing writes after room was made (its pager
 * stays in its error state, shared by the connections of this process to the file): closing
 * it and opening the file again, set up as before, clears that. */
gboolean
_nearby_history_reconnect (NearbyHistoryWorker  *worker,
                           GError              **error)
{
  g_autofree char *path = g_strdup (sqlite3_db_filename (worker->db, "main"));
  int rc;

  /* A history kept in memory has no file to go back to, and no disk to fill. */
  if (path == NULL || *path == '\0')
    return TRUE;

  _nearby_history_forget_statements (worker);
  sqlite3_close (worker->db);
  worker->db = NULL;
  rc = sqlite3_open_v2 (path, &worker->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, NULL);
  if (rc != SQLITE_OK)
    {
      _nearby_history_set_error (worker->db, rc, error);
      return FALSE;
    }

  sqlite3_busy_timeout (worker->db, HISTORY_BUSY_TIMEOUT_MS);
  sqlite3_extended_result_codes (worker->db, 1);

  /* The write-ahead log is a setting of the file; the rest belongs to each connection. */
  return _nearby_history_exec (worker->db, HISTORY_CONNECTION_PRAGMAS "; PRAGMA synchronous = NORMAL",
                               error);
}

gboolean
_nearby_history_exec (sqlite3     *db,
                      const char  *sql,
                      GError     **error)
{
  char *message = NULL;
  int rc = sqlite3_exec (db, sql, NULL, NULL, &message);

  if (rc != SQLITE_OK)
    {
      g_set_error (error, G_IO_ERROR, history_io_error_from_sqlite (rc),
                   "History database: %s", message != NULL ? message : sqlite3_errstr (rc));
      sqlite3_free (message);
      return FALSE;
    }

  return TRUE;
}

sqlite3_stmt *
_nearby_history_prepare (sqlite3     *db,
                         const char  *sql,
                         GError     **error)
{
  sqlite3_stmt *stmt = NULL;
  int rc = sqlite3_prepare_v2 (db, sql, -1, &stmt, NULL);

  if (rc != SQLITE_OK)
    {
      _nearby_history_set_error (db, rc, error);
      sqlite3_finalize (stmt);
      return NULL;
    }

  return stmt;
}

void
_nearby_history_forget_statements (NearbyHistoryWorker *worker)
{
  g_clear_pointer (&worker->statements, g_hash_table_unref);
  worker->statements_db = NULL;
}

/* Preparing parses and plans the SQL each time: for the statements run once per page stored
 * or looked up, that was a good part of the worker's time. */
NearbyHistoryStatement *
_nearby_history_statement (NearbyHistoryWorker  *worker,
                           const char           *sql,
                           GError              **error)
{
  sqlite3_stmt *stmt;
  int rc;

  if (worker->statements_db != worker->db)
    _nearby_history_forget_statements (worker);
  if (worker->statements == NULL)
    {
      worker->statements = g_hash_table_new_full (g_str_hash, g_str_equal, NULL,
                                                  (GDestroyNotify) sqlite3_finalize);
      worker->statements_db = worker->db;
    }

  stmt = g_hash_table_lookup (worker->statements, sql);
  if (stmt != NULL)
    {
      sqlite3_reset (stmt);
      sqlite3_clear_bindings (stmt);
      return stmt;
    }

  rc = sqlite3_prepare_v3 (worker->db, sql, -1, SQLITE_PREPARE_PERSISTENT, &stmt, NULL);
  if (rc != SQLITE_OK)
    {
      _nearby_history_set_error (worker->db, rc, error);
      sqlite3_finalize (stmt);
      return NULL;
    }
  /* The key is the caller's SQL, a string literal. */
  g_hash_table_insert (worker->statements, (gpointer) sql, stmt);

  return stmt;
}

/* Steps a statement that returns no rows (or whose rows are not needed) to its end. */
gboolean
_nearby_history_step_done (sqlite3_stmt  *stmt,
                           GError       **error)
{
  int rc;

  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    ;

  if (rc != SQLITE_DONE)
    return _nearby_history_set_error (sqlite3_db_handle (stmt), rc, error);

  return TRUE;
}

gboolean
_nearby_history_begin (sqlite3  *db,
                       GError  **error)
{
  return _nearby_history_exec (db, "BEGIN IMMEDIATE", error);
}

gboolean
_nearby_history_commit (sqlite3  *db,
                        GError  **error)
{
  if (!_nearby_history_exec (db, "COMMIT", error))
    {
      sqlite3_exec (db, "ROLLBACK", NULL, NULL, NULL);
      return FALSE;
    }

  return TRUE;
}

gboolean
_nearby_history_rollback (sqlite3 *db)
{
  if (sqlite3_get_autocommit (db) == 0)
    sqlite3_exec (db, "ROLLBACK", NULL, NULL, NULL);

  return FALSE;
}

static char *
history_query_text (sqlite3     *db,
                    const char  *sql,
                    GError     **error)
{
  g_autoptr(sqlite3_stmt) stmt = _nearby_history_prepare (db, sql, error);
  int rc;

  if (stmt == NULL)
    return NULL;

  rc = sqlite3_step (stmt);
  if (rc == SQLITE_ROW)
    {
      const char *text = (const char *) sqlite3_column_text (stmt, 0);

      return g_strdup (text != NULL ? text : "");
    }

  if (rc == SQLITE_DONE)
    return g_strdup ("");

  _nearby_history_set_error (db, rc, error);
  return NULL;
}

gboolean
_nearby_history_query_int (sqlite3     *db,
                           const char  *sql,
                           gint64      *value,
                           GError     **error)
{
  g_autoptr(sqlite3_stmt) stmt = _nearby_history_prepare (db, sql, error);
  int rc;

  if (stmt == NULL)
    return FALSE;

  rc = sqlite3_step (stmt);
  if (rc == SQLITE_ROW)
    {
      *value = sqlite3_column_int64 (stmt, 0);
      return TRUE;
    }

  if (rc == SQLITE_DONE)
    {
      *value = 0;
      return TRUE;
    }

  return _nearby_history_set_error (db, rc, error);
}

/* Opening */

void
_nearby_history_open_result_free (NearbyHistoryOpenResult *result)
{
  g_free (result->problem);
  g_free (result->set_aside_path);
  g_clear_pointer (&result->visit_stats, g_hash_table_unref);
  g_clear_pointer (&result->favourites, g_hash_table_unref);
  g_clear_pointer (&result->hidden_sites, g_hash_table_unref);
  g_free (result);
}

static gboolean
history_load_snapshot (sqlite3                  *db,
                       NearbyHistoryOpenResult  *result,
                       GError                  **error)
{
  result->visit_stats = _nearby_history_visit_stats_new ();
  result->favourites = _nearby_history_site_set_new ();
  result->hidden_sites = _nearby_history_site_set_new ();

  return _nearby_history_load_visit_stats (db, result->visit_stats, error) &&
         _nearby_history_load_sites (db, result->favourites, result->hidden_sites, error);
}

static gboolean
history_migrate (sqlite3  *db,
                 GError  **error)
{
  for (;;)
    {
      g_autofree char *set_version = NULL;
      gint64 version = 0;

      if (!_nearby_history_begin (db, error))
        return FALSE;

      if (!_nearby_history_query_int (db, "PRAGMA user_version", &version, error))
        return _nearby_history_rollback (db);

      if (version > NEARBY_HISTORY_SCHEMA_VERSION)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                       "History database has schema version %" G_GINT64_FORMAT
                       ", newer than %d", version, NEARBY_HISTORY_SCHEMA_VERSION);
          return _nearby_history_rollback (db);
        }

      if (version == NEARBY_HISTORY_SCHEMA_VERSION)
        return _nearby_history_commit (db, error);

      if (version < 0)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       "History database has an invalid schema version %" G_GINT64_FORMAT,
                       version);
          return _nearby_history_rollback (db);
        }

      g_debug ("Migrating the history schema from version %" G_GINT64_FORMAT, version);

      set_version = g_strdup_printf ("PRAGMA user_version = %" G_GINT64_FORMAT, version + 1);
      if (!_nearby_history_exec (db, migrations[version], error) ||
          !_nearby_history_exec (db, set_version, error) ||
          !_nearby_history_commit (db, error))
        return _nearby_history_rollback (db);
    }
}

static gboolean
history_configure (sqlite3   *db,
                   gboolean   on_disk,
                   gboolean   created,
                   GError   **error)
{
  g_autofree char *quick_check = NULL;

  sqlite3_busy_timeout (db, HISTORY_BUSY_TIMEOUT_MS);
  sqlite3_extended_result_codes (db, 1);

  if (!_nearby_history_exec (db, HISTORY_CONNECTION_PRAGMAS, error))
    return FALSE;

  if (on_disk)
    {
      g_autofree char *mode = NULL;

      /* Turning a new, empty file to WAL writes its first page through a rollback journal,
       * with four syncs, and the schema's first write syncs the log's header. Nothing is in it
       * yet: if the machine stops midway, the next start finds a file that fails its check
       * (set aside) or an older schema version (migrated again), and loses nothing. The
       * schema is synced with the first checkpoint, at the latest when the history closes. */
      if (created && !_nearby_history_exec (db, "PRAGMA synchronous = OFF", error))
        return FALSE;

      mode = history_query_text (db, "PRAGMA journal_mode = WAL", error);

      if (mode == NULL)
        return FALSE;
      if (g_ascii_strcasecmp (mode, "wal") != 0)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                       "History database could not use a write-ahead log (journal mode %s)", mode);
          return FALSE;
        }

      if (!created && !_nearby_history_exec (db, "PRAGMA synchronous = NORMAL", error))
        return FALSE;

      quick_check = history_query_text (db, "PRAGMA quick_check", error);
      if (quick_check == NULL)
        return FALSE;
      if (strcmp (quick_check, "ok") != 0)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       "History database failed its check: %s", quick_check);
          return FALSE;
        }
    }

  if (!history_migrate (db, error))
    return FALSE;

  if (created && !_nearby_history_exec (db, "PRAGMA synchronous = NORMAL", error))
    return FALSE;

  for (guint i = 0; i < G_N_ELEMENTS (schema_probes); i++)
    {
      g_autoptr(GError) probe_error = NULL;
      g_autoptr(sqlite3_stmt) probe = _nearby_history_prepare (db, schema_probes[i], &probe_error);

      if (probe == NULL)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       "History database has an unexpected schema: %s", probe_error->message);
          return FALSE;
        }
    }

  return TRUE;
}

static sqlite3 *
history_open_database (const char               *path,
                       NearbyHistoryOpenResult  *result,
                       GError                  **error)
{
  gboolean on_disk = strcmp (path, ":memory:") != 0;
  gboolean created = FALSE;
  sqlite3 *db = NULL;
  int rc;

  if (on_disk && g_file_test (path, G_FILE_TEST_EXISTS) &&
      !g_file_test (path, G_FILE_TEST_IS_REGULAR))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_REGULAR_FILE,
                   "History database %s is not a regular file", path);
      return NULL;
    }

  if (on_disk && g_file_test (path, G_FILE_TEST_EXISTS) && g_access (path, R_OK) != 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_PERMISSION_DENIED,
                   "History database %s cannot be read", path);
      return NULL;
    }

  /* SQLite would create it world-readable, and gives its log the same mode: a history is
   * nobody else's business. */
  if (on_disk)
    {
      int fd = g_open (path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);

      if (fd >= 0)
        {
          g_close (fd, NULL);
          created = TRUE;
        }
    }

  rc = sqlite3_open_v2 (path, &db,
                        SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
                        NULL);
  if (rc != SQLITE_OK)
    {
      _nearby_history_set_error (db, rc, error);
      sqlite3_close (db);
      return NULL;
    }

  /* SQLite quietly opens a file it cannot write read-only; then every visit would fail. */
  if (sqlite3_db_readonly (db, "main") == 1)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_READ_ONLY,
                   "History database %s is read-only", path);
      sqlite3_close (db);
      return NULL;
    }

  if (!history_configure (db, on_disk, created, error) ||
      !history_load_snapshot (db, result, error))
    {
      sqlite3_close (db);
      g_clear_pointer (&result->visit_stats, g_hash_table_unref);
      g_clear_pointer (&result->favourites, g_hash_table_unref);
      g_clear_pointer (&result->hidden_sites, g_hash_table_unref);
      return NULL;
    }

  return db;
}

/* Renames the database (and its log) out of the way, keeping it for whoever wants to look. */
static gboolean
history_set_aside (const char  *path,
                   char       **set_aside_path,
                   GError     **error)
{
  static const char * const companions[] = { "-wal", "-shm", "-journal" };
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();
  g_autofree char *stamp = g_date_time_format (now, "%Y%m%dT%H%M%SZ");
  g_autofree char *aside = NULL;

  for (guint attempt = 0; aside == NULL; attempt++)
    {
      g_autofree char *candidate = NULL;

      if (attempt == 0)
        candidate = g_strdup_printf ("%s.corrupt-%s", path, stamp);
      else
        candidate = g_strdup_printf ("%s.corrupt-%s-%u", path, stamp, attempt);

      if (!g_file_test (candidate, G_FILE_TEST_EXISTS))
        aside = g_steal_pointer (&candidate);
    }

  if (g_rename (path, aside) != 0)
    {
      int saved_errno = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                   "Could not move %s aside: %s", path, g_strerror (saved_errno));
      return FALSE;
    }

  for (guint i = 0; i < G_N_ELEMENTS (companions); i++)
    {
      g_autofree char *from = g_strconcat (path, companions[i], NULL);
      g_autofree char *to = g_strconcat (aside, companions[i], NULL);

      if (!g_file_test (from, G_FILE_TEST_EXISTS))
        continue;

      /* A log left beside a new database would be replayed into it. */
      if (g_rename (from, to) != 0 && g_unlink (from) != 0)
        {
          int saved_errno = errno;

          g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                       "Could not move %s aside: %s", from, g_strerror (saved_errno));
          return FALSE;
        }
    }

  *set_aside_path = g_steal_pointer (&aside);
  return TRUE;
}

static const char *
history_problem_for_error (const GError *error)
{
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED))
    return _("Your history was saved by a newer version of Nearby and has been set aside; "
             "a new one was started.");
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_READ_ONLY))
    return _("Your history could not be written to and has been set aside; "
             "a new one was started.");
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_PERMISSION_DENIED))
    return _("Your history could not be read and has been set aside; a new one was started.");

  return _("Your history was damaged and has been set aside; a new one was started.");
}

gpointer
_nearby_history_open_run (NearbyHistoryWorker  *worker,
                          NearbyHistoryJob     *job,
                          GError              **error)
{
  NearbyHistoryOpenResult *result = g_new0 (NearbyHistoryOpenResult, 1);
  g_autoptr(GError) local_error = NULL;
  g_autofree char *dir = NULL;
  enum { KEPT_ON_DISK, CANNOT_SAVE, IN_USE } memory_reason = KEPT_ON_DISK;

  if (worker->db != NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_EXISTS, "The history is already open");
      _nearby_history_open_result_free (result);
      return NULL;
    }

  if (strcmp (worker->path, ":memory:") == 0)
    goto in_memory;

  dir = g_path_get_dirname (worker->path);
  if (g_mkdir_with_parents (dir, 0700) != 0)
    {
      g_debug ("Cannot create %s: %s", dir, g_strerror (errno));
      memory_reason = CANNOT_SAVE;
      goto in_memory;
    }

  worker->db = history_open_database (worker->path, result, &local_error);
  if (worker->db != NULL)
    {
      result->persistent = TRUE;
      return result;
    }

  g_debug ("Cannot use %s: %s", worker->path, local_error->message);

  /* Another program holds it: it is not damaged, so leave it alone. */
  if (g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_BUSY))
    {
      memory_reason = IN_USE;
      goto in_memory;
    }

  {
    g_autoptr(GError) aside_error = NULL;
    g_autoptr(GError) fresh_error = NULL;

    if (!history_set_aside (worker->path, &result->set_aside_path, &aside_error))
      {
        g_debug ("%s", aside_error->message);
        memory_reason = CANNOT_SAVE;
        goto in_memory;
      }

    g_debug ("Moved the history database aside to %s", result->set_aside_path);

    worker->db = history_open_database (worker->path, result, &fresh_error);
    if (worker->db == NULL)
      {
        g_debug ("Cannot start a new history in %s: %s", worker->path, fresh_error->message);
        memory_reason = CANNOT_SAVE;
        goto in_memory;
      }

    result->persistent = TRUE;
    result->problem = g_strdup (history_problem_for_error (local_error));
    return result;
  }

in_memory:
  {
    g_autoptr(GError) memory_error = NULL;

    worker->db = history_open_database (":memory:", result, &memory_error);
    if (worker->db == NULL)
      {
        g_propagate_error (error, g_steal_pointer (&memory_error));
        _nearby_history_open_result_free (result);
        return NULL;
      }

    result->persistent = FALSE;
    if (memory_reason == CANNOT_SAVE)
      {
        g_autofree char *where = g_filename_display_name (dir);

        result->problem = g_strdup_printf (_("Nearby cannot save your history in “%s”, so it "
                                             "will be forgotten when Nearby quits."), where);
      }
    else if (memory_reason == IN_USE)
      {
        g_autofree char *where = g_filename_display_name (worker->path);

        result->problem =
          g_strdup_printf (_("Your history in “%s” is in use by another program, so this "
                             "session’s history will be forgotten when Nearby quits."), where);
      }

    return result;
  }
}
