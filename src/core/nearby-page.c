/* nearby-page.c
 *
 * The JSON form is both what `nearby resolve --json` prints and what the cache stores, so a
 * page read back from the cache is the page that was resolved (the icon bytes travel apart).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "nearby-page"

#include "config.h"

#include <json-glib/json-glib.h>
#include <math.h>

#include "nearby-json.h"
#include "nearby-page.h"
#include "nearby-resolve-error.h"

G_DEFINE_BOXED_TYPE (NearbyPage, nearby_page, nearby_page_ref, nearby_page_unref)

static void
redirect_free (gpointer data)
{
  NearbyRedirect *redirect = data;

  g_free (redirect->url);
  g_free (redirect);
}

NearbyPage *
nearby_page_new (const char *url)
{
  NearbyPage *page = g_atomic_rc_box_new0 (NearbyPage);

  page->url = g_strdup (url);
  page->redirects = g_ptr_array_new_with_free_func (redirect_free);
  page->actions = g_ptr_array_new_with_free_func ((GDestroyNotify) nearby_page_action_free);

  return page;
}

NearbyPage *
nearby_page_ref (NearbyPage *page)
{
  g_return_val_if_fail (page != NULL, NULL);

  return g_atomic_rc_box_acquire (page);
}

static void
nearby_page_clear (gpointer data)
{
  NearbyPage *page = data;

  g_free (page->url);
  g_free (page->final_url);
  g_ptr_array_unref (page->redirects);
  g_free (page->title);
  g_free (page->description);
  g_free (page->canonical_url);
  g_free (page->manifest_url);
  g_free (page->manifest_name);
  g_free (page->icon_url);
  g_clear_pointer (&page->icon, g_bytes_unref);
  g_free (page->icon_type);
  g_ptr_array_unref (page->actions);
  g_clear_error (&page->error);
}

void
nearby_page_unref (NearbyPage *page)
{
  g_return_if_fail (page != NULL);

  g_atomic_rc_box_release_full (page, nearby_page_clear);
}

void
nearby_page_add_redirect (NearbyPage *page,
                          const char *url,
                          guint       status)
{
  NearbyRedirect *redirect = g_new0 (NearbyRedirect, 1);

  redirect->url = g_strdup (url);
  redirect->status = status;
  g_ptr_array_add (page->redirects, redirect);
}

/* "needs-confirmation", "tls", … or NULL when the page resolved */
const char *
nearby_page_get_error_code (NearbyPage *page)
{
  g_return_val_if_fail (page != NULL, NULL);

  if (page->error == NULL)
    return NULL;
  if (page->error->domain != NEARBY_RESOLVE_ERROR)
    return "unknown";

  return nearby_resolve_error_to_string (page->error->code);
}

char *
nearby_page_to_json (NearbyPage *page)
{
  GString *out;
  NearbyJsonWriter writer;

  g_return_val_if_fail (page != NULL, NULL);

  out = g_string_sized_new (1024);
  nearby_json_writer_init (&writer, out);
  nearby_json_writer_begin_object (&writer);
  nearby_json_writer_string_member (&writer, "url", page->url);
  nearby_json_writer_string_member (&writer, "final_url", page->final_url);
  nearby_json_writer_name (&writer, "status");
  nearby_json_writer_int (&writer, page->status);

  nearby_json_writer_name (&writer, "redirects");
  nearby_json_writer_begin_array (&writer);
  for (guint i = 0; i < page->redirects->len; i++)
    {
      NearbyRedirect *redirect = g_ptr_array_index (page->redirects, i);

      nearby_json_writer_begin_object (&writer);
      nearby_json_writer_string_member (&writer, "url", redirect->url);
      nearby_json_writer_name (&writer, "status");
      nearby_json_writer_int (&writer, redirect->status);
      nearby_json_writer_end_object (&writer);
    }
  nearby_json_writer_end_array (&writer);

  nearby_json_writer_string_member (&writer, "title", page->title);
  nearby_json_writer_string_member (&writer, "description", page->description);
  nearby_json_writer_string_member (&writer, "canonical_url", page->canonical_url);
  nearby_json_writer_string_member (&writer, "manifest_url", page->manifest_url);
  nearby_json_writer_string_member (&writer, "manifest_name", page->manifest_name);
  nearby_json_writer_string_member (&writer, "icon_url", page->icon_url);

  nearby_json_writer_name (&writer, "icon");
  if (page->icon_type != NULL)
    {
      nearby_json_writer_begin_object (&writer);
      nearby_json_writer_string_member (&writer, "type", page->icon_type);
      nearby_json_writer_name (&writer, "width");
      nearby_json_writer_int (&writer, page->icon_width);
      nearby_json_writer_name (&writer, "height");
      nearby_json_writer_int (&writer, page->icon_height);
      nearby_json_writer_end_object (&writer);
    }
  else
    {
      nearby_json_writer_null (&writer);
    }

  nearby_json_writer_name (&writer, "actions");
  nearby_json_writer_begin_array (&writer);
  for (guint i = 0; i < page->actions->len; i++)
    {
      NearbyPageAction *action = g_ptr_array_index (page->actions, i);

      nearby_json_writer_begin_object (&writer);
      nearby_json_writer_string_member (&writer, "title", action->title);
      nearby_json_writer_string_member (&writer, "url", action->url);
      nearby_json_writer_end_object (&writer);
    }
  nearby_json_writer_end_array (&writer);

  nearby_json_writer_name (&writer, "timings");
  nearby_json_writer_begin_object (&writer);
  /* Whole milliseconds: more digits would only be noise. */
  nearby_json_writer_name (&writer, "headers_ms");
  nearby_json_writer_int (&writer, (page->headers_us + 500) / 1000);
  nearby_json_writer_name (&writer, "total_ms");
  nearby_json_writer_int (&writer, (page->total_us + 500) / 1000);
  nearby_json_writer_end_object (&writer);

  nearby_json_writer_name (&writer, "fetched_at_us");
  nearby_json_writer_int (&writer, page->fetched_at_us);
  nearby_json_writer_name (&writer, "expires_at_us");
  nearby_json_writer_int (&writer, page->expires_at_us);
  nearby_json_writer_name (&writer, "from_cache");
  nearby_json_writer_boolean (&writer, page->from_cache);

  nearby_json_writer_string_member (&writer, "error", page->error ? page->error->message : NULL);
  nearby_json_writer_string_member (&writer, "error_code", nearby_page_get_error_code (page));
  nearby_json_writer_end_object (&writer);

  return g_string_free (out, FALSE);
}

static char *
dup_member (JsonObject *object,
            const char *name)
{
  JsonNode *node = json_object_get_member (object, name);

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) ||
      json_node_get_value_type (node) != G_TYPE_STRING)
    return NULL;

  return g_strdup (json_node_get_string (node));
}

/* A number past what gint64 holds arrives as a double; converting it unbounded is undefined
 * behaviour, and a damaged cache file must not decide what that does. */
static gint64
int64_from_double (double value)
{
  if (isnan (value))
    return 0;
  if (value >= 9223372036854775808.0)
    return G_MAXINT64;
  if (value < -9223372036854775808.0)
    return G_MININT64;
  return (gint64) value;
}

static gint64
int_member (JsonObject *object,
            const char *name)
{
  JsonNode *node = json_object_get_member (object, name);

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node))
    return 0;
  if (json_node_get_value_type (node) == G_TYPE_INT64)
    return json_node_get_int (node);
  if (json_node_get_value_type (node) == G_TYPE_DOUBLE)
    return int64_from_double (json_node_get_double (node));

  return 0;
}

static double
double_member (JsonObject *object,
               const char *name)
{
  JsonNode *node = json_object_get_member (object, name);

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node))
    return 0;
  if (json_node_get_value_type (node) == G_TYPE_INT64)
    return (double) json_node_get_int (node);
  if (json_node_get_value_type (node) == G_TYPE_DOUBLE)
    return json_node_get_double (node);

  return 0;
}

static JsonObject *
object_member (JsonObject *object,
               const char *name)
{
  JsonNode *node = json_object_get_member (object, name);

  return node != NULL && JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
}

static JsonArray *
array_member (JsonObject *object,
              const char *name)
{
  JsonNode *node = json_object_get_member (object, name);

  return node != NULL && JSON_NODE_HOLDS_ARRAY (node) ? json_node_get_array (node) : NULL;
}

/* The reverse of nearby_page_to_json(); the cache is a file on disk, so this checks types
 * and refuses what it cannot read rather than guessing. */
NearbyPage *
nearby_page_new_from_json (const char  *json,
                           GBytes      *icon,
                           GError     **error)
{
  g_autoptr(JsonParser) parser = json_parser_new_immutable ();
  g_autoptr(NearbyPage) page = NULL;
  g_autofree char *url = NULL;
  g_autofree char *error_message = NULL;
  g_autofree char *error_code = NULL;
  JsonObject *object;
  JsonObject *icon_object;
  JsonObject *timings;
  JsonArray *array;
  JsonNode *root;

  g_return_val_if_fail (json != NULL, NULL);

  if (!json_parser_load_from_data (parser, json, -1, error))
    return NULL;

  root = json_parser_get_root (parser);
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "A page is a JSON object");
      return NULL;
    }
  object = json_node_get_object (root);

  url = dup_member (object, "url");
  if (url == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "The page has no URL");
      return NULL;
    }

  page = nearby_page_new (url);
  page->final_url = dup_member (object, "final_url");
  page->status = (guint) CLAMP (int_member (object, "status"), 0, 999);

  array = array_member (object, "redirects");
  for (guint i = 0; array != NULL && i < json_array_get_length (array); i++)
    {
      JsonNode *node = json_array_get_element (array, i);
      g_autofree char *hop_url = NULL;

      if (!JSON_NODE_HOLDS_OBJECT (node))
        continue;
      hop_url = dup_member (json_node_get_object (node), "url");
      if (hop_url != NULL)
        nearby_page_add_redirect (page, hop_url,
                                  (guint) CLAMP (int_member (json_node_get_object (node), "status"), 0, 999));
    }

  page->title = dup_member (object, "title");
  page->description = dup_member (object, "description");
  page->canonical_url = dup_member (object, "canonical_url");
  page->manifest_url = dup_member (object, "manifest_url");
  page->manifest_name = dup_member (object, "manifest_name");
  page->icon_url = dup_member (object, "icon_url");

  icon_object = object_member (object, "icon");
  if (icon_object != NULL)
    {
      page->icon_type = dup_member (icon_object, "type");
      page->icon_width = (int) CLAMP (int_member (icon_object, "width"), 0, G_MAXINT);
      page->icon_height = (int) CLAMP (int_member (icon_object, "height"), 0, G_MAXINT);
    }
  if (icon != NULL)
    page->icon = g_bytes_ref (icon);

  array = array_member (object, "actions");
  for (guint i = 0; array != NULL && i < json_array_get_length (array); i++)
    {
      JsonNode *node = json_array_get_element (array, i);
      g_autofree char *title = NULL;
      g_autofree char *action_url = NULL;

      if (!JSON_NODE_HOLDS_OBJECT (node))
        continue;
      title = dup_member (json_node_get_object (node), "title");
      action_url = dup_member (json_node_get_object (node), "url");
      if (title != NULL && action_url != NULL)
        g_ptr_array_add (page->actions, nearby_page_action_new (title, action_url));
    }

  timings = object_member (object, "timings");
  if (timings != NULL)
    {
      page->headers_us = int64_from_double (double_member (timings, "headers_ms") * 1000.0);
      page->total_us = int64_from_double (double_member (timings, "total_ms") * 1000.0);
      page->headers_us = MAX (page->headers_us, 0);
      page->total_us = MAX (page->total_us, 0);
    }
  page->fetched_at_us = int_member (object, "fetched_at_us");
  page->expires_at_us = int_member (object, "expires_at_us");
  {
    JsonNode *node = json_object_get_member (object, "from_cache");

    page->from_cache = node != NULL && JSON_NODE_HOLDS_VALUE (node) &&
                       json_node_get_value_type (node) == G_TYPE_BOOLEAN &&
                       json_node_get_boolean (node);
  }

  error_message = dup_member (object, "error");
  error_code = dup_member (object, "error_code");
  if (error_message != NULL || error_code != NULL)
    {
      NearbyResolveError code = NEARBY_RESOLVE_ERROR_NETWORK;

      nearby_resolve_error_from_string (error_code, &code);
      page->error = g_error_new_literal (NEARBY_RESOLVE_ERROR, code,
                                         error_message ? error_message : "");
    }

  return g_steal_pointer (&page);
}
