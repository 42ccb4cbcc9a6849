/* nearby-object-row.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "nearby-object-row"

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include <adwaita.h>

#include "nearby-object-row.h"
#include "nearby-object-row-parts.h"
#include "nearby-section-header.h"
#include "nearby-url-policy.h"

struct _NearbyObjectRow
{
  GtkWidget     parent_instance;

  NearbyObject *object;

  /* What it shows, only while it is mapped with an object: GtkListView 4.8 keeps 200 rows, most
   * of them off screen (nearby-object-row-parts.c). */
  NearbyObjectRowParts *parts;
  /* Its height with its parts, kept for when it has none, so that the list's layout and
   * scrollbar do not change as rows come on screen and go; 0: not measured yet. */
  int           height_for_width[2];

  /* The heading the row is shown under (NearbySection), or -1 for none. */
  int           section;
};

/* The last height measured of any row, for a row not yet measured with its parts; at first
 * about that of a row with a title and a host (a 40 px icon between margins of 9 px). Were it 0,
 * every row would fit on screen until measured, and all 200 would make their parts at once. */
static int typical_height = 60;

G_DEFINE_FINAL_TYPE (NearbyObjectRow, nearby_object_row, GTK_TYPE_WIDGET)

static NearbySource *nearby_object_row_dup_source (NearbyObjectRow *self);

enum {
  PROP_0,
  PROP_OBJECT,
  PROP_SECTION,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

const char *
nearby_object_row_bucket_label (NearbyBucket bucket)
{
  switch (bucket)
    {
    /* "Nearby" is also the app's name, which translations keep; the distance word they
     * translate. A context keeps the two apart, and the other words with it. */
    case NEARBY_BUCKET_IMMEDIATE:
      return C_("distance", "Right here");
    case NEARBY_BUCKET_NEAR:
      return C_("distance", "Nearby");
    case NEARBY_BUCKET_FAR:
      return C_("distance", "Farther away");
    case NEARBY_BUCKET_UNKNOWN:
    default:
      return C_("distance", "Distance unknown");
    }
}

/* Beacons without a web address (developer mode) are named by what they are and who they
 * are, from the object's key ("eddystone-uid:NS/INSTANCE", "ibeacon:UUID/MAJOR/MINOR",
 * "address:ADDRESS"). @title and @identity are left alone for any other key. */
static void
describe_identity (const char  *key,
                   const char **title,
                   char       **identity)
{
  g_auto(GStrv) parts = NULL;

  if (g_str_has_prefix (key, "eddystone-uid:"))
    {
      parts = g_strsplit (key + strlen ("eddystone-uid:"), "/", 2);
      *title = _("Eddystone-UID beacon");
      if (identity != NULL)
        *identity = g_strdup_printf (_("Namespace %s, instance %s"), parts[0],
                                     parts[1] != NULL ? parts[1] : "");
    }
  else if (g_str_has_prefix (key, "ibeacon:"))
    {
      parts = g_strsplit (key + strlen ("ibeacon:"), "/", 3);
      *title = _("iBeacon");
      if (identity != NULL)
        *identity = g_strdup_printf (_("UUID %s, major %s, minor %s"), parts[0],
                                     parts[1] != NULL ? parts[1] : "",
                                     parts[1] != NULL && parts[2] != NULL ? parts[2] : "");
    }
  else if (g_str_has_prefix (key, "address:"))
    {
      *title = _("Beacon without an identity");
      if (identity != NULL)
        *identity = g_strdup_printf (_("Telemetry or ephemeral ID only, from %s"),
                                     key + strlen ("address:"));
    }
}

char *
nearby_object_row_name (NearbyObject  *object,
                        const char    *host,
                        char         **identity)
{
  const char *url = nearby_object_get_url (object);
  /* Not the resolver's stand-in for an untitled page ("[::1]/1140"). */
  const char *title = nearby_object_row_page_title (object);

  if (title == NULL && url == NULL)
    describe_identity (nearby_object_get_key (object), &title, identity);
  if (title != NULL && *title != '\0')
    return g_strdup (title);

  /* An untitled page by the host its row shows as the title (without an IPv6 address's
   * brackets, the demo's made-up host) and the path shown beneath: "::1/1140", so that a toast
   * or a search names it as the row does. */
  if (host != NULL && *host != '\0' && url != NULL)
    {
      g_autofree char *path = nearby_url_display_path (url);

      return g_strconcat (host, path, NULL);
    }
  if (host != NULL && url != NULL)
    return nearby_url_display_host_path (url);

  return g_strdup (url != NULL ? url : nearby_object_get_key (object));
}

const char *
nearby_object_row_page_title (NearbyObject *object)
{
  const char *title = nearby_object_get_title (object);
  const char *url = nearby_object_get_url (object);
  g_autofree char *stand_in = NULL;

  if (title == NULL || *title == '\0')
    return NULL;
  if (url != NULL)
    stand_in = nearby_url_display_host_path (url);
  if (stand_in != NULL && g_str_equal (title, stand_in))
    return NULL;

  return title;
}

/* The one badge a row shows: what most deserves the user's attention before opening it. */
static const char *
badge_for (NearbyObject          *object,
           const char            *host,
           gboolean               made_up,
           NearbyUrlDisplayFlags  flags)
{
  const char *url = nearby_object_get_url (object);
  NearbyPage *page = nearby_object_get_page (object);

  if (!nearby_object_get_browsable (object))
    return url != NULL ? _("Cannot be opened") : _("No web page");
  if (flags & NEARBY_URL_DISPLAY_HAS_USERINFO)
    return _("Misleading address");
  /* The demo's objects stand for a street: where their pages really come from (this computer,
   * over plain HTTP) is the demo's own business, and every row saying so hid what the badge
   * means on real objects. */
  if (made_up)
    return NULL;
  if (host != NULL)
    {
      switch (nearby_url_policy_classify_host (host))
        {
        case NEARBY_ADDRESS_LOOPBACK:
          return _("This computer");
        case NEARBY_ADDRESS_LOCAL:
          return _("Local network");
        case NEARBY_ADDRESS_PUBLIC:
        default:
          break;
        }
    }
  if (g_str_has_prefix (url, "http:"))
    return _("Not secure");
  if (page == NULL || page->error != NULL)
    return _("Unverified");

  return NULL;
}

static void
nearby_object_row_update_icon (NearbyObjectRow *self)
{
  /* An untitled page's stand-in title (host and path) gets no initials, as before a look-up. */
  nearby_object_row_parts_show_icon (self->parts, nearby_object_get_icon_data (self->object),
                                     nearby_object_row_page_title (self->object));
}

/* Every entry of the row's menu is an app action on one string: the object's key, a host or a
 * URL. */
static void
append_menu_item (GMenu      *section,
                  const char *label,
                  const char *action,
                  const char *target)
{
  g_autoptr(GMenuItem) item = g_menu_item_new (label, NULL);

  g_menu_item_set_action_and_target (item, action, "s", target);
  g_menu_append_item (section, item);
}

/* "Hide Site “example.com” (5 Objects)": which site, and how much of the list goes with it. */
static char *
hide_site_label (const char *site,
                 guint       n_objects)
{
  g_auto(GStrv) parts = g_strsplit (site, "_", -1);
  g_autofree char *escaped = g_strjoinv ("__", parts);

  /* A favourite stays when its site is hidden: with nothing else around, no count. */
  if (n_objects == 0)
    return g_strdup_printf (_("_Hide Site “%s”"), escaped);

  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "_Hide Site “%s” (%u Object)",
                                       "_Hide Site “%s” (%u Objects)", n_objects),
                          escaped, n_objects);
}

/* The objects of @site in the list the row is in that hiding it would take away (favourites
 * stay). Counted when the menu opens, not on every tick of every row. */
static guint
count_site_objects (NearbyObjectRow *self,
                    NearbySource    *source,
                    const char      *site)
{
  GtkWidget *view = gtk_widget_get_ancestor (GTK_WIDGET (self), GTK_TYPE_LIST_VIEW);
  GListModel *model = view != NULL ? G_LIST_MODEL (gtk_list_view_get_model (GTK_LIST_VIEW (view)))
                                   : NULL;
  guint n = 0;

  /* Hiding takes the site's objects that a search leaves out too. */
  if (GTK_IS_NO_SELECTION (model))
    model = gtk_no_selection_get_model (GTK_NO_SELECTION (model));
  if (GTK_IS_FILTER_LIST_MODEL (model))
    model = gtk_filter_list_model_get_model (GTK_FILTER_LIST_MODEL (model));

  if (model == NULL || site == NULL)
    return 0;

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(GObject) item = g_list_model_get_item (model, i);
      g_autofree char *item_site = NULL;

      if (!NEARBY_IS_OBJECT (item) || nearby_object_get_favourite (NEARBY_OBJECT (item)))
        continue;
      item_site = nearby_object_row_dup_site (NEARBY_OBJECT (item), source);
      if (g_strcmp0 (item_site, site) == 0)
        n++;
    }

  return n;
}

/* The menu is built as it opens, from the object's state at that moment. Building it for every
 * bind and change instead gave each row a new GtkPopoverMenu each time, and with objects coming
 * and going GTK kept the memory of the popovers it replaced. */
static void
nearby_object_row_build_menu (GtkMenuButton *menu_button,
                              gpointer       user_data)
{
  NearbyObjectRow *self = user_data;
  g_autoptr(GMenu) menu = g_menu_new ();
  g_autoptr(GMenu) open_section = g_menu_new ();
  g_autoptr(GMenu) object_section = g_menu_new ();
  g_autoptr(NearbySource) source = NULL;
  g_autofree char *site = NULL;
  const char *key;

  if (self->object == NULL)
    return;

  key = nearby_object_get_key (self->object);
  source = nearby_object_row_dup_source (self);
  site = nearby_object_row_dup_site (self->object, source);

  if (nearby_object_get_browsable (self->object))
    {
      append_menu_item (open_section, _("_Open"), "app.open-object", key);

      /* Not looked up yet (or the policy held it back): the person can ask for it. */
      if (nearby_object_get_page (self->object) == NULL ||
          nearby_object_get_page (self->object)->error != NULL)
        append_menu_item (open_section, _("_Look Up Page"), "app.look-up", key);

      append_menu_item (open_section, _("_Copy Link"), "app.copy-link", key);

      append_menu_item (object_section,
                        nearby_object_get_favourite (self->object)
                        ? _("Remove From _Favourites") : _("Add to _Favourites"),
                        "app.toggle-favourite", key);
    }

  if (nearby_object_get_page (self->object) != NULL &&
      nearby_object_get_page (self->object)->actions != NULL)
    {
      GPtrArray *actions = nearby_object_get_page (self->object)->actions;

      /* What the object's web app offers (its manifest's shortcuts), straight from the list. */
      for (guint i = 0; i < actions->len && i < 5; i++)
        {
          NearbyPageAction *page_action = g_ptr_array_index (actions, i);

          append_menu_item (open_section, page_action->title, "app.open-url", page_action->url);
        }
    }

  if (site != NULL)
    {
      g_autofree char *label = hide_site_label (site, count_site_objects (self, source, site));

      append_menu_item (object_section, label, "app.hide-site", site);
    }

  append_menu_item (object_section, _("_Details"), "app.show-details", key);

  g_menu_append_section (menu, NULL, G_MENU_MODEL (open_section));
  g_menu_append_section (menu, NULL, G_MENU_MODEL (object_section));
  gtk_menu_button_set_menu_model (menu_button, G_MENU_MODEL (menu));
}

char *
nearby_object_row_dup_host (NearbyObject          *object,
                            NearbySource          *source,
                            gboolean              *made_up,
                            NearbyUrlDisplayFlags *flags)
{
  const char *url = nearby_object_get_url (object);
  char *host = NULL;

  if (flags != NULL)
    *flags = NEARBY_URL_DISPLAY_NONE;
  if (url == NULL)
    {
      if (made_up != NULL)
        *made_up = FALSE;
      return NULL;
    }

  if (source != NULL)
    host = nearby_source_dup_display_host (source, url);
  if (made_up != NULL)
    *made_up = host != NULL;
  if (host == NULL)
    host = nearby_url_display_host (url, flags);

  return host;
}

char *
nearby_object_row_dup_site (NearbyObject *object,
                            NearbySource *source)
{
  const char *url = nearby_object_get_url (object);
  char *site = NULL;

  if (url == NULL)
    return NULL;
  if (source != NULL)
    site = nearby_source_dup_display_host (source, url);
  if (site == NULL)
    site = nearby_url_site (url);

  return site;
}

/* The source of the window the row is in, through its "source" property: the window includes
 * the row, so the row does not include the window. */
static NearbySource *
nearby_object_row_dup_source (NearbyObjectRow *self)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  NearbySource *source = NULL;

  if (root == NULL || g_object_class_find_property (G_OBJECT_GET_CLASS (root), "source") == NULL)
    return NULL;

  g_object_get (root, "source", &source, NULL);

  return source;
}

/* Sentences for a screen reader: each piece ends with a full stop unless it has its own. */
static void
append_sentence (GString    *out,
                 const char *piece)
{
  gsize len;

  if (piece == NULL || *piece == '\0')
    return;

  if (out->len > 0)
    g_string_append_c (out, ' ');
  g_string_append (out, piece);
  len = strlen (piece);
  if (strchr (".!?", piece[len - 1]) == NULL && !g_str_has_suffix (piece, "…"))
    g_string_append_c (out, '.');
}

/* What a screen reader says for the row, on what it focuses: the list item around the row
 * (GTK's list item widget), where the inner labels were never read. The name is the row's first
 * line and its host; the description what a sighted person reads on the rest of it. */
static void
nearby_object_row_update_accessible (NearbyObjectRow *self,
                                     const char      *title,
                                     const char      *where,
                                     const char      *description,
                                     const char      *badge)
{
  GtkWidget *item = gtk_widget_get_parent (GTK_WIDGET (self));
  const char *distance = nearby_object_row_bucket_label (nearby_object_get_bucket (self->object));
  g_autofree char *label = NULL;
  g_autofree char *menu_label = NULL;
  g_autoptr(GString) more = g_string_new (NULL);

  /* "Bluebird Café, Nearby, bluebird-cafe.example" */
  if (where != NULL && *where != '\0')
    label = g_strdup_printf (C_("accessible row", "%s, %s, %s"), title, distance, where);
  else
    label = g_strdup_printf (C_("accessible row", "%s, %s"), title, distance);

  append_sentence (more, description);
  append_sentence (more, badge);
  /* What the faded row says to those who see it. */
  if (nearby_object_get_stale (self->object))
    append_sentence (more, _("Not heard for a while"));
  if (nearby_object_get_favourite (self->object))
    append_sentence (more, _("Favourite"));
  if (nearby_object_get_browsable (self->object))
    append_sentence (more, _("Activate to open the page in the web browser"));

  if (item != NULL)
    gtk_accessible_update_property (GTK_ACCESSIBLE (item),
                                    GTK_ACCESSIBLE_PROPERTY_LABEL, label,
                                    GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, more->str,
                                    -1);

  if (self->parts == NULL)
    return;
  menu_label = g_strdup_printf (_("More about %s"), title);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->parts->menu_button),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, menu_label,
                                  -1);
}

static void
nearby_object_row_update (NearbyObjectRow *self)
{
  const char *url;
  const char *page_title;
  g_autofree char *title = NULL;
  const char *description;
  const char *badge = NULL;
  NearbyUrlDisplayFlags flags = NEARBY_URL_DISPLAY_NONE;
  g_autofree char *host = NULL;
  g_autofree char *path = NULL;
  g_autofree char *identity = NULL;
  g_autofree char *distance_tooltip = NULL;
  g_autoptr(NearbySource) source = NULL;
  const char *shown_host;
  gboolean made_up = FALSE;
  NearbyObjectRowParts *parts;
  double distance;
  gboolean distance_shown;

  if (self->object == NULL)
    return;

  url = nearby_object_get_url (self->object);
  page_title = nearby_object_row_page_title (self->object);
  description = nearby_object_get_description (self->object);
  source = nearby_object_row_dup_source (self);
  host = nearby_object_row_dup_host (self->object, source, &made_up, &flags);

  if (page_title == NULL && host != NULL && *host != '\0')
    {
      /* Before its look-up, or when its page has no title, an object is its host and its path:
       * "127.0.0.1" and "/objects/17", not the host twice over, which made every object of one
       * host look the same; "::1" and "/1140" rather than "[::1]/1140" under "::1". */
      title = g_strdup (host);
      path = nearby_url_display_path (url);
      if (description == NULL)
        description = path;
      shown_host = NULL;
    }
  else
    {
      title = nearby_object_row_name (self->object, host, &identity);
      if (identity != NULL && description == NULL)
        description = identity;
      shown_host = host != NULL && *host != '\0' ? host : url;
    }
  badge = badge_for (self->object, host, made_up, flags);

  if (nearby_object_get_stale (self->object))
    gtk_widget_add_css_class (GTK_WIDGET (self), "nearby-stale");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (self), "nearby-stale");

  if ((parts = self->parts) != NULL)
    {
      gtk_label_set_label (parts->title_label, title);

      gtk_label_set_label (parts->description_label, description);
      gtk_widget_set_visible (GTK_WIDGET (parts->description_label),
                              description != NULL && *description != '\0');

      gtk_label_set_label (parts->host_label, shown_host);
      gtk_widget_set_visible (GTK_WIDGET (parts->host_label), shown_host != NULL);

      gtk_label_set_label (parts->badge_label, badge);
      gtk_widget_set_visible (GTK_WIDGET (parts->badge_label), badge != NULL);

      gtk_widget_set_visible (parts->favourite_image, nearby_object_get_favourite (self->object));

      gtk_label_set_label (parts->distance_label,
                           nearby_object_row_bucket_label (nearby_object_get_bucket (self->object)));
      /* Under "Nearby" a row saying "Nearby" says it twice. Under another heading (the list
       * paused, or the row about to move) or among favourites, the word is news. Screen readers
       * hear it in the row's name either way: they read the heading only when they move by
       * headings. */
      gtk_widget_set_visible (GTK_WIDGET (parts->distance_label),
                              self->section < 0 || self->section == NEARBY_SECTION_FAVOURITES
                              || self->section != (int) nearby_section_for_bucket (
                                   nearby_object_get_bucket (self->object)));
      /* The metres are for whoever points at the distance; with the word left to the heading,
       * at the row's text. */
      distance = nearby_object_get_distance (self->object);
      if (distance >= 0)
        distance_tooltip = g_strdup_printf (_("About %.1f m away"), distance);
      distance_shown = gtk_widget_get_visible (GTK_WIDGET (parts->distance_label));
      gtk_widget_set_tooltip_text (GTK_WIDGET (parts->distance_label),
                                   distance_shown ? distance_tooltip : NULL);
      gtk_widget_set_tooltip_text (parts->text_box, distance_shown ? NULL : distance_tooltip);

      nearby_object_row_update_icon (self);
    }

  nearby_object_row_update_accessible (self, title, shown_host != NULL ? shown_host : path,
                                       description, badge);
}

/* What the row does not show. A still beacon's every advert moves its last-seen time and its raw
 * signal: rebuilding the row for those would redo its labels, menu and accessible name at every
 * tick while nothing on screen changes. */
static const char * const unshown_properties[] = {
  "rssi", "tx-power", "first-seen", "last-seen", "visit-count", "last-visit", "history-score",
};

static void
on_object_notify (NearbyObjectRow *self,
                  GParamSpec      *pspec)
{
  for (guint i = 0; i < G_N_ELEMENTS (unshown_properties); i++)
    if (g_str_equal (pspec->name, unshown_properties[i]))
      return;

  nearby_object_row_update (self);
}

static void
make_parts (NearbyObjectRow *self)
{
  if (self->parts != NULL)
    return;

  self->parts = nearby_object_row_parts_new ();
  gtk_menu_button_set_create_popup_func (self->parts->menu_button, nearby_object_row_build_menu,
                                         self, NULL);
  gtk_widget_set_parent (GTK_WIDGET (self->parts), GTK_WIDGET (self));
}

static void
drop_parts (NearbyObjectRow *self)
{
  if (self->parts == NULL)
    return;

  gtk_widget_unparent (GTK_WIDGET (self->parts));
  self->parts = NULL;
}

void
nearby_object_row_popup_menu (NearbyObjectRow *self)
{
  g_return_if_fail (NEARBY_IS_OBJECT_ROW (self));

  if (self->parts != NULL)
    gtk_menu_button_popup (self->parts->menu_button);
}

NearbyObject *
nearby_object_row_get_object (NearbyObjectRow *self)
{
  g_return_val_if_fail (NEARBY_IS_OBJECT_ROW (self), NULL);

  return self->object;
}

void
nearby_object_row_set_object (NearbyObjectRow *self,
                              NearbyObject    *object)
{
  g_return_if_fail (NEARBY_IS_OBJECT_ROW (self));
  g_return_if_fail (object == NULL || NEARBY_IS_OBJECT (object));

  if (self->object == object)
    return;

  if (self->object != NULL)
    g_signal_handlers_disconnect_by_func (self->object, on_object_notify, self);
  g_set_object (&self->object, object);
  if (self->parts != NULL)
    g_clear_pointer (&self->parts->shown_icon, g_bytes_unref);
  /* Another object's height is not this one's. Unbound and rebound at once as the list moves
   * (the row stays on screen), it keeps its parts; off screen it has none. */
  self->height_for_width[0] = self->height_for_width[1] = 0;
  if (!gtk_widget_get_mapped (GTK_WIDGET (self)))
    drop_parts (self);

  /* One handler for every property: the list ticks at most a few times a second. */
  if (self->object != NULL)
    {
      g_signal_connect_object (self->object, "notify",
                               G_CALLBACK (on_object_notify), self, G_CONNECT_SWAPPED);
      nearby_object_row_update (self);
    }

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_OBJECT]);
}

/* The row learns the source (for the demo's made-up hosts) and the list item it speaks through
 * once it is in the window. */
static void
nearby_object_row_root (GtkWidget *widget)
{
  GTK_WIDGET_CLASS (nearby_object_row_parent_class)->root (widget);

  nearby_object_row_update (NEARBY_OBJECT_ROW (widget));
}

static void
nearby_object_row_unmap (GtkWidget *widget)
{
  NearbyObjectRow *self = NEARBY_OBJECT_ROW (widget);

  GTK_WIDGET_CLASS (nearby_object_row_parent_class)->unmap (widget);

  /* Scrolled away with the keyboard focus on its button (or its menu open): kept, so that the
   * focus is not lost. */
  if (gtk_widget_get_focus_child (widget) == NULL)
    drop_parts (self);
}

static void
nearby_object_row_measure (GtkWidget      *widget,
                           GtkOrientation  orientation,
                           int             for_size,
                           int            *minimum,
                           int            *natural,
                           int            *minimum_baseline,
                           int            *natural_baseline)
{
  NearbyObjectRow *self = NEARBY_OBJECT_ROW (widget);

  if (self->parts != NULL)
    {
      gtk_widget_measure (GTK_WIDGET (self->parts), orientation, for_size, minimum, natural,
                          minimum_baseline, natural_baseline);
      /* The height the list lays the row out with, at its width. */
      if (orientation == GTK_ORIENTATION_VERTICAL && for_size >= 0)
        {
          self->height_for_width[0] = *minimum;
          self->height_for_width[1] = *natural;
          typical_height = *natural;
        }
      return;
    }

  /* Without its parts the row is off screen: as tall as it was, or as rows are, and as narrow
   * as the list lets it be. */
  *minimum_baseline = *natural_baseline = -1;
  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      *minimum = *natural = 0;
    }
  else if (self->height_for_width[1] > 0)
    {
      *minimum = self->height_for_width[0];
      *natural = self->height_for_width[1];
    }
  else
    {
      *minimum = *natural = typical_height;
    }
}

/* The labels wrap: a row is as tall as its width lets it be. */
static GtkSizeRequestMode
nearby_object_row_get_request_mode (GtkWidget *widget)
{
  return GTK_SIZE_REQUEST_HEIGHT_FOR_WIDTH;
}

static void
nearby_object_row_size_allocate (GtkWidget *widget,
                                 int        width,
                                 int        height,
                                 int        baseline)
{
  NearbyObjectRow *self = NEARBY_OBJECT_ROW (widget);
  int minimum, natural;

  /* Allocated while bound: the row is on screen (GtkListView 4.8 maps every row it adds, and
   * allocates only those on screen), and gets what it shows. Its height takes the place of the
   * estimate at the next layout. */
  if (self->parts == NULL)
    {
      if (self->object == NULL)
        return;
      make_parts (self);
      nearby_object_row_update (self);
    }

  gtk_widget_measure (GTK_WIDGET (self->parts), GTK_ORIENTATION_VERTICAL, width,
                      &minimum, &natural, NULL, NULL);
  gtk_widget_allocate (GTK_WIDGET (self->parts), width, MAX (height, minimum), baseline, NULL);
}

static void
nearby_object_row_dispose (GObject *object)
{
  NearbyObjectRow *self = NEARBY_OBJECT_ROW (object);

  nearby_object_row_set_object (self, NULL);
  drop_parts (self);

  G_OBJECT_CLASS (nearby_object_row_parent_class)->dispose (object);
}

static void
nearby_object_row_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  NearbyObjectRow *self = NEARBY_OBJECT_ROW (object);

  switch (prop_id)
    {
    case PROP_OBJECT:
      g_value_set_object (value, self->object);
      break;

    case PROP_SECTION:
      g_value_set_int (value, self->section);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
nearby_object_row_set_property (GObject      *object,
                                guint         prop_id,
                                const GValue *value,
                                GParamSpec   *pspec)
{
  NearbyObjectRow *self = NEARBY_OBJECT_ROW (object);

  switch (prop_id)
    {
    case PROP_OBJECT:
      nearby_object_row_set_object (self, g_value_get_object (value));
      break;

    case PROP_SECTION:
      if (self->section != g_value_get_int (value))
        {
          self->section = g_value_get_int (value);
          nearby_object_row_update (self);
          g_object_notify_by_pspec (object, pspec);
        }
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
nearby_object_row_class_init (NearbyObjectRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = nearby_object_row_dispose;
  object_class->get_property = nearby_object_row_get_property;
  object_class->set_property = nearby_object_row_set_property;
  widget_class->root = nearby_object_row_root;
  widget_class->unmap = nearby_object_row_unmap;
  widget_class->measure = nearby_object_row_measure;
  widget_class->get_request_mode = nearby_object_row_get_request_mode;
  widget_class->size_allocate = nearby_object_row_size_allocate;

  properties[PROP_OBJECT] =
    g_param_spec_object ("object", NULL, NULL,
                         NEARBY_TYPE_OBJECT,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /* The heading the row is shown under (a NearbySection), -1 for none: the row does not repeat
   * its words. */
  properties[PROP_SECTION] =
    g_param_spec_int ("section", NULL, NULL, -1, NEARBY_SECTION_UNKNOWN, -1,
                      (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_css_name (widget_class, "nearbyobjectrow");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
nearby_object_row_init (NearbyObjectRow *self)
{
  self->section = -1;
}
