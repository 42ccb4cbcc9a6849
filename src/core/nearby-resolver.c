/* nearby-resolver.c
 *
 * Fetching a beacon's URL tells its server that someone is standing next to the beacon, and a
 * GET sent to a LAN address because of a broadcast is a request forgery. So the policy is
 * checked on every hop and on the address each connection actually reached, nothing is sent
 * that identifies the user (no cookies, no Referer, no Accept-Language), and every response is
 * bounded: hops, bytes, pixels and one deadline for the whole look-up. The requests are made in
 * nearby-resolver-fetch.c; this file runs the look-ups and assembles the page from what they
 * bring back.
 *
 * One "job" runs per URL, however many callers wait for it; jobs beyond max-in-flight queue
 * by priority (nearest objects first). A job holds its slot while it fetches its page and
 * until its manifest's or icon's request is queued: those, often on other hosts (a CDN whose
 * name may take seconds to resolve, or never does), must not hold back the next object's page,
 * but queued first they are sent before it rather than after every page of a batch.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "nearby-resolver"

#include "config.h"

#include <glib/gi18n.h>

#include "nearby-icon.h"
#include "nearby-memory-page-cache.h"
#include "nearby-resolver-private.h"

/* One caller waiting for a job: callers of the same URL share the job. */
typedef struct {
  GTask   *task;
  gulong   cancelled_id;
} Waiter;

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

static void job_pump     (NearbyResolver    *self);
static void job_complete (NearbyResolverJob *job);

/* Jobs */

static char *
job_key (const char      *url,
         NearbyUrlPolicy  policy)
{
  return g_strdup_printf ("%u %s", (guint) policy, url);
}

static void
job_free (NearbyResolverJob *job)
{
  _nearby_resolver_job_clear_fetch (job);
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
job_cancel (NearbyResolverJob *job)
{
  g_cancellable_cancel (job->cancellable);
  if (job->fetch_cancellable != NULL)
    g_cancellable_cancel (job->fetch_cancellable);
}

gboolean
_nearby_resolver_job_is_cancelled (NearbyResolverJob *job)
{
  return g_cancellable_is_cancelled (job->cancellable);
}

static void
job_return_to_waiters (NearbyResolverJob *job)
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
job_finish (NearbyResolverJob *job)
{
  NearbyResolver *self = g_object_ref (job->self);

  if (g_hash_table_lookup (self->jobs, job->key) == job)
    g_hash_table_steal (self->jobs, job->key);
  if (job->queued)
    g_queue_remove (&self->queue, job);
  if (job->holds_slot)
    self->running--;

  job_return_to_waiters (job);
  job_free (job);

  job_pump (self);
  g_object_unref (self);
}

static void
job_fail (NearbyResolverJob *job,
          const GError      *error)
{
  g_clear_error (&job->page->error);
  job->page->error = g_error_copy (error);
  job_complete (job);
}

static gboolean
on_deadline (gpointer user_data)
{
  NearbyResolverJob *job = user_data;

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
  const NearbyResolverJob *ja = a;
  const NearbyResolverJob *jb = b;

  if (ja->priority != jb->priority)
    return (ja->priority > jb->priority) - (ja->priority < jb->priority);

  /* g_queue_insert_sorted() puts a job before its equals: without this, of objects equally near
   * the one seen last would be looked up first. */
  return (ja->sequence > jb->sequence) - (ja->sequence < jb->sequence);
}

static void
job_start (NearbyResolverJob *job)
{
  NearbyResolver *self = job->self;

  job->started = TRUE;
  job->holds_slot = TRUE;
  job->started_us = g_get_monotonic_time ();
  self->running++;
  job->page->fetched_at_us = g_get_real_time ();
  job->deadline_id = g_timeout_add (self->deadline_ms, on_deadline, job);

  _nearby_resolver_job_fetch (job, NEARBY_RESOLVER_FETCH_PAGE, job->url);
}

static void
job_pump (NearbyResolver *self)
{
  while (self->running < self->max_in_flight && !g_queue_is_empty (&self->queue))
    {
      NearbyResolverJob *job = g_queue_pop_head (&self->queue);

      job->queued = FALSE;
      job_start (job);
    }
}

/* The page is in and its manifest's or first icon's request is queued: the rest goes on under
 * libsoup's connection limits only, and the next job's page is queued behind that request, at
 * the same priority: a page's icon comes before the next pages, not after the whole batch. */
void
_nearby_resolver_job_release_slot (NearbyResolverJob *job)
{
  if (!job->holds_slot)
    return;

  job->holds_slot = FALSE;
  job->self->running--;
  job_pump (job->self);
}

static void
job_enqueue (NearbyResolverJob *job)
{
  job->queued = TRUE;
  g_queue_insert_sorted (&job->self->queue, job, compare_priority, NULL);
  job_pump (job->self);
}

/* Cache */

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
job_store_in_cache (NearbyResolverJob *job)
{
  g_autofree char *json = NULL;
  g_autoptr(NearbyCacheEntry) entry = NULL;

  if (job->self->cache == NULL || job->page->error != NULL)
    return;

  json = nearby_page_to_json (job->page);
  entry = nearby_cache_entry_new (json, job->page->icon, job->page->icon ? "image/png" : NULL,
                                  job->page->expires_at_us);
  nearby_page_cache_store_async (job->self->cache, job->url, entry, NULL, on_cache_stored, NULL);
}

static void
on_cache_lookup (GObject      *source,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  NearbyResolverJob *job = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(NearbyCacheEntry) entry = NULL;

  entry = nearby_page_cache_lookup_finish (NEARBY_PAGE_CACHE (source), result, &error);

  if (_nearby_resolver_job_is_cancelled (job))
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
  NearbyResolverJob *job = g_hash_table_lookup (self->jobs, key);

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

/* Icons */

static void
job_next_icon (NearbyResolverJob *job)
{
  if (job->timed_out || job->icon_index >= job->icon_candidates->len)
    {
      job_complete (job);
      return;
    }

  _nearby_resolver_job_fetch (job, NEARBY_RESOLVER_FETCH_ICON,
                              g_ptr_array_index (job->icon_candidates, job->icon_index++));
}

static void
job_start_icons (NearbyResolverJob *job)
{
  job->icon_candidates = nearby_icon_candidates (job->meta, job->manifest, job->page->final_url);
  job->icon_index = 0;

  job_next_icon (job);
}

/* Steps */

/* Within the limit of hops; past it, the page that asked is what the look-up found. */
static gboolean
job_follows_refresh (NearbyResolverJob *job)
{
  g_autofree char *url = NULL;

  if (job->meta->refresh_url == NULL || job->timed_out ||
      job->page->redirects->len >= NEARBY_RESOLVER_MAX_REDIRECTS)
    return FALSE;

  url = g_strdup (job->meta->refresh_url);
  g_clear_pointer (&job->meta, nearby_page_meta_free);
  _nearby_resolver_job_follow_refresh (job, url);

  return TRUE;
}

static void
job_page_fetched (NearbyResolverJob *job)
{
  job->meta = nearby_page_meta_parser_finish (job->parser);
  g_clear_pointer (&job->parser, nearby_page_meta_parser_free);

  if (job_follows_refresh (job))
    return;

  job->page->title = g_strdup (job->meta->title);
  job->page->description = g_strdup (job->meta->description);
  job->page->canonical_url = g_strdup (job->meta->canonical_url);
  job->page->manifest_url = g_strdup (job->meta->manifest_url);
  job->page->expires_at_us = job->expires_at_us;

  if (job->page->title == NULL)
    job->page->title = nearby_url_display_host_path (job->page->final_url);

  /* The slot is given back once that request is queued (_nearby_resolver_job_release_slot). */
  if (job->meta->manifest_url != NULL && !job->timed_out)
    _nearby_resolver_job_fetch (job, NEARBY_RESOLVER_FETCH_MANIFEST, job->meta->manifest_url);
  else
    job_start_icons (job);
}

static void
job_manifest_fetched (NearbyResolverJob *job,
                      GError            *fetch_error)
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
  NearbyResolverJob *job = user_data;
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
job_icon_fetched (NearbyResolverJob *job,
                  GError            *fetch_error)
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
  nearby_icon_decode_async (bytes, NEARBY_ICON_TARGET_SIZE, NULL, on_icon_decoded, job);
}

void
_nearby_resolver_job_fetch_done (NearbyResolverJob *job,
                                 GError            *error)
{
  if (_nearby_resolver_job_is_cancelled (job) && !job->timed_out)
    {
      job_finish (job);
      return;
    }

  switch (job->kind)
    {
    case NEARBY_RESOLVER_FETCH_PAGE:
      if (error != NULL)
        job_fail (job, error);
      else
        job_page_fetched (job);
      break;

    case NEARBY_RESOLVER_FETCH_MANIFEST:
      job_manifest_fetched (job, error);
      break;

    case NEARBY_RESOLVER_FETCH_ICON:
      job_icon_fetched (job, error);
      break;

    default:
      g_assert_not_reached ();
    }
}

static void
job_complete (NearbyResolverJob *job)
{
  _nearby_resolver_job_clear_fetch (job);
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
  /* A resolver given is used as it is; the system's comes with the first request
   * (_nearby_resolver_get_proxy_resolver). */
  if (self->proxy_resolver != NULL)
    soup_session_set_proxy_resolver (self->session, self->proxy_resolver);
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
  g_hash_table_unref (self->unresolved_hosts);
  g_hash_table_unref (self->missing_favicons);
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

  /* NULL: the system's, made at the first request (and read as NULL until then). */
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
  self->unresolved_hosts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  self->missing_favicons = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
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

/* Look-ups fetching their page right now (not counting the queue, nor those fetching their
 * manifest or icons). */
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
  NearbyResolverJob *job;

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
    uri = _nearby_resolver_check_url (self, policy, url, &error);
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
  if (job != NULL && _nearby_resolver_job_is_cancelled (job))
    {
      /* Everyone gave up on that one: it is winding down, start afresh. */
      g_hash_table_steal (self->jobs, job->key);
      job = NULL;
    }

  if (job == NULL)
    {
      job = g_new0 (NearbyResolverJob, 1);
      job->self = g_object_ref (self);
      job->key = g_strdup (key);
      job->url = g_strdup (url);
      job->policy = policy;
      job->flags = flags;
      job->priority = priority;
      job->sequence = self->next_sequence++;
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
