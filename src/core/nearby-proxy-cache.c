/* nearby-proxy-cache.c
 *
 * libsoup asks its GProxyResolver before every request, and the resolver asks again to know
 * whether a request goes through a proxy. GIO's resolvers answer from scratch each time: libproxy
 * reads its configuration and /etc/services, GNOME's reads GSettings, both on a worker thread.
 * For a batch of pages that was a quarter of nearby resolve's CPU, for the same answer every
 * time. So answers are kept per scheme, host and port: for max-age (the settings behind libproxy
 * or the portal, a PAC file, can change without a word), and, for GNOME's resolver, until its
 * settings (org.gnome.system.proxy) change. Only then are the settings watched: GSettings would
 * otherwise bring dconf and a session bus into `nearby resolve` run without a desktop. Failed
 * look-ups are not kept.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "nearby-proxy-cache"

#include "config.h"

#include "nearby-proxy-cache.h"

#define MAX_ENTRIES 256

typedef struct {
  char   **proxies;
  gint64   expires_at;   /* monotonic, µs */
} Entry;

struct _NearbyProxyCache
{
  GObject          parent_instance;
  GProxyResolver  *resolver;
  guint            max_age_ms;
  gboolean         watch_settings;
  GHashTable      *entries;      /* "scheme://host:port" -> Entry */
  GPtrArray       *settings;     /* org.gnome.system.proxy and its children, when installed */
  guint64          generation;   /* bumped by every clear: answers asked before are not kept */
  GMutex           lock;         /* entries and generation: a synchronous look-up may come
                                  * from any thread */
};

enum {
  PROP_0,
  PROP_RESOLVER,
  PROP_MAX_AGE,
  PROP_WATCH_SETTINGS,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void proxy_resolver_iface_init (GProxyResolverInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (NearbyProxyCache, nearby_proxy_cache, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_PROXY_RESOLVER,
                                                      proxy_resolver_iface_init))

static void
entry_free (Entry *entry)
{
  g_strfreev (entry->proxies);
  g_free (entry);
}

/* NULL for what cannot be keyed: it is asked of the wrapped resolver every time. */
static char *
cache_key (const char *uri)
{
  g_autofree char *scheme = NULL;
  g_autofree char *host = NULL;
  int port = -1;

  if (!g_uri_split_network (uri, G_URI_FLAGS_SCHEME_NORMALIZE, &scheme, &host, &port, NULL) ||
      host == NULL)
    return NULL;

  return g_strdup_printf ("%s://%s:%d", scheme, host, port);
}

static char **
lookup_cached (NearbyProxyCache *self,
               const char       *key)
{
  g_autoptr(GMutexLocker) locker = NULL;
  Entry *entry;

  if (key == NULL)
    return NULL;
  locker = g_mutex_locker_new (&self->lock);
  entry = g_hash_table_lookup (self->entries, key);
  if (entry == NULL)
    return NULL;
  if (entry->expires_at <= g_get_monotonic_time ())
    {
      g_hash_table_remove (self->entries, key);
      return NULL;
    }

  return g_strdupv (entry->proxies);
}

static guint64
get_generation (NearbyProxyCache *self)
{
  g_autoptr(GMutexLocker) locker = g_mutex_locker_new (&self->lock);

  return self->generation;
}

/* Keeps @proxies unless the settings changed since @generation, when they were asked for. */
static void
store (NearbyProxyCache  *self,
       const char        *key,
       guint64            generation,
       char       *const *proxies)
{
  g_autoptr(GMutexLocker) locker = NULL;
  Entry *entry;

  if (key == NULL || proxies == NULL || self->max_age_ms == 0)
    return;
  locker = g_mutex_locker_new (&self->lock);
  if (generation != self->generation)
    return;
  if (g_hash_table_size (self->entries) >= MAX_ENTRIES)
    g_hash_table_remove_all (self->entries);

  entry = g_new0 (Entry, 1);
  entry->proxies = g_strdupv ((char **) proxies);
  entry->expires_at = g_get_monotonic_time () + (gint64) self->max_age_ms * 1000;
  g_hash_table_replace (self->entries, g_strdup (key), entry);
}

/* GProxyResolver */

static gboolean
cache_is_supported (GProxyResolver *resolver)
{
  NearbyProxyCache *self = NEARBY_PROXY_CACHE (resolver);

  return g_proxy_resolver_is_supported (self->resolver);
}

static char **
cache_lookup (GProxyResolver  *resolver,
              const char      *uri,
              GCancellable    *cancellable,
              GError         **error)
{
  NearbyProxyCache *self = NEARBY_PROXY_CACHE (resolver);
  g_autofree char *key = cache_key (uri);
  guint64 generation = get_generation (self);
  char **proxies = lookup_cached (self, key);

  if (proxies != NULL)
    return proxies;

  proxies = g_proxy_resolver_lookup (self->resolver, uri, cancellable, error);
  store (self, key, generation, proxies);

  return proxies;
}

typedef struct {
  char    *key;
  guint64  generation;
} Lookup;

static void
lookup_free (Lookup *lookup)
{
  g_free (lookup->key);
  g_free (lookup);
}

static void
on_looked_up (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  NearbyProxyCache *self = g_task_get_source_object (task);
  Lookup *lookup = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  char **proxies;

  proxies = g_proxy_resolver_lookup_finish (G_PROXY_RESOLVER (source), result, &error);
  if (proxies == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  /* Settings that changed while the question was out may have made this answer stale. */
  store (self, lookup->key, lookup->generation, proxies);
  g_task_return_pointer (task, proxies, (GDestroyNotify) g_strfreev);
}

static void
cache_lookup_async (GProxyResolver      *resolver,
                    const char          *uri,
                    GCancellable        *cancellable,
                    GAsyncReadyCallback  callback,
                    gpointer             user_data)
{
  NearbyProxyCache *self = NEARBY_PROXY_CACHE (resolver);
  g_autoptr(GTask) task = g_task_new (self, cancellable, callback, user_data);
  g_autofree char *key = cache_key (uri);
  char **proxies;
  Lookup *lookup;

  g_task_set_source_tag (task, cache_lookup_async);

  lookup = g_new0 (Lookup, 1);
  lookup->generation = get_generation (self);
  proxies = lookup_cached (self, key);
  if (proxies != NULL)
    {
      lookup_free (lookup);
      g_task_return_pointer (task, proxies, (GDestroyNotify) g_strfreev);
      return;
    }

  lookup->key = g_steal_pointer (&key);
  g_task_set_task_data (task, lookup, (GDestroyNotify) lookup_free);
  g_proxy_resolver_lookup_async (self->resolver, uri, cancellable, on_looked_up,
                                 g_steal_pointer (&task));
}

static char **
cache_lookup_finish (GProxyResolver  *resolver,
                     GAsyncResult    *result,
                     GError         **error)
{
  g_return_val_if_fail (g_task_is_valid (result, resolver), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
proxy_resolver_iface_init (GProxyResolverInterface *iface)
{
  iface->is_supported = cache_is_supported;
  iface->lookup = cache_lookup;
  iface->lookup_async = cache_lookup_async;
  iface->lookup_finish = cache_lookup_finish;
}

/* GNOME's proxy settings */

static void
on_settings_changed (GSettings  *settings,
                     const char *key,
                     gpointer    user_data)
{
  NearbyProxyCache *self = user_data;

  g_debug ("proxy setting %s changed: forgetting %u answers", key,
           g_hash_table_size (self->entries));
  nearby_proxy_cache_clear (self);
}

static void
watch_settings (NearbyProxyCache *self)
{
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr(GSettingsSchema) schema = NULL;
  g_auto(GStrv) children = NULL;
  GSettings *settings;

  if (source != NULL)
    schema = g_settings_schema_source_lookup (source, "org.gnome.system.proxy", TRUE);
  if (schema == NULL)
    return;

  settings = g_settings_new_full (schema, NULL, NULL);
  g_ptr_array_add (self->settings, settings);
  /* http, https, ftp, socks: the manual proxies */
  children = g_settings_schema_list_children (schema);
  for (guint i = 0; children[i] != NULL; i++)
    g_ptr_array_add (self->settings, g_settings_get_child (settings, children[i]));
  for (guint i = 0; i < self->settings->len; i++)
    g_signal_connect_object (self->settings->pdata[i], "changed",
                             G_CALLBACK (on_settings_changed), self, G_CONNECT_DEFAULT);
}

/* GObject */

static void
nearby_proxy_cache_constructed (GObject *object)
{
  NearbyProxyCache *self = (NearbyProxyCache *) object;

  G_OBJECT_CLASS (nearby_proxy_cache_parent_class)->constructed (object);

  if (self->resolver == NULL)
    self->resolver = g_object_ref (g_proxy_resolver_get_default ());
  if (self->watch_settings)
    watch_settings (self);
}

static void
nearby_proxy_cache_finalize (GObject *object)
{
  NearbyProxyCache *self = (NearbyProxyCache *) object;

  g_ptr_array_unref (self->settings);
  g_hash_table_unref (self->entries);
  g_mutex_clear (&self->lock);
  g_clear_object (&self->resolver);

  G_OBJECT_CLASS (nearby_proxy_cache_parent_class)->finalize (object);
}

static void
nearby_proxy_cache_get_property (GObject    *object,
                                 guint       prop_id,
                                 GValue     *value,
                                 GParamSpec *pspec)
{
  NearbyProxyCache *self = NEARBY_PROXY_CACHE (object);

  switch (prop_id)
    {
    case PROP_RESOLVER:
      g_value_set_object (value, self->resolver);
      break;
    case PROP_MAX_AGE:
      g_value_set_uint (value, self->max_age_ms);
      break;
    case PROP_WATCH_SETTINGS:
      g_value_set_boolean (value, self->watch_settings);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
nearby_proxy_cache_set_property (GObject      *object,
                                 guint         prop_id,
                                 const GValue *value,
                                 GParamSpec   *pspec)
{
  NearbyProxyCache *self = NEARBY_PROXY_CACHE (object);

  switch (prop_id)
    {
    case PROP_RESOLVER:
      self->resolver = g_value_dup_object (value);
      break;
    case PROP_MAX_AGE:
      self->max_age_ms = g_value_get_uint (value);
      nearby_proxy_cache_clear (self);
      break;
    case PROP_WATCH_SETTINGS:
      self->watch_settings = g_value_get_boolean (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
nearby_proxy_cache_class_init (NearbyProxyCacheClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->constructed = nearby_proxy_cache_constructed;
  object_class->finalize = nearby_proxy_cache_finalize;
  object_class->get_property = nearby_proxy_cache_get_property;
  object_class->set_property = nearby_proxy_cache_set_property;

  /* The resolver asked; the default one when not given. */
  properties[PROP_RESOLVER] =
    g_param_spec_object ("resolver", NULL, NULL,
                         G_TYPE_PROXY_RESOLVER,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  /* How long an answer is kept, in milliseconds; 0 keeps none. */
  properties[PROP_MAX_AGE] =
    g_param_spec_uint ("max-age", NULL, NULL,
                       0, G_MAXUINT, NEARBY_PROXY_CACHE_DEFAULT_MAX_AGE_MS,
                       G_PARAM_READWRITE | G_PARAM_CONSTRUCT | G_PARAM_EXPLICIT_NOTIFY |
                       G_PARAM_STATIC_STRINGS);
  /* Whether every answer is forgotten when a key of org.gnome.system.proxy changes. */
  properties[PROP_WATCH_SETTINGS] =
    g_param_spec_boolean ("watch-settings", NULL, NULL,
                          FALSE,
                          G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
nearby_proxy_cache_init (NearbyProxyCache *self)
{
  self->entries = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                         (GDestroyNotify) entry_free);
  self->settings = g_ptr_array_new_with_free_func (g_object_unref);
  g_mutex_init (&self->lock);
}

/* Public */

/* Remembers the answers of @resolver, or of the default resolver when NULL. */
GProxyResolver *
nearby_proxy_cache_new (GProxyResolver *resolver)
{
  g_return_val_if_fail (resolver == NULL || G_IS_PROXY_RESOLVER (resolver), NULL);

  if (resolver == NULL)
    resolver = g_proxy_resolver_get_default ();

  /* glib-networking's resolver for GNOME sessions, which reads org.gnome.system.proxy */
  return g_object_new (NEARBY_TYPE_PROXY_CACHE,
                       "resolver", resolver,
                       "watch-settings", g_str_equal (G_OBJECT_TYPE_NAME (resolver),
                                                      "GProxyResolverGnome"),
                       NULL);
}

GProxyResolver *
nearby_proxy_cache_get_resolver (NearbyProxyCache *self)
{
  g_return_val_if_fail (NEARBY_IS_PROXY_CACHE (self), NULL);

  return self->resolver;
}

/* Forgets every answer, and those of questions still out. */
void
nearby_proxy_cache_clear (NearbyProxyCache *self)
{
  g_autoptr(GMutexLocker) locker = NULL;

  g_return_if_fail (NEARBY_IS_PROXY_CACHE (self));

  locker = g_mutex_locker_new (&self->lock);
  self->generation++;
  g_hash_table_remove_all (self->entries);
}

/* The answer kept for @uri, or NULL when there is none: never asks, so never waits. A caller
 * with many requests to send saves the main-loop turn that g_proxy_resolver_lookup_async()
 * takes to hand back even a kept answer. */
char **
nearby_proxy_cache_lookup_cached (NearbyProxyCache *self,
                                  const char       *uri)
{
  g_autofree char *key = NULL;

  g_return_val_if_fail (NEARBY_IS_PROXY_CACHE (self), NULL);
  g_return_val_if_fail (uri != NULL, NULL);

  key = cache_key (uri);

  return lookup_cached (self, key);
}
