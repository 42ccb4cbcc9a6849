/* nearby-a11y.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "nearby-a11y.h"

void
nearby_a11y_name_button_by_its_label (GtkButton *button)
{
  g_return_if_fail (GTK_IS_BUTTON (button));

  if (gtk_button_get_use_underline (button) && GTK_IS_LABEL (gtk_button_get_child (button)))
    gtk_accessible_reset_property (GTK_ACCESSIBLE (button), GTK_ACCESSIBLE_PROPERTY_LABEL);
}

void
nearby_a11y_name_buttons_by_their_labels (GtkWidget *root)
{
  g_return_if_fail (GTK_IS_WIDGET (root));

  if (GTK_IS_BUTTON (root))
    nearby_a11y_name_button_by_its_label (GTK_BUTTON (root));

  for (GtkWidget *child = gtk_widget_get_first_child (root);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    nearby_a11y_name_buttons_by_their_labels (child);
}
