/* nearby-manifest.c
 *
 * A web app manifest comes from the same untrusted server as its page: it is read only when
 * small, shallow and UTF-8, and only its names, icons and shortcuts are kept, cleaned and
 * bounded like the page's own text.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "nearby-manifest"

#include "config.h"

#include <glib/gi18n.h>
#include <json-glib/json-glib.h>

#include "nearby-manifest.h"
#include "nearby-text.h"
#include "nearby-url-policy.h"

#define MAX_MANIFEST_DEPTH 32

NearbyPageAction *
nearby_page_action_new (const char *title,
                        const char *url)
{
  NearbyPageAction *action = g_new0 (NearbyPageAction, 1);

  action->title = g_strdup (title);
  action->url = g_strdup (url);

  return action;
}

NearbyPageAction *
nearby_page_action_copy (NearbyPageAction *action)
{
  return nearby_page_action_new (action->title, action->url);
}

void
nearby_page_action_free (NearbyPageAction *action)
{
  if (action == NULL)
    return;

  g_free (action->title);
  g_free (action->url);
  g_free (action);
}

static gboolean
json_depth_ok (const guint8 *data,
               gsize         len)
{
  guint depth = 0;
  gboolean in_string = FALSE;

  /* json-glib recurses per nesting level: refuse deep documents before it sees them. */
  for (gsize i = 0; i < len; i++)
    {
      if (in_string)
        {
          if (data[i] == '\\')
            i++;
          else if (data[i] == '"')
            in_string = FALSE;
          continue;
        }
      if (data[i] == '"')
        in_string = TRUE;
      else if (data[i] == '[' || data[i] == '{')
        {
          if (++depth > MAX_MANIFEST_DEPTH)
            return FALSE;
        }
      else if ((data[i] == ']' || data[i] == '}') && depth > 0)
        depth--;
    }

  return TRUE;
}

static char *
member_text (JsonObject *object,
             const char *name,
             guint       max_chars)
{
  JsonNode *node = json_object_get_member (object, name);

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) ||
      json_node_get_value_type (node) != G_TYPE_STRING)
    return NULL;

  return nearby_text_clean_or_null (json_node_get_string (node), -1, max_chars);
}

static JsonArray *
member_array (JsonObject *object,
              const char *name)
{
  JsonNode *node = json_object_get_member (object, name);

  if (node == NULL || !JSON_NODE_HOLDS_ARRAY (node))
    return NULL;

  return json_node_get_array (node);
}

/* Reads one entry of a list ("icons", "shortcuts"): what to keep of it, or NULL. */
typedef gpointer (*EntryReader) (JsonObject *entry,
                                 const char *manifest_url);

static gpointer
read_icon (JsonObject *icon,
           const char *manifest_url)
{
  g_autofree char *src = member_text (icon, "src", NEARBY_URL_MAX_LEN);
  g_autofree char *url = nearby_url_resolve (manifest_url, src);
  g_autofree char *type = NULL;
  g_autofree char *sizes = NULL;

  if (url == NULL)
    return NULL;

  type = member_text (icon, "type", 64);
  sizes = member_text (icon, "sizes", 128);

  return nearby_page_icon_new (url, "manifest", type, nearby_page_icon_parse_sizes (sizes));
}

static gpointer
read_shortcut (JsonObject *shortcut,
               const char *manifest_url)
{
  g_autofree char *title = member_text (shortcut, "name", 80);
  g_autofree char *href = NULL;
  g_autofree char *resolved = NULL;
  g_autofree char *url = NULL;

  if (title == NULL)
    title = member_text (shortcut, "short_name", 80);
  href = member_text (shortcut, "url", NEARBY_URL_MAX_LEN);
  resolved = nearby_url_resolve (manifest_url, href);
  /* Its address is never shown, only the label the page chose: no room for a decoy host. */
  url = nearby_url_without_userinfo (resolved);
  if (title == NULL || url == NULL)
    return NULL;

  return nearby_page_action_new (title, url);
}

/* Keeps at most @max entries of the list @name; entries that are not objects, or that
 * @read_entry refuses, are skipped and do not count. */
static void
read_list (JsonObject  *object,
           const char  *name,
           const char  *manifest_url,
           EntryReader  read_entry,
           guint        max,
           GPtrArray   *entries)
{
  JsonArray *array = member_array (object, name);

  for (guint i = 0; array != NULL && i < json_array_get_length (array); i++)
    {
      JsonNode *node = json_array_get_element (array, i);
      gpointer entry;

      if (entries->len >= max)
        break;
      if (!JSON_NODE_HOLDS_OBJECT (node))
        continue;
      entry = read_entry (json_node_get_object (node), manifest_url);
      if (entry != NULL)
        g_ptr_array_add (entries, entry);
    }
}

NearbyManifest *
nearby_manifest_parse (const char    *manifest_url,
                       const guint8  *data,
                       gsize          len,
                       GError       **error)
{
  g_autoptr(JsonParser) parser = NULL;
  g_autoptr(NearbyManifest) manifest = NULL;
  JsonNode *root;
  JsonObject *object;

  if (len >= 3 && data[0] == 0xef && data[1] == 0xbb && data[2] == 0xbf)
    {
      data += 3;
      len -= 3;
    }

  if (!g_utf8_validate_len ((const char *) data, len, NULL))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                           _("The manifest is not UTF-8 text"));
      return NULL;
    }
  if (!json_depth_ok (data, len))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                           _("The manifest is nested too deeply"));
      return NULL;
    }

  parser = json_parser_new_immutable ();
  if (!json_parser_load_from_data (parser, (const char *) data, (gssize) len, error))
    return NULL;

  root = json_parser_get_root (parser);
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                           _("The manifest is not a JSON object"));
      return NULL;
    }
  object = json_node_get_object (root);

  manifest = g_new0 (NearbyManifest, 1);
  manifest->icons = g_ptr_array_new_with_free_func ((GDestroyNotify) nearby_page_icon_free);
  manifest->actions = g_ptr_array_new_with_free_func ((GDestroyNotify) nearby_page_action_free);
  manifest->name = member_text (object, "name", NEARBY_PAGE_META_MAX_TITLE);
  manifest->short_name = member_text (object, "short_name", NEARBY_PAGE_META_MAX_TITLE);
  manifest->description = member_text (object, "description", NEARBY_PAGE_META_MAX_DESC);

  read_list (object, "icons", manifest_url, read_icon, NEARBY_PAGE_META_MAX_ICONS,
             manifest->icons);
  read_list (object, "shortcuts", manifest_url, read_shortcut, NEARBY_MANIFEST_MAX_ACTIONS,
             manifest->actions);

  return g_steal_pointer (&manifest);
}

void
nearby_manifest_free (NearbyManifest *manifest)
{
  if (manifest == NULL)
    return;

  g_free (manifest->name);
  g_free (manifest->short_name);
  g_free (manifest->description);
  g_clear_pointer (&manifest->icons, g_ptr_array_unref);
  g_clear_pointer (&manifest->actions, g_ptr_array_unref);
  g_free (manifest);
}
