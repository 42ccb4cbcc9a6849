/* nearby-a11y.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

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

static gboolean
is_in_toast (GtkWidget *widget)
{
  for (GtkWidget *w = widget; w != NULL; w = gtk_widget_get_parent (w))
    if (g_str_equal (G_OBJECT_TYPE_NAME (w), "AdwToastWidget"))
      return TRUE;

  return FALSE;
}

static void
name_toast_buttons (GtkWidget *root)
{
  if (GTK_IS_BUTTON (root))
    {
      nearby_a11y_name_button_by_its_label (GTK_BUTTON (root));
      if (g_strcmp0 (gtk_button_get_icon_name (GTK_BUTTON (root)), "window-close-symbolic") == 0 &&
          is_in_toast (root))
        gtk_accessible_update_property (GTK_ACCESSIBLE (root),
                                        GTK_ACCESSIBLE_PROPERTY_LABEL,
                                        C_("toast", "Dismiss"),
                                        -1);
    }

  for (GtkWidget *child = gtk_widget_get_first_child (root);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    name_toast_buttons (child);
}

static gboolean
name_toast_buttons_idle (gpointer user_data)
{
  name_toast_buttons (GTK_WIDGET (user_data));

  return G_SOURCE_REMOVE;
}

static void
name_toast_buttons_soon (GtkWidget *root)
{
  g_idle_add_full (G_PRIORITY_DEFAULT_IDLE, name_toast_buttons_idle, g_object_ref (root),
                   g_object_unref);
}

void
nearby_a11y_watch_toast (GtkWidget *root,
                         AdwToast  *toast)
{
  g_return_if_fail (GTK_IS_WIDGET (root));
  g_return_if_fail (ADW_IS_TOAST (toast));

  /* The overlay shows the next toast from its own handler of "dismissed", connected first. */
  g_signal_connect_object (toast, "dismissed", G_CALLBACK (name_toast_buttons_soon), root,
                           G_CONNECT_SWAPPED);
  name_toast_buttons_soon (root);
}
