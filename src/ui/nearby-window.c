/* nearby-window.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "nearby-window"

#include "config.h"

#include <glib/gi18n.h>

#include "nearby-window.h"

struct _NearbyWindow
{
  AdwApplicationWindow  parent_instance;

  AdwToastOverlay      *toast_overlay;
  GtkStack             *stack;
};

G_DEFINE_FINAL_TYPE (NearbyWindow, nearby_window, ADW_TYPE_APPLICATION_WINDOW)

NearbyWindow *
nearby_window_new (NearbyApplication *application)
{
  return g_object_new (NEARBY_TYPE_WINDOW,
                       "application", application,
                       NULL);
}

static void
nearby_window_dispose (GObject *object)
{
  gtk_widget_dispose_template (GTK_WIDGET (object), NEARBY_TYPE_WINDOW);

  G_OBJECT_CLASS (nearby_window_parent_class)->dispose (object);
}

static void
nearby_window_class_init (NearbyWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = nearby_window_dispose;

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/nearbyweb/Nearby/nearby-window.ui");
  gtk_widget_class_bind_template_child (widget_class, NearbyWindow, toast_overlay);
  gtk_widget_class_bind_template_child (widget_class, NearbyWindow, stack);
}

static void
nearby_window_init (NearbyWindow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}
