/* nearby-object.c: one thing nearby, its identity, page and history
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "nearby-object"

#include "config.h"

#include <math.h>

#include "nearby-object-private.h"

G_DEFINE_FINAL_TYPE (NearbyObject, nearby_object, G_TYPE_OBJECT)

static GParamSpec *properties[N_PROPS];

GType
nearby_bucket_get_type (void)
{
  static gsize type_id;

  if (g_once_init_enter (&type_id))
    {
      static const GEnumValue values[] = {
        { NEARBY_BUCKET_UNKNOWN, "NEARBY_BUCKET_UNKNOWN", "unknown" },
        { NEARBY_BUCKET_IMMEDIATE, "NEARBY_BUCKET_IMMEDIATE", "immediate" },
        { NEARBY_BUCKET_NEAR, "NEARBY_BUCKET_NEAR", "near" },
        { NEARBY_BUCKET_FAR, "NEARBY_BUCKET_FAR", "far" },
        { 0, NULL, NULL }
      };
      GType type = g_enum_register_static (g_intern_static_string ("NearbyBucket"), values);

      g_once_init_leave (&type_id, type);
    }

  return type_id;
}

static void
format_hex (char         *out,
            const guint8 *data,
            gsize         len)
{
  static const char digits[] = "0123456789abcdef";

  for (gsize i = 0; i < len; i++)
    {
      out[2 * i] = digits[data[i] >> 4];
      out[2 * i + 1] = digits[data[i] & 0xf];
    }
  out[2 * len] = '\0';
}

int
nearby_object_key_for_frame (const NearbyFrame *frame,
                             const char        *address,
                             char               key[NEARBY_OBJECT_KEY_MAX])
{
  char ns[21];
  char instance[13];
  char uuid[33];

  switch (frame->kind)
    {
    case NEARBY_FRAME_KIND_URL:
      g_strlcpy (key, frame->url, NEARBY_OBJECT_KEY_MAX);
      return 3;

    case NEARBY_FRAME_KIND_UID:
      format_hex (ns, frame->namespace_id, sizeof frame->namespace_id);
      format_hex (instance, frame->instance_id, sizeof frame->instance_id);
      g_snprintf (key, NEARBY_OBJECT_KEY_MAX, "eddystone-uid:%s/%s", ns, instance);
      return 2;

    case NEARBY_FRAME_KIND_IBEACON:
      format_hex (uuid, frame->ibeacon_uuid, sizeof frame->ibeacon_uuid);
      g_snprintf (key, NEARBY_OBJECT_KEY_MAX, "ibeacon:%.8s-%.4s-%.4s-%.4s-%.12s/%u/%u",
                  uuid, uuid + 8, uuid + 12, uuid + 16, uuid + 20,
                  frame->ibeacon_major, frame->ibeacon_minor);
      return 1;

    case NEARBY_FRAME_KIND_NONE:
    case NEARBY_FRAME_KIND_TLM:
    case NEARBY_FRAME_KIND_ETLM:
    case NEARBY_FRAME_KIND_EID:
    default:
      g_snprintf (key, NEARBY_OBJECT_KEY_MAX, "address:%s", address);
      return 0;
    }
}

static gboolean
key_is_identity (const char *key)
{
  return g_str_has_prefix (key, "eddystone-uid:")
         || g_str_has_prefix (key, "ibeacon:")
         || g_str_has_prefix (key, "address:");
}

static gboolean
url_is_browsable (const char *url)
{
  return url != NULL
         && (g_ascii_strncasecmp (url, "http://", 7) == 0
             || g_ascii_strncasecmp (url, "https://", 8) == 0);
}

NearbyObject *
nearby_object_new (const char *key)
{
  g_return_val_if_fail (key != NULL, NULL);

  return g_object_new (NEARBY_TYPE_OBJECT, "key", key, NULL);
}

static void
nearby_object_finalize (GObject *object)
{
  NearbyObject *self = (NearbyObject *)object;

  g_clear_pointer (&self->devices_by_address, g_hash_table_unref);
  g_clear_pointer (&self->devices, g_ptr_array_unref);
  g_clear_pointer (&self->samples, g_free);
  g_clear_pointer (&self->key, g_free);
  g_clear_pointer (&self->url, g_free);
  g_clear_pointer (&self->title, g_free);
  g_clear_pointer (&self->description, g_free);
  g_clear_pointer (&self->icon_data, g_bytes_unref);
  g_clear_pointer (&self->icon_type, g_free);
  g_clear_pointer (&self->page, nearby_page_unref);

  G_OBJECT_CLASS (nearby_object_parent_class)->finalize (object);
}

static void
nearby_object_get_property (GObject    *object,
                            guint       prop_id,
                            GValue     *value,
                            GParamSpec *pspec)
{
  NearbyObject *self = NEARBY_OBJECT (object);

  switch (prop_id)
    {
    case PROP_KEY:
      g_value_set_string (value, self->key);
      break;

    case PROP_URL:
      g_value_set_string (value, self->url);
      break;

    case PROP_BROWSABLE:
      g_value_set_boolean (value, self->browsable);
      break;

    case PROP_INVISIBLE:
      g_value_set_boolean (value, self->invisible);
      break;

    case PROP_DISTANCE:
      g_value_set_double (value, self->distance);
      break;

    case PROP_BUCKET:
      g_value_set_enum (value, self->bucket);
      break;

    case PROP_RSSI:
      g_value_set_double (value, self->rssi);
      break;

    case PROP_TX_POWER:
      g_value_set_int (value, self->tx_power);
      break;

    case PROP_FIRST_SEEN:
      g_value_set_int64 (value, self->first_seen_us);
      break;

    case PROP_LAST_SEEN:
      g_value_set_int64 (value, self->last_seen_us);
      break;

    case PROP_STALE:
      g_value_set_boolean (value, self->stale);
      break;

    case PROP_TITLE:
      g_value_set_string (value, self->title);
      break;

    case PROP_DESCRIPTION:
      g_value_set_string (value, self->description);
      break;

    case PROP_ICON_DATA:
      g_value_set_boxed (value, self->icon_data);
      break;

    case PROP_ICON_TYPE:
      g_value_set_string (value, self->icon_type);
      break;

    case PROP_FAVOURITE:
      g_value_set_boolean (value, self->favourite);
      break;

    case PROP_VISIT_COUNT:
      g_value_set_uint (value, self->visit_count);
      break;

    case PROP_LAST_VISIT:
      g_value_set_int64 (value, self->last_visit_us);
      break;

    case PROP_PAGE:
      g_value_set_boxed (value, self->page);
      break;

    case PROP_HISTORY_SCORE:
      g_value_set_double (value, self->history_score);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
nearby_object_set_property (GObject      *object,
                            guint         prop_id,
                            const GValue *value,
                            GParamSpec   *pspec)
{
  NearbyObject *self = NEARBY_OBJECT (object);

  switch (prop_id)
    {
    case PROP_KEY:
      self->key = g_value_dup_string (value);
      if (self->key == NULL)
        self->key = g_strdup ("");
      if (!key_is_identity (self->key))
        self->url = g_strdup (self->key);
      self->browsable = url_is_browsable (self->url);
      break;

    case PROP_TITLE:
      nearby_object_set_title (self, g_value_get_string (value));
      break;

    case PROP_DESCRIPTION:
      nearby_object_set_description (self, g_value_get_string (value));
      break;

    case PROP_FAVOURITE:
      nearby_object_set_favourite (self, g_value_get_boolean (value));
      break;

    case PROP_VISIT_COUNT:
      nearby_object_set_visit_count (self, g_value_get_uint (value));
      break;

    case PROP_LAST_VISIT:
      nearby_object_set_last_visit (self, g_value_get_int64 (value));
      break;

    case PROP_HISTORY_SCORE:
      nearby_object_set_history_score (self, g_value_get_double (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
nearby_object_class_init (NearbyObjectClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  const GParamFlags readable = G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;
  const GParamFlags writable = G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  object_class->finalize = nearby_object_finalize;
  object_class->get_property = nearby_object_get_property;
  object_class->set_property = nearby_object_set_property;

  /* The URL for URL beacons, otherwise "eddystone-uid:NS/INSTANCE", "ibeacon:UUID/MAJOR/MINOR"
   * or "address:ADDRESS". */
  properties[PROP_KEY] =
    g_param_spec_string ("key", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_URL] = g_param_spec_string ("url", NULL, NULL, NULL, readable);
  /* TRUE when the URL is http or https: something a browser can open. */
  properties[PROP_BROWSABLE] = g_param_spec_boolean ("browsable", NULL, NULL, FALSE, readable);
  /* Every device broadcasting the URL sets UriBeacon's Invisible Hint. */
  properties[PROP_INVISIBLE] = g_param_spec_boolean ("invisible", NULL, NULL, FALSE, readable);
  properties[PROP_DISTANCE] =
    g_param_spec_double ("distance", NULL, NULL, -1.0, G_MAXDOUBLE, -1.0, readable);
  properties[PROP_BUCKET] =
    g_param_spec_enum ("bucket", NULL, NULL, NEARBY_TYPE_BUCKET, NEARBY_BUCKET_UNKNOWN, readable);
  properties[PROP_RSSI] =
    g_param_spec_double ("rssi", NULL, NULL, -G_MAXDOUBLE, G_MAXDOUBLE, NEARBY_RSSI_UNKNOWN,
                         readable);
  properties[PROP_TX_POWER] =
    g_param_spec_int ("tx-power", NULL, NULL, G_MININT, G_MAXINT, NEARBY_RSSI_UNKNOWN, readable);
  properties[PROP_FIRST_SEEN] =
    g_param_spec_int64 ("first-seen", NULL, NULL, 0, G_MAXINT64, 0, readable);
  properties[PROP_LAST_SEEN] =
    g_param_spec_int64 ("last-seen", NULL, NULL, 0, G_MAXINT64, 0, readable);
  /* Not heard for a while: the UI dims it until the list drops it. */
  properties[PROP_STALE] = g_param_spec_boolean ("stale", NULL, NULL, FALSE, readable);
  properties[PROP_TITLE] = g_param_spec_string ("title", NULL, NULL, NULL, writable);
  properties[PROP_DESCRIPTION] = g_param_spec_string ("description", NULL, NULL, NULL, writable);
  properties[PROP_ICON_DATA] =
    g_param_spec_boxed ("icon-data", NULL, NULL, G_TYPE_BYTES, readable);
  properties[PROP_ICON_TYPE] = g_param_spec_string ("icon-type", NULL, NULL, NULL, readable);
  properties[PROP_FAVOURITE] = g_param_spec_boolean ("favourite", NULL, NULL, FALSE, writable);
  properties[PROP_VISIT_COUNT] =
    g_param_spec_uint ("visit-count", NULL, NULL, 0, G_MAXUINT, 0, writable);
  properties[PROP_LAST_VISIT] =
    g_param_spec_int64 ("last-visit", NULL, NULL, 0, G_MAXINT64, 0, writable);
  /* Higher ranks first among equally near objects; computed by the history from visits. */
  properties[PROP_HISTORY_SCORE] =
    g_param_spec_double ("history-score", NULL, NULL, -G_MAXDOUBLE, G_MAXDOUBLE, 0.0, writable);

  /* What the resolver found for the URL (or why it could not): final URL, actions, the log. */
  properties[PROP_PAGE] = g_param_spec_boxed ("page", NULL, NULL, NEARBY_TYPE_PAGE, readable);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
nearby_object_init (NearbyObject *self)
{
  self->distance = -1.0;
  self->rank_distance = -1.0;
  self->rank_rssi = NEARBY_RSSI_UNKNOWN;
  self->calm_ranking = TRUE;
  self->bucket = NEARBY_BUCKET_UNKNOWN;
  self->rssi = NEARBY_RSSI_UNKNOWN;
  self->tx_power = NEARBY_RSSI_UNKNOWN;
  self->devices = g_ptr_array_new_with_free_func ((GDestroyNotify) _nearby_object_device_free);
}

const char *
nearby_object_get_key (NearbyObject *self)
{
  g_return_val_if_fail (NEARBY_IS_OBJECT (self), NULL);

  return self->key;
}

const char *
nearby_object_get_url (NearbyObject *self)
{
  g_return_val_if_fail (NEARBY_IS_OBJECT (self), NULL);

  return self->url;
}

gboolean
nearby_object_get_browsable (NearbyObject *self)
{
  g_return_val_if_fail (NEARBY_IS_OBJECT (self), FALSE);

  return self->browsable;
}

gboolean
nearby_object_get_invisible (NearbyObject *self)
{
  g_return_val_if_fail (NEARBY_IS_OBJECT (self), FALSE);

  return self->invisible;
}

double
nearby_object_get_distance (NearbyObject *self)
{
  g_return_val_if_fail (NEARBY_IS_OBJECT (self), -1.0);

  return self->distance;
}

double
nearby_object_get_rank_distance (NearbyObject *self)
{
  g_return_val_if_fail (NEARBY_IS_OBJECT (self), -1.0);

  return self->rank_distance;
}

gboolean
nearby_object_get_calm_ranking (NearbyObject *self)
{
  g_return_val_if_fail (NEARBY_IS_OBJECT (self), FALSE);

  return self->calm_ranking;
}

NearbyBucket
nearby_object_get_bucket (NearbyObject *self)
{
  g_return_val_if_fail (NEARBY_IS_OBJECT (self), NEARBY_BUCKET_UNKNOWN);

  return self->bucket;
}

double
nearby_object_get_rssi (NearbyObject *self)
{
  g_return_val_if_fail (NEARBY_IS_OBJECT (self), NEARBY_RSSI_UNKNOWN);

  return self->rssi;
}

int
nearby_object_get_tx_power (NearbyObject *self)
{
  g_return_val_if_fail (NEARBY_IS_OBJECT (self), NEARBY_RSSI_UNKNOWN);

  return self->tx_power;
}

gint64
nearby_object_get_first_seen (NearbyObject *self)
{
  g_return_val_if_fail (NEARBY_IS_OBJECT (self), 0);

  return self->first_seen_us;
}

gint64
nearby_object_get_last_seen (NearbyObject *self)
{
  g_return_val_if_fail (NEARBY_IS_OBJECT (self), 0);

  return self->last_seen_us;
}

gboolean
nearby_object_get_stale (NearbyObject *self)
{
  g_return_val_if_fail (NEARBY_IS_OBJECT (self), FALSE);

  return self->stale;
}

static void
set_string_property (NearbyObject  *self,
                     char         **field,
                     const char    *value,
                     guint          prop_id)
{
  if (g_strcmp0 (*field, value) == 0)
    return;

  g_free (*field);
  *field = g_strdup (value);
  g_object_notify_by_pspec (G_OBJECT (self), properties[prop_id]);
}

const char *
nearby_object_get_title (NearbyObject *self)
{
  g_return_val_if_fail (NEARBY_IS_OBJECT (self), NULL);

  return self->title;
}

void
nearby_object_set_title (NearbyObject *self,
                         const char   *title)
{
  g_return_if_fail (NEARBY_IS_OBJECT (self));

  set_string_property (self, &self->title, title, PROP_TITLE);
}

const char *
nearby_object_get_description (NearbyObject *self)
{
  g_return_val_if_fail (NEARBY_IS_OBJECT (self), NULL);

  return self->description;
}

void
nearby_object_set_description (NearbyObject *self,
                               const char   *description)
{
  g_return_if_fail (NEARBY_IS_OBJECT (self));

  set_string_property (self, &self->description, description, PROP_DESCRIPTION);
}

GBytes *
nearby_object_get_icon_data (NearbyObject *self)
{
  g_return_val_if_fail (NEARBY_IS_OBJECT (self), NULL);

  return self->icon_data;
}

const char *
nearby_object_get_icon_type (NearbyObject *self)
{
  g_return_val_if_fail (NEARBY_IS_OBJECT (self), NULL);

  return self->icon_type;
}

void
nearby_object_set_icon (NearbyObject *self,
                        GBytes       *icon_data,
                        const char   *icon_type)
{
  g_return_if_fail (NEARBY_IS_OBJECT (self));

  g_object_freeze_notify (G_OBJECT (self));
  if (self->icon_data != icon_data
      && (self->icon_data == NULL || icon_data == NULL || !g_bytes_equal (self->icon_data, icon_data)))
    {
      g_clear_pointer (&self->icon_data, g_bytes_unref);
      self->icon_data = icon_data != NULL ? g_bytes_ref (icon_data) : NULL;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ICON_DATA]);
    }
  set_string_property (self, &self->icon_type, icon_type, PROP_ICON_TYPE);
  g_object_thaw_notify (G_OBJECT (self));
}

NearbyPage *
nearby_object_get_page (NearbyObject *self)
{
  g_return_val_if_fail (NEARBY_IS_OBJECT (self), NULL);

  return self->page;
}

void
nearby_object_set_page (NearbyObject *self,
                        NearbyPage   *page)
{
  g_return_if_fail (NEARBY_IS_OBJECT (self));

  if (self->page == page)
    return;

  g_object_freeze_notify (G_OBJECT (self));
  g_clear_pointer (&self->page, nearby_page_unref);
  self->page = page != NULL ? nearby_page_ref (page) : NULL;
  /* A failed look-up keeps what an earlier one found: a beacon's page going briefly offline
   * should not blank its row. */
  if (page != NULL && page->error == NULL)
    {
      nearby_object_set_title (self, page->title);
      nearby_object_set_description (self, page->description);
      nearby_object_set_icon (self, page->icon, page->icon != NULL ? "image/png" : NULL);
    }
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PAGE]);
  g_object_thaw_notify (G_OBJECT (self));
}

gboolean
nearby_object_get_favourite (NearbyObject *self)
{
  g_return_val_if_fail (NEARBY_IS_OBJECT (self), FALSE);

  return self->favourite;
}

void
nearby_object_set_favourite (NearbyObject *self,
                             gboolean      favourite)
{
  g_return_if_fail (NEARBY_IS_OBJECT (self));

  favourite = !!favourite;
  if (self->favourite == favourite)
    return;

  self->favourite = favourite;
  self->rank_changed = TRUE;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FAVOURITE]);
}

guint
nearby_object_get_visit_count (NearbyObject *self)
{
  g_return_val_if_fail (NEARBY_IS_OBJECT (self), 0);

  return self->visit_count;
}

void
nearby_object_set_visit_count (NearbyObject *self,
                               guint         visit_count)
{
  g_return_if_fail (NEARBY_IS_OBJECT (self));

  if (self->visit_count == visit_count)
    return;

  self->visit_count = visit_count;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_VISIT_COUNT]);
}

gint64
nearby_object_get_last_visit (NearbyObject *self)
{
  g_return_val_if_fail (NEARBY_IS_OBJECT (self), 0);

  return self->last_visit_us;
}

void
nearby_object_set_last_visit (NearbyObject *self,
                              gint64        last_visit_us)
{
  g_return_if_fail (NEARBY_IS_OBJECT (self));

  if (self->last_visit_us == last_visit_us)
    return;

  self->last_visit_us = last_visit_us;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LAST_VISIT]);
}

#define HISTORY_HALF_LIFE_US (14 * 24 * G_USEC_PER_SEC * (gint64) 3600)

double
nearby_object_compute_history_score (guint  visit_count,
                                     gint64 last_visit_us,
                                     gint64 now_us)
{
  gint64 age_us;

  if (visit_count == 0)
    return 0.0;

  age_us = MAX (0, now_us - last_visit_us);
  return log2 (1.0 + visit_count) * exp2 (-(double) age_us / HISTORY_HALF_LIFE_US);
}

double
nearby_object_get_history_score (NearbyObject *self)
{
  g_return_val_if_fail (NEARBY_IS_OBJECT (self), 0.0);

  return self->history_score;
}

void
nearby_object_set_history_score (NearbyObject *self,
                                 double        score)
{
  g_return_if_fail (NEARBY_IS_OBJECT (self));

  if (self->history_score == score)
    return;

  self->history_score = score;
  self->rank_changed = TRUE;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_HISTORY_SCORE]);
}

void
_nearby_object_notify (NearbyObject         *self,
                       NearbyObjectProperty  prop_id)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[prop_id]);
}
