/* nearby-object-row-parts.c: the widgets of an object's row, while the row is on screen
 *
 * GtkListView 4.8 keeps a row for each of the first 200 items whatever is on screen
 * (GTK_LIST_VIEW_MAX_LIST_ITEMS): a row's icon, labels and menu button were paid 200 times.
 * A row (nearby-object-row.c) makes these parts when it is mapped with an object, and drops
 * them when it is unmapped.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "nearby-object-row"

#include "config.h"

#include "nearby-object-row-parts.h"

G_DEFINE_FINAL_TYPE (NearbyObjectRowParts, nearby_object_row_parts, GTK_TYPE_WIDGET)

/* One texture per icon for the whole app: rows of objects whose pages share an icon show the
 * same one, and a row bound again to an object shows it without decoding it again. Weak: a
 * texture lives as long as a row shows it. */
static GHashTable *textures;    /* GBytes (the icon's PNG) -> GdkTexture, weak */

static void
texture_gone (gpointer  data,
              GObject  *texture)
{
  GBytes *icon = data;

  g_hash_table_remove (textures, icon);
  g_bytes_unref (icon);
}

static GdkTexture *
texture_for_icon (GBytes *icon)
{
  GdkTexture *texture;

  if (textures == NULL)
    textures = g_hash_table_new (g_bytes_hash, g_bytes_equal);

  texture = g_hash_table_lookup (textures, icon);
  if (texture != NULL)
    return g_object_ref (texture);

  /* The resolver re-encodes every icon it accepts as a small PNG of the size shown: these are
   * our own bytes, decoded once. */
  texture = gdk_texture_new_from_bytes (icon, NULL);
  if (texture == NULL)
    return NULL;

  /* The table's key is released with the texture. */
  icon = g_bytes_ref (icon);
  g_hash_table_insert (textures, icon, texture);
  g_object_weak_ref (G_OBJECT (texture), texture_gone, icon);

  return texture;
}

/* Initials, as AdwAvatar draws them, only for a title the page gave: before its look-up, the
 * first character of a host or an address ("1", "[") was the same on every row. */
static void
show_initials (NearbyObjectRowParts *parts,
               const char           *page_title)
{
  if (parts->avatar == NULL)
    {
      parts->avatar = ADW_AVATAR (adw_avatar_new (40, NULL, TRUE));
      gtk_widget_set_valign (GTK_WIDGET (parts->avatar), GTK_ALIGN_CENTER);
      gtk_box_prepend (GTK_BOX (parts->box), GTK_WIDGET (parts->avatar));
    }

  adw_avatar_set_text (parts->avatar, page_title);
  gtk_widget_set_visible (GTK_WIDGET (parts->avatar), TRUE);
  gtk_widget_set_visible (GTK_WIDGET (parts->icon_image), FALSE);
}

static void
show_image (NearbyObjectRowParts *parts,
            gboolean              pending)
{
  if (parts->avatar != NULL)
    gtk_widget_set_visible (GTK_WIDGET (parts->avatar), FALSE);
  gtk_widget_set_visible (GTK_WIDGET (parts->icon_image), TRUE);

  if (pending)
    {
      gtk_image_set_from_icon_name (parts->icon_image, "web-browser-symbolic");
      /* A size Adwaita has pre-rendered: at 20 px GTK 4.8 would render its SVG with librsvg,
       * about 8 MiB of resident memory for this one icon (bench-memory). */
      gtk_image_set_pixel_size (parts->icon_image, 24);
      gtk_widget_remove_css_class (GTK_WIDGET (parts->icon_image), "nearby-icon");
      gtk_widget_add_css_class (GTK_WIDGET (parts->icon_image), "nearby-pending");
    }
  else
    {
      gtk_image_set_pixel_size (parts->icon_image, 40);
      gtk_widget_remove_css_class (GTK_WIDGET (parts->icon_image), "nearby-pending");
      gtk_widget_add_css_class (GTK_WIDGET (parts->icon_image), "nearby-icon");
    }
}

void
nearby_object_row_parts_show_icon (NearbyObjectRowParts *parts,
                                   GBytes               *icon,
                                   const char           *page_title)
{
  g_autoptr(GdkTexture) texture = NULL;

  if (icon != NULL && icon == parts->shown_icon)
    return;
  g_clear_pointer (&parts->shown_icon, g_bytes_unref);

  if (icon != NULL)
    texture = texture_for_icon (icon);
  if (texture != NULL)
    {
      parts->shown_icon = g_bytes_ref (icon);
      gtk_image_set_from_paintable (parts->icon_image, GDK_PAINTABLE (texture));
      show_image (parts, FALSE);
      return;
    }

  if (page_title != NULL)
    show_initials (parts, page_title);
  else
    show_image (parts, TRUE);
}

NearbyObjectRowParts *
nearby_object_row_parts_new (void)
{
  return g_object_new (NEARBY_TYPE_OBJECT_ROW_PARTS, NULL);
}

static void
nearby_object_row_parts_dispose (GObject *object)
{
  NearbyObjectRowParts *self = NEARBY_OBJECT_ROW_PARTS (object);

  g_clear_pointer (&self->shown_icon, g_bytes_unref);
  gtk_widget_dispose_template (GTK_WIDGET (self), NEARBY_TYPE_OBJECT_ROW_PARTS);
  self->avatar = NULL;

  G_OBJECT_CLASS (nearby_object_row_parts_parent_class)->dispose (object);
}

static void
nearby_object_row_parts_class_init (NearbyObjectRowPartsClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = nearby_object_row_parts_dispose;

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/nearbyweb/Nearby/nearby-object-row-parts.ui");
  gtk_widget_class_bind_template_child (widget_class, NearbyObjectRowParts, box);
  gtk_widget_class_bind_template_child (widget_class, NearbyObjectRowParts, icon_image);
  gtk_widget_class_bind_template_child (widget_class, NearbyObjectRowParts, title_label);
  gtk_widget_class_bind_template_child (widget_class, NearbyObjectRowParts, favourite_image);
  gtk_widget_class_bind_template_child (widget_class, NearbyObjectRowParts, description_label);
  gtk_widget_class_bind_template_child (widget_class, NearbyObjectRowParts, host_label);
  gtk_widget_class_bind_template_child (widget_class, NearbyObjectRowParts, badge_label);
  gtk_widget_class_bind_template_child (widget_class, NearbyObjectRowParts, distance_label);
  gtk_widget_class_bind_template_child (widget_class, NearbyObjectRowParts, text_box);
  gtk_widget_class_bind_template_child (widget_class, NearbyObjectRowParts, menu_button);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
}

static void
nearby_object_row_parts_init (NearbyObjectRowParts *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}
