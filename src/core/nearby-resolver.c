/* nearby-resolver.c
 *
 * Fetching a beacon's URL tells its server that someone is standing next to the beacon, and a
 * GET sent to a LAN address because of a broadcast is a request forgery. So the policy is
 * checked on every hop and on the address each connection actually reached, nothing is sent
 * that identifies the user (no cookies, no Referer, no Accept-Language), and every response is
 * bounded: hops, bytes, pixels and one deadline for the whole look-up.
 *
 * One "job" runs per URL, however many callers wait for it; jobs beyond max-in-flight queue
 * by priority (nearest objects first).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "nearby-resolver"

#include "config.h"

#include <glib/gi18n.h>

#include <string.h>

#include <libsoup/soup.h>

#include "nearby-icon.h"
#include "nearby-manifest.h"
#include "nearby-memory-page-cache.h"
#include "nearby-page-meta.h"
#include "nearby-resolver.h"
#include "nearby-text.h"

#define READ_CHUNK          (16 * 1024)
#define SNIFF_BYTES         512
#define CACHE_MIN_SECONDS   (5 * 60)
#define CACHE_MAX_SECONDS   (24 * 60 * 60)
#define CACHE_DEFAULT_SECONDS (60 * 60)

typedef enum {
  FETCH_PAGE,
  FETCH_MANIFEST,
  FETCH_ICON,
} FetchKind;

typedef struct _Job Job;

struct _NearbyResolver
{
  GObject                  parent_instance;

  SoupSession             *session;
  NearbyPageCache         *cache;
  GTlsDatabase            *tls_database;
  GProxyResolver          *proxy_resolver;
  guint                    deadline_ms;
  guint                    max_in_flight;
  guint                    io_timeout;

  GHashTable              *jobs;      /* key -> Job */
  GHashTable              *private_origins;  /* "host:port" once connected to a non-public address */
  GQueue                   queue;     /* of Job, waiting for a slot, most urgent first */
  guint                    running;

  NearbyAddressClassifier  classifier;
  gpointer                 classifier_data;
};

typedef struct {
  GTask   *task;
  gulong   cancelled_id;
} Waiter;

struct _Job
{
  NearbyResolver     *self;       /* strong: a running job keeps the session alive */
  char               *key;
  char               *url;
  NearbyUrlPolicy     policy;
  NearbyResolveFlags  flags;
  int                 priority;
  GList              *waiters;    /* of Waiter */
  GCancellable       *cancellable;
  guint               deadline_id;
  gboolean            timed_out;
  gboolean            queued;
  gboolean            started;
  gint64              started_us;

  NearbyPage         *page;
  NearbyPageMeta     *meta;
  NearbyManifest     *manifest;
  GPtrArray          *icon_candidates;   /* of char *, tried in order */
  guint               icon_index;
  char               *decoding_url;      /* the icon the decoder is working on */
  gint64              expires_at_us;

  /* The request in progress: only one at a time per job. */
  FetchKind           kind;
  GUri               *uri;
  guint               hops;
  SoupMessage        *message;
  GInputStream       *stream;
  GCancellable       *fetch_cancellable;
  GError             *policy_error;
  gboolean            via_proxy;
  NearbyPageMetaParser *parser;
  GByteArray         *body;
  gsize               body_cap;
  gboolean            sniffed;
};

enum {
  PROP_0,
  PROP_CACHE,
  PROP_DEADLINE,
  PROP_MAX_IN_FLIGHT,
  PROP_IO_TIMEOUT,
  PROP_TLS_DATABASE,
  PROP_PROXY_RESOLVER,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (NearbyResolver, nearby_resolver, G_TYPE_OBJECT)

static void job_pump             (NearbyResolver *self);
static void job_fetch            (Job            *job,
                                  FetchKind       kind,
                                  const char     *url);
static void job_read_next        (Job            *job);
static void job_fetch_done       (Job            *job,
                                  GError         *error);
static void job_complete         (Job            *job);

/* Classification */

static NearbyAddressClass
classify_socket_address (NearbyResolver *self,
                         GSocketAddress *address)
{
  if (!G_IS_INET_SOCKET_ADDRESS (address))
    return NEARBY_ADDRESS_LOCAL;

  if (self->classifier != NULL)
    return self->classifier (G_INET_SOCKET_ADDRESS (address), self->classifier_data);

  return nearby_url_policy_classify_address (
      g_inet_socket_address_get_address (G_INET_SOCKET_ADDRESS (address)));
}

/* The scheme and, for names known without DNS (literal addresses, localhost, .local), the
 * address class; everything else is checked once connected. */
static GUri *
check_url (Job         *job,
           const char  *url,
           GError     **error)
{
  g_autoptr(GUri) uri = NULL;
  g_autoptr(GInetAddress) literal = NULL;
  g_autofree char *what = NULL;
  const char *host;
  NearbyAddressClass klass;

  uri = nearby_url_policy_check_url (url,
                                     job->policy | NEARBY_URL_POLICY_ALLOW_LOCAL |
                                     NEARBY_URL_POLICY_ALLOW_LOOPBACK,
                                     error);
  if (uri == NULL)
    return NULL;

  host = g_uri_get_host (uri);
  literal = g_inet_address_new_from_string (host);
  if (literal != NULL)
    {
      g_autoptr(GSocketAddress) address = g_inet_socket_address_new (literal, g_uri_get_port (uri));

      klass = classify_socket_address (job->self, address);
    }
  else
    {
      klass = nearby_url_policy_classify_host (host);
    }

  what = g_strdup_printf ("“%s”", host);
  if (!nearby_url_policy_check_address (job->policy, klass, what, error))
    return NULL;

  return g_steal_pointer (&uri);
}

/* Jobs */

static char *
job_key (const char      *url,
         NearbyUrlPolicy  policy)
{
  return g_strdup_printf ("%u %s", (guint) policy, url);
}

static void
job_clear_fetch (Job *job)
{
  if (job->message != NULL)
    g_signal_handlers_disconnect_by_data (job->message, job);
  g_clear_object (&job->message);
  g_clear_object (&job->stream);
  g_clear_object (&job->fetch_cancellable);
  g_clear_pointer (&job->uri, g_uri_unref);
  g_clear_error (&job->policy_error);
  g_clear_pointer (&job->parser, nearby_page_meta_parser_free);
  g_clear_pointer (&job->body, g_byte_array_unref);
  job->hops = 0;
  job->sniffed = FALSE;
}

static void
job_free (Job *job)
{
  job_clear_fetch (job);
  g_clear_handle_id (&job->deadline_id, g_source_remove);
  g_clear_object (&job->cancellable);
  g_clear_pointer (&job->page, nearby_page_unref);
  g_clear_pointer (&job->meta, nearby_page_meta_free);
  g_clear_pointer (&job->manifest, nearby_manifest_free);
  g_clear_pointer (&job->icon_candidates, g_ptr_array_unref);
  g_free (job->decoding_url);
  g_free (job->key);
  g_free (job->url);
  g_clear_object (&job->self);
  g_free (job);
}

static void
job_cancel (Job *job)
{
  g_cancellable_cancel (job->cancellable);
  if (job->fetch_cancellable != NULL)
    g_cancellable_cancel (job->fetch_cancellable);
}

static gboolean
job_is_cancelled (Job *job)
{
  return g_cancellable_is_cancelled (job->cancellable);
}

static void
job_return_to_waiters (Job *job)
{
  GList *waiters = g_steal_pointer (&job->waiters);

  for (GList *l = waiters; l != NULL; l = l->next)
    {
      Waiter *waiter = l->data;

      g_cancellable_disconnect (g_task_get_cancellable (waiter->task), waiter->cancelled_id);
      if (job->page != NULL)
        g_task_return_pointer (waiter->task, nearby_page_ref (job->page),
                               (GDestroyNotify) nearby_page_unref);
      else
        g_task_return_new_error (waiter->task, G_IO_ERROR, G_IO_ERROR_CANCELLED,
                                 _("The look-up was cancelled"));
      g_object_unref (waiter->task);
      g_free (waiter);
    }
  g_list_free (waiters);
}

/* Ends the job: answers every waiter, frees the slot, starts the next. */
static void
job_finish (Job *job)
{
  NearbyResolver *self = g_object_ref (job->self);

  if (g_hash_table_lookup (self->jobs, job->key) == job)
    g_hash_table_steal (self->jobs, job->key);
  if (job->queued)
    g_queue_remove (&self->queue, job);
  if (job->started)
    self->running--;

  job_return_to_waiters (job);
  job_free (job);

  job_pump (self);
  g_object_unref (self);
}

static void
job_fail (Job          *job,
          const GError *error)
{
  g_clear_error (&job->page->error);
  job->page->error = g_error_copy (error);
  job_complete (job);
}

static gboolean
on_deadline (gpointer user_data)
{
  Job *job = user_data;

  job->deadline_id = 0;
  job->timed_out = TRUE;
  g_debug ("%s: deadline reached", job->url);
  if (job->fetch_cancellable != NULL)
    g_cancellable_cancel (job->fetch_cancellable);

  return G_SOURCE_REMOVE;
}

static int
compare_priority (gconstpointer a,
                  gconstpointer b,
                  gpointer      user_data)
{
  const Job *ja = a;
  const Job *jb = b;

  return (ja->priority > jb->priority) - (ja->priority < jb->priority);
}

static void
job_start (Job *job)
{
  NearbyResolver *self = job->self;

  job->started = TRUE;
  job->started_us = g_get_monotonic_time ();
  self->running++;
  job->page->fetched_at_us = g_get_real_time ();
  job->deadline_id = g_timeout_add (self->deadline_ms, on_deadline, job);

  job_fetch (job, FETCH_PAGE, job->url);
}

static void
job_pump (NearbyResolver *self)
{
  while (self->running < self->max_in_flight && !g_queue_is_empty (&self->queue))
    {
      Job *job = g_queue_pop_head (&self->queue);

      job->queued = FALSE;
      job_start (job);
    }
}

static void
job_enqueue (Job *job)
{
  job->queued = TRUE;
  g_queue_insert_sorted (&job->self->queue, job, compare_priority, NULL);
  job_pump (job->self);
}

/* Cache */

static gint64
expiry_from_headers (SoupMessage *message)
{
  SoupMessageHeaders *headers = soup_message_get_response_headers (message);
  const char *cache_control = soup_message_headers_get_list (headers, "Cache-Control");
  gint64 seconds = CACHE_DEFAULT_SECONDS;

  if (cache_control != NULL)
    {
      GHashTable *params = soup_header_parse_param_list (cache_control);
      const char *max_age = g_hash_table_lookup (params, "max-age");
      guint64 value;

      if (g_hash_table_contains (params, "no-store") || g_hash_table_contains (params, "no-cache"))
        seconds = 0;
      else if (max_age != NULL && g_ascii_string_to_unsigned (max_age, 10, 0, G_MAXINT64, &value, NULL))
        seconds = (gint64) value;
      soup_header_free_param_list (params);
    }

  /* A page that asks not to be cached is still kept for minutes, so that a list of nearby
   * objects does not refetch every page on every sighting; and nothing is kept beyond a day. */
  seconds = CLAMP (seconds, CACHE_MIN_SECONDS, CACHE_MAX_SECONDS);

  return g_get_real_time () + seconds * G_USEC_PER_SEC;
}

static void
on_cache_stored (GObject      *source,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  g_autoptr(GError) error = NULL;

  if (!nearby_page_cache_store_finish (NEARBY_PAGE_CACHE (source), result, &error))
    g_debug ("Could not cache a page: %s", error->message);
}

static void
job_store_in_cache (Job *job)
{
  g_autofree char *json = NULL;
  g_autoptr(NearbyCacheEntry) entry = NULL;

  if (job->self->cache == NULL || job->page->error != NULL)
    return;

  json = nearby_page_to_json (job->page, FALSE);
  entry = nearby_cache_entry_new (json, job->page->icon, job->page->icon ? "image/png" : NULL,
                                  job->page->expires_at_us);
  nearby_page_cache_store_async (job->self->cache, job->url, entry, NULL, on_cache_stored, NULL);
}

static void
on_cache_lookup (GObject      *source,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  Job *job = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(NearbyCacheEntry) entry = NULL;

  entry = nearby_page_cache_lookup_finish (NEARBY_PAGE_CACHE (source), result, &error);

  if (job_is_cancelled (job))
    {
      job_finish (job);
      return;
    }

  if (entry != NULL && entry->expires_at_us > g_get_real_time ())
    {
      g_autoptr(NearbyPage) cached = nearby_page_new_from_json (entry->page_json, entry->icon,
                                                                &error);

      if (cached != NULL)
        {
          cached->from_cache = TRUE;
          cached->expires_at_us = entry->expires_at_us;
          g_clear_pointer (&job->page, nearby_page_unref);
          job->page = g_steal_pointer (&cached);
          job_finish (job);
          return;
        }
      g_debug ("Ignoring an unreadable cache entry for %s: %s", job->url, error->message);
    }
  else if (error != NULL)
    {
      g_debug ("Cache look-up failed for %s: %s", job->url, error->message);
    }

  job_enqueue (job);
}

/* Waiters */

static gboolean
waiter_cancelled_idle (gpointer user_data)
{
  GTask *task = user_data;
  NearbyResolver *self = g_task_get_source_object (task);
  const char *key = g_task_get_task_data (task);
  Job *job = g_hash_table_lookup (self->jobs, key);

  if (job == NULL)
    return G_SOURCE_REMOVE;

  for (GList *l = job->waiters; l != NULL; l = l->next)
    {
      Waiter *waiter = l->data;

      if (waiter->task != task)
        continue;

      job->waiters = g_list_delete_link (job->waiters, l);
      g_cancellable_disconnect (g_task_get_cancellable (task), waiter->cancelled_id);
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CANCELLED, _("The look-up was cancelled"));
      g_object_unref (waiter->task);
      g_free (waiter);
      break;
    }

  /* Nobody waits any more: stop the network work too. */
  if (job->waiters == NULL)
    {
      job_cancel (job);
      if (!job->started)
        {
          if (job->queued)
            job_finish (job);
          /* else the cache look-up finishes it */
        }
    }

  return G_SOURCE_REMOVE;
}

static void
on_waiter_cancelled (GCancellable *cancellable,
                     gpointer      user_data)
{
  /* Disconnecting from within the handler would deadlock: do the work from the main loop. */
  g_idle_add_full (G_PRIORITY_DEFAULT, waiter_cancelled_idle, g_object_ref (user_data),
                   g_object_unref);
}

/* Fetching */

static void
set_fetch_error (GError     **error,
                 Job         *job,
                 const GError *io_error)
{
  if (job->policy_error != NULL)
    g_propagate_error (error, g_error_copy (job->policy_error));
  else if (job->timed_out)
    g_set_error (error, NEARBY_RESOLVE_ERROR, NEARBY_RESOLVE_ERROR_TIMEOUT,
                 g_dngettext (GETTEXT_PACKAGE, "No answer within %u second",
                              "No answer within %u seconds",
                              (job->self->deadline_ms + 999) / 1000),
                 (job->self->deadline_ms + 999) / 1000);
  else if (g_error_matches (io_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    g_propagate_error (error, g_error_copy (io_error));
  else if (io_error->domain == G_TLS_ERROR ||
           (job->message != NULL && soup_message_get_tls_peer_certificate_errors (job->message) != 0))
    g_set_error (error, NEARBY_RESOLVE_ERROR, NEARBY_RESOLVE_ERROR_TLS,
                 _("The secure connection failed: %s"), io_error->message);
  else if (g_error_matches (io_error, G_IO_ERROR, G_IO_ERROR_TIMED_OUT))
    g_set_error (error, NEARBY_RESOLVE_ERROR, NEARBY_RESOLVE_ERROR_TIMEOUT,
                 _("The server stopped answering: %s"), io_error->message);
  else if (io_error->domain == G_RESOLVER_ERROR)
    g_set_error (error, NEARBY_RESOLVE_ERROR, NEARBY_RESOLVE_ERROR_NETWORK,
                 _("Cannot find the server: %s"), io_error->message);
  else
    g_set_error (error, NEARBY_RESOLVE_ERROR, NEARBY_RESOLVE_ERROR_NETWORK,
                 "%s", io_error->message);
}

static gboolean
check_connected_address (Job            *job,
                         GSocketAddress *address)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *what = NULL;
  g_autofree char *text = NULL;

  if (address == NULL || job->via_proxy)
    return TRUE;

  text = g_socket_connectable_to_string (G_SOCKET_CONNECTABLE (address));
  what = g_strdup_printf ("“%s” (%s)", g_uri_get_host (job->uri), text);
  if (nearby_url_policy_check_address (job->policy, classify_socket_address (job->self, address),
                                       what, &error))
    return TRUE;

  g_debug ("%s: refused the connection to %s", job->url, text);
  if (job->policy_error == NULL)
    job->policy_error = g_steal_pointer (&error);

  return FALSE;
}

static char *
origin_of (GUri *uri)
{
  return g_strdup_printf ("%s:%d", g_uri_get_host (uri), g_uri_get_port (uri));
}

static void
on_network_event (SoupMessage        *message,
                  GSocketClientEvent  event,
                  GIOStream          *connection,
                  gpointer            user_data)
{
  Job *job = user_data;
  g_autoptr(GSocketAddress) remote = NULL;

  if (event != G_SOCKET_CLIENT_CONNECTED || !G_IS_SOCKET_CONNECTION (connection))
    return;

  /* Before a single byte of the request is written: DNS may have said anything. */
  remote = g_socket_connection_get_remote_address (G_SOCKET_CONNECTION (connection), NULL);
  if (remote != NULL && !job->via_proxy &&
      classify_socket_address (job->self, remote) != NEARBY_ADDRESS_PUBLIC)
    g_hash_table_add (job->self->private_origins, origin_of (job->uri));
  if (!check_connected_address (job, remote))
    g_cancellable_cancel (job->fetch_cancellable);
}

static const char *
accept_for (FetchKind kind)
{
  switch (kind)
    {
    case FETCH_PAGE:
      return "text/html,application/xhtml+xml;q=0.9,*/*;q=0.1";
    case FETCH_MANIFEST:
      return "application/manifest+json,application/json;q=0.9,*/*;q=0.1";
    case FETCH_ICON:
      return "image/png,image/x-icon,image/gif,image/jpeg;q=0.9,*/*;q=0.1";
    default:
      return "*/*";
    }
}

static void on_sent (GObject      *source,
                     GAsyncResult *result,
                     gpointer      user_data);

static void
on_proxy_looked_up (GObject      *source,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  Job *job = user_data;
  g_autoptr(GError) io_error = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) proxies = NULL;

  proxies = g_proxy_resolver_lookup_finish (G_PROXY_RESOLVER (source), result, &io_error);
  if (proxies == NULL && g_error_matches (io_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      set_fetch_error (&error, job, io_error);
      job_fetch_done (job, error);
      return;
    }

  job->via_proxy = proxies != NULL && proxies[0] != NULL &&
                   !g_str_equal (proxies[0], "direct://");
  if (job->via_proxy)
    g_debug ("%s: through the proxy %s", job->url, proxies[0]);

  soup_session_send_async (job->self->session, job->message, G_PRIORITY_DEFAULT,
                           job->fetch_cancellable, on_sent, job);
}

static void
job_send (Job *job)
{
  NearbyResolver *self = job->self;
  g_autofree char *uri_string = NULL;
  SoupMessagePriority priority;

  g_clear_object (&job->message);
  g_clear_error (&job->policy_error);
  g_clear_object (&job->fetch_cancellable);
  job->via_proxy = FALSE;

  job->fetch_cancellable = g_cancellable_new ();
  if (job->timed_out || job_is_cancelled (job))
    g_cancellable_cancel (job->fetch_cancellable);

  job->message = soup_message_new_from_uri (SOUP_METHOD_GET, job->uri);
  soup_message_add_flags (job->message, SOUP_MESSAGE_NO_REDIRECT);
  {
    g_autofree char *origin = origin_of (job->uri);

    /* A pooled connection would carry the request before its address could be checked: when
     * this host was once reached on a private address, connect afresh and check again. */
    if ((~job->policy & (NEARBY_URL_POLICY_ALLOW_LOCAL | NEARBY_URL_POLICY_ALLOW_LOOPBACK)) != 0 &&
        g_hash_table_contains (self->private_origins, origin))
      soup_message_add_flags (job->message, SOUP_MESSAGE_NEW_CONNECTION);
  }
  soup_message_headers_replace (soup_message_get_request_headers (job->message), "Accept",
                                accept_for (job->kind));
  if (job->kind == FETCH_ICON)
    soup_message_disable_feature (job->message, SOUP_TYPE_CONTENT_DECODER);

  if (job->priority < 0)
    priority = SOUP_MESSAGE_PRIORITY_VERY_HIGH;
  else if (job->priority < 4)
    priority = SOUP_MESSAGE_PRIORITY_HIGH;
  else if (job->priority < 16)
    priority = SOUP_MESSAGE_PRIORITY_NORMAL;
  else
    priority = SOUP_MESSAGE_PRIORITY_LOW;
  if (job->kind != FETCH_PAGE && priority > SOUP_MESSAGE_PRIORITY_VERY_LOW)
    priority--;
  soup_message_set_priority (job->message, priority);

  g_signal_connect (job->message, "network-event", G_CALLBACK (on_network_event), job);

  /* Through a proxy, the address connected to is the proxy's, which the user chose; the
   * destination is then only known by name and checked as such (check_url). */
  uri_string = g_uri_to_string (job->uri);
  g_proxy_resolver_lookup_async (self->proxy_resolver, uri_string, job->fetch_cancellable,
                                 on_proxy_looked_up, job);
}

static void
job_fetch (Job        *job,
           FetchKind   kind,
           const char *url)
{
  g_autoptr(GError) error = NULL;

  job_clear_fetch (job);
  job->kind = kind;
  job->uri = check_url (job, url, &error);
  if (job->uri == NULL)
    {
      job_fetch_done (job, error);
      return;
    }

  job_send (job);
}

static gboolean
is_redirect (guint status)
{
  return status == 301 || status == 302 || status == 303 || status == 307 || status == 308;
}

static void
follow_redirect (Job   *job,
                 guint  status)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GUri) next = NULL;
  g_autofree char *current = g_uri_to_string (job->uri);
  g_autofree char *next_string = NULL;
  const char *location;
  const char *scheme;

  location = soup_message_headers_get_one (soup_message_get_response_headers (job->message),
                                           "Location");
  if (job->kind == FETCH_PAGE)
    nearby_page_add_redirect (job->page, current, status);

  if (location == NULL || *location == '\0')
    {
      g_set_error (&error, NEARBY_RESOLVE_ERROR, NEARBY_RESOLVE_ERROR_BAD_REDIRECT,
                   _("The server answered %u without saying where to go"), status);
      job_fetch_done (job, error);
      return;
    }

  if (job->hops >= NEARBY_RESOLVER_MAX_REDIRECTS)
    {
      g_set_error (&error, NEARBY_RESOLVE_ERROR, NEARBY_RESOLVE_ERROR_TOO_MANY_REDIRECTS,
                   g_dngettext (GETTEXT_PACKAGE, "More than %d redirect", "More than %d redirects",
                                NEARBY_RESOLVER_MAX_REDIRECTS),
                   NEARBY_RESOLVER_MAX_REDIRECTS);
      job_fetch_done (job, error);
      return;
    }

  next = g_uri_parse_relative (job->uri, location, SOUP_HTTP_URI_FLAGS, NULL);
  scheme = next ? g_uri_get_scheme (next) : NULL;
  if (next == NULL ||
      (g_ascii_strcasecmp (scheme, "http") != 0 && g_ascii_strcasecmp (scheme, "https") != 0))
    {
      g_autofree char *shown = nearby_text_clean (location, -1, 80);

      g_set_error (&error, NEARBY_RESOLVE_ERROR, NEARBY_RESOLVE_ERROR_BAD_REDIRECT,
                   _("The page redirects to “%s”, which is not a web address"), shown);
      job_fetch_done (job, error);
      return;
    }

  /* A redirect keeps the fragment of the address it came from unless it has its own. */
  if (g_uri_get_fragment (next) == NULL && g_uri_get_fragment (job->uri) != NULL)
    {
      GUri *with_fragment = soup_uri_copy (next, SOUP_URI_FRAGMENT, g_uri_get_fragment (job->uri),
                                           SOUP_URI_NONE);

      g_uri_unref (next);
      next = with_fragment;
    }

  next_string = g_uri_to_string (next);
  g_debug ("%s: %u -> %s", current, status, next_string);

  g_clear_object (&job->stream);
  g_clear_pointer (&job->uri, g_uri_unref);
  job->hops++;
  job->uri = check_url (job, next_string, &error);
  if (job->uri == NULL)
    {
      job_fetch_done (job, error);
      return;
    }

  job_send (job);
}

static void
on_sent (GObject      *source,
         GAsyncResult *result,
         gpointer      user_data)
{
  Job *job = user_data;
  g_autoptr(GError) io_error = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GInputStream) stream = NULL;
  guint status;

  stream = soup_session_send_finish (SOUP_SESSION (source), result, &io_error);
  if (stream == NULL)
    {
      set_fetch_error (&error, job, io_error);
      job_fetch_done (job, error);
      return;
    }

  /* A pooled connection reports no network-event: check where it goes too. */
  if (!check_connected_address (job, soup_message_get_remote_address (job->message)))
    {
      job_fetch_done (job, job->policy_error);
      return;
    }

  job->stream = g_steal_pointer (&stream);
  status = soup_message_get_status (job->message);

  if (is_redirect (status))
    {
      follow_redirect (job, status);
      return;
    }

  if (job->kind == FETCH_PAGE)
    {
      g_free (job->page->final_url);
      job->page->final_url = g_uri_to_string (job->uri);
      job->page->status = status;
      job->page->headers_us = g_get_monotonic_time () - job->started_us;

      if (status == SOUP_STATUS_NO_CONTENT || status == SOUP_STATUS_NOT_FOUND ||
          status == SOUP_STATUS_GONE)
        {
          g_set_error (&error, NEARBY_RESOLVE_ERROR, NEARBY_RESOLVE_ERROR_HIDDEN,
                       _("The page hides itself (%u %s)"), status, soup_status_get_phrase (status));
          job_fetch_done (job, error);
          return;
        }
    }

  if (!SOUP_STATUS_IS_SUCCESSFUL (status))
    {
      g_set_error (&error, NEARBY_RESOLVE_ERROR, NEARBY_RESOLVE_ERROR_HTTP,
                   _("The server answered %u %s"), status, soup_status_get_phrase (status));
      job_fetch_done (job, error);
      return;
    }

  if (job->kind == FETCH_PAGE)
    {
      GHashTable *params = NULL;

      soup_message_headers_get_content_type (soup_message_get_response_headers (job->message),
                                             &params);
      job->parser = nearby_page_meta_parser_new (job->page->final_url,
                                                 params ? g_hash_table_lookup (params, "charset") : NULL);
      g_clear_pointer (&params, g_hash_table_unref);
      job->body = g_byte_array_new ();
      job->body_cap = NEARBY_PAGE_META_MAX_HTML;
      job->expires_at_us = expiry_from_headers (job->message);
    }
  else
    {
      job->body = g_byte_array_new ();
      job->body_cap = job->kind == FETCH_ICON ? NEARBY_ICON_MAX_BYTES
                                              : NEARBY_RESOLVER_MAX_MANIFEST;
    }

  job_read_next (job);
}

static gboolean
looks_binary (const guint8 *data,
              gsize         len)
{
  static const struct { const char *magic; gsize len; } magics[] = {
    { "\x89PNG", 4 }, { "GIF8", 4 }, { "\xff\xd8\xff", 3 }, { "%PDF", 4 }, { "PK\x03\x04", 4 },
    { "\x1f\x8b", 2 }, { "\0\0\1\0", 4 }, { "RIFF", 4 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (magics); i++)
    {
      if (len >= magics[i].len && memcmp (data, magics[i].magic, magics[i].len) == 0)
        return TRUE;
    }

  /* Stray NUL bytes do not make a page binary: the parser copes with them. */
  return FALSE;
}

/* The header says what the server thinks; the first bytes say what it sent. */
static gboolean
check_page_type (Job     *job,
                 GError **error)
{
  const char *type;
  gboolean declared_html;

  type = soup_message_headers_get_content_type (soup_message_get_response_headers (job->message),
                                                NULL);
  declared_html = type != NULL &&
                  (g_ascii_strcasecmp (type, "text/html") == 0 ||
                   g_ascii_strcasecmp (type, "application/xhtml+xml") == 0);

  if (declared_html && !looks_binary (job->body->data, job->body->len))
    return TRUE;
  if (!declared_html && nearby_text_looks_like_html (job->body->data, job->body->len))
    return TRUE;

  g_set_error (error, NEARBY_RESOLVE_ERROR, NEARBY_RESOLVE_ERROR_NOT_HTML,
               _("The address leads to “%s”, not to a web page"),
               type ? type : _("content of an unknown type"));

  return FALSE;
}

static void
on_read (GObject      *source,
         GAsyncResult *result,
         gpointer      user_data)
{
  Job *job = user_data;
  g_autoptr(GError) io_error = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = NULL;
  const guint8 *data;
  gsize len;

  bytes = g_input_stream_read_bytes_finish (G_INPUT_STREAM (source), result, &io_error);
  if (bytes == NULL)
    {
      set_fetch_error (&error, job, io_error);
      job_fetch_done (job, error);
      return;
    }

  data = g_bytes_get_data (bytes, &len);
  if (len == 0)
    {
      if (job->kind == FETCH_PAGE && !job->sniffed)
        {
          if (!check_page_type (job, &error))
            {
              job_fetch_done (job, error);
              return;
            }
          nearby_page_meta_parser_feed (job->parser, job->body->data, job->body->len);
        }
      job_fetch_done (job, NULL);
      return;
    }

  if (job->kind != FETCH_PAGE)
    {
      if (job->body->len + len > job->body_cap)
        {
          g_set_error (&error, G_IO_ERROR, G_IO_ERROR_MESSAGE_TOO_LARGE,
                       g_dngettext (GETTEXT_PACKAGE, "More than %zu byte", "More than %zu bytes",
                                    job->body_cap),
                       job->body_cap);
          job_fetch_done (job, error);
          return;
        }
      g_byte_array_append (job->body, data, len);
      job_read_next (job);
      return;
    }

  if (!job->sniffed)
    {
      g_byte_array_append (job->body, data, len);
      if (job->body->len < SNIFF_BYTES)
        {
          job_read_next (job);
          return;
        }
      job->sniffed = TRUE;
      if (!check_page_type (job, &error))
        {
          job_fetch_done (job, error);
          return;
        }
      data = job->body->data;
      len = job->body->len;
    }

  /* The parser caps what it takes, and says when it has seen enough. */
  if (!nearby_page_meta_parser_feed (job->parser, data, len))
    {
      job_fetch_done (job, NULL);
      return;
    }

  job_read_next (job);
}

static void
job_read_next (Job *job)
{
  g_input_stream_read_bytes_async (job->stream, READ_CHUNK, G_PRIORITY_DEFAULT,
                                   job->fetch_cancellable, on_read, job);
}

/* Icons */

static void
job_next_icon (Job *job)
{
  if (job->timed_out || job->icon_index >= job->icon_candidates->len)
    {
      job_complete (job);
      return;
    }

  job_fetch (job, FETCH_ICON, g_ptr_array_index (job->icon_candidates, job->icon_index++));
}

static void
job_start_icons (Job *job)
{
  job->icon_candidates = nearby_icon_candidates (job->meta, job->manifest, job->page->final_url);
  job->icon_index = 0;

  job_next_icon (job);
}

/* Steps */

static void
job_page_fetched (Job *job)
{
  job->meta = nearby_page_meta_parser_finish (job->parser);
  g_clear_pointer (&job->parser, nearby_page_meta_parser_free);

  job->page->title = g_strdup (job->meta->title);
  job->page->description = g_strdup (job->meta->description);
  job->page->canonical_url = g_strdup (job->meta->canonical_url);
  job->page->manifest_url = g_strdup (job->meta->manifest_url);
  job->page->expires_at_us = job->expires_at_us;

  if (job->page->title == NULL)
    job->page->title = nearby_url_display_host (job->page->final_url, NULL);

  if (job->meta->manifest_url != NULL && !job->timed_out)
    job_fetch (job, FETCH_MANIFEST, job->meta->manifest_url);
  else
    job_start_icons (job);
}

static void
job_manifest_fetched (Job    *job,
                      GError *fetch_error)
{
  g_autoptr(GError) error = NULL;

  if (fetch_error == NULL)
    {
      job->manifest = nearby_manifest_parse (job->meta->manifest_url, job->body->data,
                                             job->body->len, &error);
      if (job->manifest == NULL)
        g_debug ("%s: manifest ignored: %s", job->url, error->message);
    }
  else
    {
      g_debug ("%s: no manifest: %s", job->url, fetch_error->message);
    }

  if (job->manifest != NULL)
    {
      job->page->manifest_name = g_strdup (job->manifest->name ? job->manifest->name
                                                               : job->manifest->short_name);
      for (guint i = 0; i < job->manifest->actions->len; i++)
        g_ptr_array_add (job->page->actions,
                         nearby_page_action_copy (g_ptr_array_index (job->manifest->actions, i)));
      if (job->page->description == NULL && job->manifest->description != NULL)
        job->page->description = g_strdup (job->manifest->description);
    }

  job_start_icons (job);
}

static void
on_icon_decoded (GObject      *source,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  Job *job = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(NearbyIcon) icon = NULL;
  g_autofree char *url = g_steal_pointer (&job->decoding_url);

  icon = nearby_icon_decode_finish (result, &error);
  if (icon == NULL)
    {
      g_debug ("%s: icon %s not used: %s", job->url, url, error->message);
      job_next_icon (job);
      return;
    }

  g_clear_pointer (&job->page->icon, g_bytes_unref);
  job->page->icon = g_bytes_ref (icon->png);
  g_free (job->page->icon_type);
  job->page->icon_type = g_strdup (icon->mime_type);
  job->page->icon_width = icon->width;
  job->page->icon_height = icon->height;
  g_free (job->page->icon_url);
  job->page->icon_url = g_steal_pointer (&url);

  job_complete (job);
}

static void
job_icon_fetched (Job    *job,
                  GError *fetch_error)
{
  g_autoptr(GBytes) bytes = NULL;
  g_autofree char *url = job->uri ? g_uri_to_string (job->uri) : g_strdup ("");

  if (fetch_error != NULL)
    {
      g_debug ("%s: icon %s not used: %s", job->url, url, fetch_error->message);
      job_next_icon (job);
      return;
    }

  /* The job waits for the decoder (no cancellable): it owns nothing the thread touches. */
  g_free (job->decoding_url);
  job->decoding_url = g_steal_pointer (&url);
  bytes = g_byte_array_free_to_bytes (g_steal_pointer (&job->body));
  nearby_icon_decode_async (bytes, NEARBY_PAGE_ICON_SIZE, NULL, on_icon_decoded, job);
}

static void
job_fetch_done (Job    *job,
                GError *error)
{
  if (job_is_cancelled (job) && !job->timed_out)
    {
      job_finish (job);
      return;
    }

  switch (job->kind)
    {
    case FETCH_PAGE:
      if (error != NULL)
        job_fail (job, error);
      else
        job_page_fetched (job);
      break;

    case FETCH_MANIFEST:
      job_manifest_fetched (job, error);
      break;

    case FETCH_ICON:
      job_icon_fetched (job, error);
      break;

    default:
      g_assert_not_reached ();
    }
}

static void
job_complete (Job *job)
{
  job_clear_fetch (job);
  job->page->total_us = g_get_monotonic_time () - job->started_us;

  job_store_in_cache (job);
  job_finish (job);
}

/* GObject */

static void
nearby_resolver_constructed (GObject *object)
{
  NearbyResolver *self = (NearbyResolver *) object;
  g_autofree char *user_agent = g_strdup_printf ("Nearby/%s", PACKAGE_VERSION);

  G_OBJECT_CLASS (nearby_resolver_parent_class)->constructed (object);

  /* No cookie jar and no Accept-Language: nothing that tells servers who is looking. */
  self->session = g_object_new (SOUP_TYPE_SESSION,
                                "user-agent", user_agent,
                                "accept-language-auto", FALSE,
                                "timeout", self->io_timeout,
                                "idle-timeout", self->io_timeout * 3,
                                "max-conns", MAX (self->max_in_flight * 2, 4),
                                "max-conns-per-host", 2,
                                NULL);
  if (self->tls_database != NULL)
    soup_session_set_tls_database (self->session, self->tls_database);
  if (self->proxy_resolver != NULL)
    soup_session_set_proxy_resolver (self->session, self->proxy_resolver);
  else
    self->proxy_resolver = g_object_ref (g_proxy_resolver_get_default ());
}

static void
nearby_resolver_dispose (GObject *object)
{
  NearbyResolver *self = (NearbyResolver *) object;

  if (self->session != NULL)
    soup_session_abort (self->session);

  G_OBJECT_CLASS (nearby_resolver_parent_class)->dispose (object);
}

static void
nearby_resolver_finalize (GObject *object)
{
  NearbyResolver *self = (NearbyResolver *) object;

  /* Running jobs hold a reference, so only never-started ones can remain. */
  g_hash_table_unref (self->jobs);
  g_hash_table_unref (self->private_origins);
  g_queue_clear (&self->queue);
  g_clear_object (&self->session);
  g_clear_object (&self->cache);
  g_clear_object (&self->tls_database);
  g_clear_object (&self->proxy_resolver);

  G_OBJECT_CLASS (nearby_resolver_parent_class)->finalize (object);
}

static void
nearby_resolver_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  NearbyResolver *self = NEARBY_RESOLVER (object);

  switch (prop_id)
    {
    case PROP_CACHE:
      g_value_set_object (value, self->cache);
      break;

    case PROP_DEADLINE:
      g_value_set_uint (value, self->deadline_ms);
      break;

    case PROP_MAX_IN_FLIGHT:
      g_value_set_uint (value, self->max_in_flight);
      break;

    case PROP_IO_TIMEOUT:
      g_value_set_uint (value, self->io_timeout);
      break;

    case PROP_TLS_DATABASE:
      g_value_set_object (value, self->tls_database);
      break;

    case PROP_PROXY_RESOLVER:
      g_value_set_object (value, self->proxy_resolver);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
nearby_resolver_set_property (GObject      *object,
                              guint         prop_id,
                              const GValue *value,
                              GParamSpec   *pspec)
{
  NearbyResolver *self = NEARBY_RESOLVER (object);

  switch (prop_id)
    {
    case PROP_CACHE:
      nearby_resolver_set_cache (self, g_value_get_object (value));
      break;

    case PROP_DEADLINE:
      nearby_resolver_set_deadline (self, g_value_get_uint (value));
      break;

    case PROP_MAX_IN_FLIGHT:
      self->max_in_flight = g_value_get_uint (value);
      break;

    case PROP_IO_TIMEOUT:
      self->io_timeout = g_value_get_uint (value);
      break;

    case PROP_TLS_DATABASE:
      g_set_object (&self->tls_database, g_value_get_object (value));
      break;

    case PROP_PROXY_RESOLVER:
      g_set_object (&self->proxy_resolver, g_value_get_object (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
nearby_resolver_class_init (NearbyResolverClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->constructed = nearby_resolver_constructed;
  object_class->dispose = nearby_resolver_dispose;
  object_class->finalize = nearby_resolver_finalize;
  object_class->get_property = nearby_resolver_get_property;
  object_class->set_property = nearby_resolver_set_property;

  properties[PROP_CACHE] =
    g_param_spec_object ("cache", NULL, NULL,
                         NEARBY_TYPE_PAGE_CACHE,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  properties[PROP_DEADLINE] =
    g_param_spec_uint ("deadline", NULL, NULL,
                       1, 10 * 60 * 1000, NEARBY_RESOLVER_DEFAULT_DEADLINE,
                       (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  properties[PROP_MAX_IN_FLIGHT] =
    g_param_spec_uint ("max-in-flight", NULL, NULL,
                       1, 64, 4,
                       (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));

  properties[PROP_IO_TIMEOUT] =
    g_param_spec_uint ("io-timeout", NULL, NULL,
                       1, 600, 10,
                       (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));

  properties[PROP_TLS_DATABASE] =
    g_param_spec_object ("tls-database", NULL, NULL,
                         G_TYPE_TLS_DATABASE,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));

  properties[PROP_PROXY_RESOLVER] =
    g_param_spec_object ("proxy-resolver", NULL, NULL,
                         G_TYPE_PROXY_RESOLVER,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
nearby_resolver_init (NearbyResolver *self)
{
  self->deadline_ms = NEARBY_RESOLVER_DEFAULT_DEADLINE;
  self->max_in_flight = 4;
  self->io_timeout = 10;
  self->cache = nearby_memory_page_cache_new ();
  self->jobs = g_hash_table_new (g_str_hash, g_str_equal);
  self->private_origins = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_queue_init (&self->queue);
}

NearbyResolver *
nearby_resolver_new (void)
{
  return g_object_new (NEARBY_TYPE_RESOLVER, NULL);
}

NearbyPageCache *
nearby_resolver_get_cache (NearbyResolver *self)
{
  g_return_val_if_fail (NEARBY_IS_RESOLVER (self), NULL);

  return self->cache;
}

/* NULL turns caching off. */
void
nearby_resolver_set_cache (NearbyResolver  *self,
                           NearbyPageCache *cache)
{
  g_return_if_fail (NEARBY_IS_RESOLVER (self));
  g_return_if_fail (cache == NULL || NEARBY_IS_PAGE_CACHE (cache));

  if (g_set_object (&self->cache, cache))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CACHE]);
}

guint
nearby_resolver_get_deadline (NearbyResolver *self)
{
  g_return_val_if_fail (NEARBY_IS_RESOLVER (self), 0);

  return self->deadline_ms;
}

void
nearby_resolver_set_deadline (NearbyResolver *self,
                              guint           deadline_ms)
{
  g_return_if_fail (NEARBY_IS_RESOLVER (self));
  g_return_if_fail (deadline_ms > 0);

  if (self->deadline_ms == deadline_ms)
    return;

  self->deadline_ms = deadline_ms;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DEADLINE]);
}

/* Look-ups that hold a connection slot right now (not counting the queue). */
guint
nearby_resolver_get_in_flight (NearbyResolver *self)
{
  g_return_val_if_fail (NEARBY_IS_RESOLVER (self), 0);

  return self->running;
}

void
nearby_resolver_set_address_classifier (NearbyResolver          *self,
                                        NearbyAddressClassifier  classifier,
                                        gpointer                 user_data)
{
  g_return_if_fail (NEARBY_IS_RESOLVER (self));

  self->classifier = classifier;
  self->classifier_data = user_data;
}

void
nearby_resolver_resolve_async (NearbyResolver      *self,
                               const char          *url,
                               NearbyUrlPolicy      policy,
                               NearbyResolveFlags   flags,
                               int                  priority,
                               GCancellable        *cancellable,
                               GAsyncReadyCallback  callback,
                               gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GCancellable) own_cancellable = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GUri) uri = NULL;
  g_autofree char *key = NULL;
  Waiter *waiter;
  Job *job;
  Job probe = { .self = self, .policy = policy };

  g_return_if_fail (NEARBY_IS_RESOLVER (self));
  g_return_if_fail (url != NULL);
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  if (cancellable == NULL)
    cancellable = own_cancellable = g_cancellable_new ();

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, nearby_resolver_resolve_async);

  /* What needs no network is answered at once, as a page carrying the error. */
  if (!g_utf8_validate (url, -1, NULL))
    g_set_error_literal (&error, NEARBY_RESOLVE_ERROR, NEARBY_RESOLVE_ERROR_INVALID_URL,
                         _("The URL is not valid text"));
  else
    uri = check_url (&probe, url, &error);
  if (uri == NULL)
    {
      g_autofree char *shown = g_utf8_make_valid (url, -1);
      g_autoptr(NearbyPage) page = nearby_page_new (shown);

      page->error = g_steal_pointer (&error);
      g_task_return_pointer (task, g_steal_pointer (&page), (GDestroyNotify) nearby_page_unref);
      return;
    }

  key = job_key (url, policy);
  job = g_hash_table_lookup (self->jobs, key);
  if (job != NULL && job_is_cancelled (job))
    {
      /* Everyone gave up on that one: it is winding down, start afresh. */
      g_hash_table_steal (self->jobs, job->key);
      job = NULL;
    }

  if (job == NULL)
    {
      job = g_new0 (Job, 1);
      job->self = g_object_ref (self);
      job->key = g_strdup (key);
      job->url = g_strdup (url);
      job->policy = policy;
      job->flags = flags;
      job->priority = priority;
      job->cancellable = g_cancellable_new ();
      job->page = nearby_page_new (url);
      g_hash_table_insert (self->jobs, job->key, job);

      if (self->cache != NULL && !(flags & NEARBY_RESOLVE_FLAGS_REFRESH))
        nearby_page_cache_lookup_async (self->cache, url, NULL, on_cache_lookup, job);
      else
        job_enqueue (job);
    }
  else if (priority < job->priority)
    {
      job->priority = priority;
      if (job->queued)
        g_queue_sort (&self->queue, compare_priority, NULL);
    }

  g_task_set_task_data (task, g_strdup (key), g_free);
  waiter = g_new0 (Waiter, 1);
  waiter->task = g_object_ref (task);
  job->waiters = g_list_append (job->waiters, waiter);
  waiter->cancelled_id = g_cancellable_connect (cancellable, G_CALLBACK (on_waiter_cancelled),
                                                task, NULL);
}

/* Returns the page, with page->error set when it could not be resolved; NULL and
 * G_IO_ERROR_CANCELLED only when the caller cancelled. */
NearbyPage *
nearby_resolver_resolve_finish (NearbyResolver  *self,
                                GAsyncResult    *result,
                                GError         **error)
{
  g_return_val_if_fail (NEARBY_IS_RESOLVER (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
