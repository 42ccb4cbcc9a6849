/* nearby-page-loader.c
 *
 * Between the list and the resolver: which object is looked up, when, and with which policy.
 * A look-up tells the page's server that the user is nearby, so what happens without the user
 * asking is decided here, in one place: from the user's choice, developer mode and the demo.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "nearby-page-loader"

#include "config.h"

#include "nearby-page-loader.h"

struct _NearbyPageLoader
{
  GObject           parent_instance;

  NearbyObjectList *objects;
  NearbyResolver   *resolver;
  NearbyPageCache  *cache;

  /* NearbyObject -> its GCancellable, while a look-up is under way */
  GHashTable       *in_flight;

  /* What the user chose, and what widens it */
  NearbyLookupMode  mode;
  gboolean          enabled;
  guint             automatic_policy;
  gboolean          developer_mode;
  gboolean          demo;

  /* What follows from them */
  NearbyLookupMode  effective_mode;
  gboolean          effective_enabled;
  guint             effective_policy;
};

G_DEFINE_FINAL_TYPE (NearbyPageLoader, nearby_page_loader, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_MODE,
  PROP_ENABLED,
  PROP_AUTOMATIC_POLICY,
  PROP_DEVELOPER_MODE,
  PROP_DEMO,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

GType
nearby_lookup_mode_get_type (void)
{
  static gsize type_id;

  if (g_once_init_enter (&type_id))
    {
      static const GEnumValue values[] = {
        { NEARBY_LOOKUP_AUTOMATIC, "NEARBY_LOOKUP_AUTOMATIC", "automatic" },
        { NEARBY_LOOKUP_ASK, "NEARBY_LOOKUP_ASK", "ask" },
        { NEARBY_LOOKUP_NEVER, "NEARBY_LOOKUP_NEVER", "never" },
        { 0, NULL, NULL }
      };
      GType type = g_enum_register_static (g_intern_static_string ("NearbyLookupMode"), values);

      g_once_init_leave (&type_id, type);
    }

  return type_id;
}

/* The look-ups of one refresh, so that the refresh can say what it did once all are done. */
typedef struct {
  guint n_pending;
  guint n_looked_up;
  guint n_found;
} Batch;

typedef struct {
  NearbyPageLoader *self;
  NearbyObject     *object;
  GCancellable     *cancellable;
  GTask            *batch;        /* (nullable): the refresh this look-up is part of */
} LookUp;

static void
look_up_free (LookUp *look_up)
{
  g_clear_object (&look_up->self);
  g_clear_object (&look_up->object);
  g_clear_object (&look_up->cancellable);
  g_clear_object (&look_up->batch);
  g_free (look_up);
}

/* A look-up of the batch ended, with a page or not (cancelled, because the object left or was
 * looked up again, counts as ended too). */
static void
batch_look_up_done (GTask      *task,
                    NearbyPage *page)
{
  Batch *batch = g_task_get_task_data (task);

  if (page != NULL && page->error == NULL)
    batch->n_found++;
  if (--batch->n_pending == 0)
    g_task_return_int (task, batch->n_looked_up);
}

/* Nearest first: the resolver starts lower numbers first. */
static int
priority_for (NearbyObject *object)
{
  double distance = nearby_object_get_distance (object);

  return distance < 0 ? 100 : (int) MIN (distance, 99.0);
}

static void
nearby_page_loader_finish_look_up (LookUp *look_up)
{
  /* Only the look-up that is still the current one for the object may clear it. */
  if (g_hash_table_lookup (look_up->self->in_flight, look_up->object) == look_up->cancellable)
    g_hash_table_remove (look_up->self->in_flight, look_up->object);
}

static void
on_resolved (GObject      *source,
             GAsyncResult *result,
             gpointer      user_data)
{
  LookUp *look_up = user_data;
  g_autoptr(NearbyPage) page = NULL;
  g_autoptr(GError) error = NULL;

  page = nearby_resolver_resolve_finish (NEARBY_RESOLVER (source), result, &error);
  if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      if (page != NULL)
        nearby_object_set_page (look_up->object, page);
      nearby_page_loader_finish_look_up (look_up);
    }
  if (look_up->batch != NULL)
    batch_look_up_done (look_up->batch, page);

  look_up_free (look_up);
}

static void
nearby_page_loader_resolve (NearbyPageLoader   *self,
                            NearbyObject       *object,
                            NearbyUrlPolicy     policy,
                            NearbyResolveFlags  flags,
                            GTask              *batch)
{
  LookUp *look_up;
  GCancellable *previous = g_hash_table_lookup (self->in_flight, object);

  /* An explicit request wins over an automatic one under way. */
  if (previous != NULL)
    {
      if (flags == NEARBY_RESOLVE_FLAGS_NONE && policy == NEARBY_URL_POLICY_AUTOMATIC)
        return;
      g_cancellable_cancel (previous);
    }

  look_up = g_new0 (LookUp, 1);
  look_up->self = g_object_ref (self);
  look_up->object = g_object_ref (object);
  look_up->cancellable = g_cancellable_new ();
  look_up->batch = batch != NULL ? g_object_ref (batch) : NULL;
  g_hash_table_replace (self->in_flight, g_object_ref (object),
                        g_object_ref (look_up->cancellable));

  nearby_resolver_resolve_async (self->resolver, nearby_object_get_url (object), policy, flags,
                                 priority_for (object), look_up->cancellable,
                                 on_resolved, look_up);
}

static void
on_cache_looked_up (GObject      *source,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  LookUp *look_up = user_data;
  g_autoptr(NearbyCacheEntry) entry = NULL;
  g_autoptr(GError) error = NULL;

  entry = nearby_page_cache_lookup_finish (NEARBY_PAGE_CACHE (source), result, &error);
  if (entry != NULL &&
      entry->page_json != NULL &&
      nearby_object_get_page (look_up->object) == NULL)
    {
      g_autoptr(NearbyPage) page = nearby_page_new_from_json (entry->page_json, entry->icon, NULL);

      if (page != NULL)
        nearby_object_set_page (look_up->object, page);
    }
  /* A broken cache only costs the instant row: never an error the user sees. */

  look_up_free (look_up);
}

static void
nearby_page_loader_show_cached (NearbyPageLoader *self,
                                NearbyObject     *object)
{
  LookUp *look_up;

  if (self->cache == NULL)
    return;

  look_up = g_new0 (LookUp, 1);
  look_up->self = g_object_ref (self);
  look_up->object = g_object_ref (object);
  look_up->cancellable = g_cancellable_new ();
  nearby_page_cache_lookup_async (self->cache, nearby_object_get_url (object),
                                  look_up->cancellable, on_cache_looked_up, look_up);
}

static gboolean
nearby_page_loader_wants_automatic (NearbyPageLoader *self)
{
  return self->effective_enabled && self->effective_mode == NEARBY_LOOKUP_AUTOMATIC;
}

static void
nearby_page_loader_consider (NearbyPageLoader *self,
                             NearbyObject     *object)
{
  if (!nearby_object_get_browsable (object))
    return;

  /* The resolver reads the cache itself; without a look-up, the cache alone fills the row. */
  if (nearby_page_loader_wants_automatic (self))
    nearby_page_loader_resolve (self, object, self->effective_policy, NEARBY_RESOLVE_FLAGS_NONE,
                                NULL);
  else if (nearby_object_get_page (object) == NULL)
    nearby_page_loader_show_cached (self, object);
}

static void
on_object_added (NearbyPageLoader *self,
                 NearbyObject     *object)
{
  nearby_page_loader_consider (self, object);
}

static void
on_object_removed (NearbyPageLoader *self,
                   NearbyObject     *object)
{
  GCancellable *cancellable = g_hash_table_lookup (self->in_flight, object);

  if (cancellable != NULL)
    {
      g_cancellable_cancel (cancellable);
      g_hash_table_remove (self->in_flight, object);
    }
}

static void
nearby_page_loader_reconsider_all (NearbyPageLoader *self)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->objects));

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(NearbyObject) object = g_list_model_get_item (G_LIST_MODEL (self->objects), i);
      NearbyPage *page = nearby_object_get_page (object);

      /* Pages refused only because the policy was narrower get another chance. */
      if (page == NULL ||
          g_error_matches (page->error, NEARBY_RESOLVE_ERROR, NEARBY_RESOLVE_ERROR_NEEDS_CONFIRMATION))
        nearby_page_loader_consider (self, object);
    }
}

/* Developers see every page, local and insecure ones too, as soon as it is heard; the demo's
 * pages are served from this computer, so looking them up tells nobody anything. Either way
 * there is nothing for the user to choose first. */
static void
nearby_page_loader_update (NearbyPageLoader *self)
{
  NearbyLookupMode mode = self->mode;
  gboolean enabled = self->enabled;
  guint policy = self->automatic_policy;

  if (self->developer_mode)
    {
      mode = NEARBY_LOOKUP_AUTOMATIC;
      policy = NEARBY_URL_POLICY_EXPLICIT;
      enabled = TRUE;
    }
  else if (self->demo)
    {
      mode = NEARBY_LOOKUP_AUTOMATIC;
      policy = NEARBY_URL_POLICY_ALLOW_HTTP | NEARBY_URL_POLICY_ALLOW_LOOPBACK;
      enabled = TRUE;
    }

  if (mode == self->effective_mode && enabled == self->effective_enabled &&
      policy == self->effective_policy)
    return;

  self->effective_mode = mode;
  self->effective_enabled = enabled;
  self->effective_policy = policy;
  nearby_page_loader_reconsider_all (self);
}

void
nearby_page_loader_look_up (NearbyPageLoader *self,
                            NearbyObject     *object,
                            gboolean          refresh)
{
  g_return_if_fail (NEARBY_IS_PAGE_LOADER (self));
  g_return_if_fail (NEARBY_IS_OBJECT (object));

  if (!nearby_object_get_browsable (object))
    return;

  nearby_page_loader_resolve (self, object, NEARBY_URL_POLICY_EXPLICIT,
                              refresh ? NEARBY_RESOLVE_FLAGS_REFRESH : NEARBY_RESOLVE_FLAGS_NONE,
                              NULL);
}

void
nearby_page_loader_look_up_all_async (NearbyPageLoader    *self,
                                      gboolean             refresh,
                                      GCancellable        *cancellable,
                                      GAsyncReadyCallback  callback,
                                      gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  Batch *batch;
  guint n;

  g_return_if_fail (NEARBY_IS_PAGE_LOADER (self));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, nearby_page_loader_look_up_all_async);
  batch = g_new0 (Batch, 1);
  g_task_set_task_data (task, batch, g_free);

  /* One more than the look-ups, so that a look-up answered from a cache at once cannot end
   * the batch before the last one is started. */
  batch->n_pending = 1;
  n = g_list_model_get_n_items (G_LIST_MODEL (self->objects));
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(NearbyObject) object = g_list_model_get_item (G_LIST_MODEL (self->objects), i);

      if (!nearby_object_get_browsable (object))
        continue;

      batch->n_pending++;
      batch->n_looked_up++;
      nearby_page_loader_resolve (self, object, NEARBY_URL_POLICY_EXPLICIT,
                                  refresh ? NEARBY_RESOLVE_FLAGS_REFRESH : NEARBY_RESOLVE_FLAGS_NONE,
                                  task);
    }
  batch_look_up_done (task, NULL);
}

guint
nearby_page_loader_look_up_all_finish (NearbyPageLoader  *self,
                                       GAsyncResult      *result,
                                       guint             *n_found,
                                       GError           **error)
{
  Batch *batch;
  gssize n_looked_up;

  g_return_val_if_fail (NEARBY_IS_PAGE_LOADER (self), 0);
  g_return_val_if_fail (g_task_is_valid (result, self), 0);

  batch = g_task_get_task_data (G_TASK (result));
  if (n_found != NULL)
    *n_found = batch->n_found;
  n_looked_up = g_task_propagate_int (G_TASK (result), error);

  return n_looked_up > 0 ? (guint) n_looked_up : 0;
}

NearbyPageLoader *
nearby_page_loader_new (NearbyObjectList *objects,
                        NearbyResolver   *resolver,
                        NearbyPageCache  *cache)
{
  NearbyPageLoader *self;

  g_return_val_if_fail (NEARBY_IS_OBJECT_LIST (objects), NULL);
  g_return_val_if_fail (NEARBY_IS_RESOLVER (resolver), NULL);
  g_return_val_if_fail (cache == NULL || NEARBY_IS_PAGE_CACHE (cache), NULL);

  self = g_object_new (NEARBY_TYPE_PAGE_LOADER, NULL);
  self->objects = g_object_ref (objects);
  self->resolver = g_object_ref (resolver);
  if (cache != NULL)
    {
      self->cache = g_object_ref (cache);
      nearby_resolver_set_cache (resolver, cache);
    }

  g_signal_connect_object (objects, "object-added",
                           G_CALLBACK (on_object_added), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (objects, "object-removed",
                           G_CALLBACK (on_object_removed), self, G_CONNECT_SWAPPED);

  return self;
}

gboolean
nearby_page_loader_get_looks_up_when_opened (NearbyPageLoader *self)
{
  g_return_val_if_fail (NEARBY_IS_PAGE_LOADER (self), FALSE);

  return self->effective_mode != NEARBY_LOOKUP_NEVER;
}

NearbyLookupMode
nearby_page_loader_get_mode (NearbyPageLoader *self)
{
  g_return_val_if_fail (NEARBY_IS_PAGE_LOADER (self), NEARBY_LOOKUP_NEVER);

  return self->mode;
}

void
nearby_page_loader_set_mode (NearbyPageLoader *self,
                             NearbyLookupMode  mode)
{
  g_return_if_fail (NEARBY_IS_PAGE_LOADER (self));

  if (self->mode == mode)
    return;

  self->mode = mode;
  nearby_page_loader_update (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MODE]);
}

gboolean
nearby_page_loader_get_enabled (NearbyPageLoader *self)
{
  g_return_val_if_fail (NEARBY_IS_PAGE_LOADER (self), FALSE);

  return self->enabled;
}

void
nearby_page_loader_set_enabled (NearbyPageLoader *self,
                                gboolean          enabled)
{
  g_return_if_fail (NEARBY_IS_PAGE_LOADER (self));

  enabled = !!enabled;
  if (self->enabled == enabled)
    return;

  self->enabled = enabled;
  nearby_page_loader_update (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ENABLED]);
}

guint
nearby_page_loader_get_automatic_policy (NearbyPageLoader *self)
{
  g_return_val_if_fail (NEARBY_IS_PAGE_LOADER (self), 0);

  return self->automatic_policy;
}

void
nearby_page_loader_set_automatic_policy (NearbyPageLoader *self,
                                         guint             policy)
{
  g_return_if_fail (NEARBY_IS_PAGE_LOADER (self));

  if (self->automatic_policy == policy)
    return;

  self->automatic_policy = policy;
  nearby_page_loader_update (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_AUTOMATIC_POLICY]);
}

gboolean
nearby_page_loader_get_developer_mode (NearbyPageLoader *self)
{
  g_return_val_if_fail (NEARBY_IS_PAGE_LOADER (self), FALSE);

  return self->developer_mode;
}

void
nearby_page_loader_set_developer_mode (NearbyPageLoader *self,
                                       gboolean          developer_mode)
{
  g_return_if_fail (NEARBY_IS_PAGE_LOADER (self));

  developer_mode = !!developer_mode;
  if (self->developer_mode == developer_mode)
    return;

  self->developer_mode = developer_mode;
  nearby_page_loader_update (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DEVELOPER_MODE]);
}

gboolean
nearby_page_loader_get_demo (NearbyPageLoader *self)
{
  g_return_val_if_fail (NEARBY_IS_PAGE_LOADER (self), FALSE);

  return self->demo;
}

void
nearby_page_loader_set_demo (NearbyPageLoader *self,
                             gboolean          demo)
{
  g_return_if_fail (NEARBY_IS_PAGE_LOADER (self));

  demo = !!demo;
  if (self->demo == demo)
    return;

  self->demo = demo;
  nearby_page_loader_update (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DEMO]);
}

static void
nearby_page_loader_dispose (GObject *object)
{
  NearbyPageLoader *self = NEARBY_PAGE_LOADER (object);
  GHashTableIter iter;
  gpointer cancellable;

  if (self->in_flight != NULL)
    {
      g_hash_table_iter_init (&iter, self->in_flight);
      while (g_hash_table_iter_next (&iter, NULL, &cancellable))
        g_cancellable_cancel (cancellable);
      g_hash_table_remove_all (self->in_flight);
    }

  g_clear_object (&self->objects);
  g_clear_object (&self->resolver);
  g_clear_object (&self->cache);

  G_OBJECT_CLASS (nearby_page_loader_parent_class)->dispose (object);
}

static void
nearby_page_loader_finalize (GObject *object)
{
  NearbyPageLoader *self = NEARBY_PAGE_LOADER (object);

  g_clear_pointer (&self->in_flight, g_hash_table_unref);

  G_OBJECT_CLASS (nearby_page_loader_parent_class)->finalize (object);
}

static void
nearby_page_loader_get_property (GObject    *object,
                                 guint       prop_id,
                                 GValue     *value,
                                 GParamSpec *pspec)
{
  NearbyPageLoader *self = NEARBY_PAGE_LOADER (object);

  switch (prop_id)
    {
    case PROP_MODE:
      g_value_set_enum (value, self->mode);
      break;

    case PROP_ENABLED:
      g_value_set_boolean (value, self->enabled);
      break;

    case PROP_AUTOMATIC_POLICY:
      g_value_set_uint (value, self->automatic_policy);
      break;

    case PROP_DEVELOPER_MODE:
      g_value_set_boolean (value, self->developer_mode);
      break;

    case PROP_DEMO:
      g_value_set_boolean (value, self->demo);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
nearby_page_loader_set_property (GObject      *object,
                                 guint         prop_id,
                                 const GValue *value,
                                 GParamSpec   *pspec)
{
  NearbyPageLoader *self = NEARBY_PAGE_LOADER (object);

  switch (prop_id)
    {
    case PROP_MODE:
      nearby_page_loader_set_mode (self, g_value_get_enum (value));
      break;

    case PROP_ENABLED:
      nearby_page_loader_set_enabled (self, g_value_get_boolean (value));
      break;

    case PROP_AUTOMATIC_POLICY:
      nearby_page_loader_set_automatic_policy (self, g_value_get_uint (value));
      break;

    case PROP_DEVELOPER_MODE:
      nearby_page_loader_set_developer_mode (self, g_value_get_boolean (value));
      break;

    case PROP_DEMO:
      nearby_page_loader_set_demo (self, g_value_get_boolean (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
nearby_page_loader_class_init (NearbyPageLoaderClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = nearby_page_loader_dispose;
  object_class->finalize = nearby_page_loader_finalize;
  object_class->get_property = nearby_page_loader_get_property;
  object_class->set_property = nearby_page_loader_set_property;

  properties[PROP_MODE] =
    g_param_spec_enum ("mode", NULL, NULL,
                       NEARBY_TYPE_LOOKUP_MODE, NEARBY_LOOKUP_ASK,
                       (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  properties[PROP_ENABLED] =
    g_param_spec_boolean ("enabled", NULL, NULL,
                          FALSE,
                          (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  properties[PROP_AUTOMATIC_POLICY] =
    g_param_spec_uint ("automatic-policy", NULL, NULL,
                       0, NEARBY_URL_POLICY_EXPLICIT, NEARBY_URL_POLICY_AUTOMATIC,
                       (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  properties[PROP_DEVELOPER_MODE] =
    g_param_spec_boolean ("developer-mode", NULL, NULL,
                          FALSE,
                          (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  properties[PROP_DEMO] =
    g_param_spec_boolean ("demo", NULL, NULL,
                          FALSE,
                          (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
nearby_page_loader_init (NearbyPageLoader *self)
{
  self->mode = NEARBY_LOOKUP_ASK;
  self->automatic_policy = NEARBY_URL_POLICY_AUTOMATIC;
  self->effective_mode = self->mode;
  self->effective_policy = self->automatic_policy;
  self->in_flight = g_hash_table_new_full (NULL, NULL, g_object_unref, g_object_unref);
}
