/* nearby-object-row-parts.h: the widgets of an object's row, while the row is on screen
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define NEARBY_TYPE_OBJECT_ROW_PARTS (nearby_object_row_parts_get_type ())
G_DECLARE_FINAL_TYPE (NearbyObjectRowParts, nearby_object_row_parts, NEARBY, OBJECT_ROW_PARTS,
                      GtkWidget)

/* NearbyObjectRow fills them in (nearby-object-row.c): the parts only hold them. */
struct _NearbyObjectRowParts
{
  GtkWidget      parent_instance;

  GtkWidget     *box;
  AdwAvatar     *avatar;     /* made for the first title without an icon, or NULL */
  GtkImage      *icon_image;
  GBytes        *shown_icon; /* the icon data icon_image shows, or NULL */
  GtkLabel      *title_label;
  GtkWidget     *favourite_image;
  GtkLabel      *description_label;
  GtkLabel      *host_label;
  GtkLabel      *badge_label;
  GtkLabel      *distance_label;
  GtkWidget     *text_box;
  GtkMenuButton *menu_button;
};

NearbyObjectRowParts *nearby_object_row_parts_new       (void);

/* The page's @icon (PNG data, may be NULL), else the initials of @page_title, else the sign of
 * an object not looked up yet. */
void                  nearby_object_row_parts_show_icon (NearbyObjectRowParts *parts,
                                                         GBytes               *icon,
                                                         const char           *page_title);

G_END_DECLS
