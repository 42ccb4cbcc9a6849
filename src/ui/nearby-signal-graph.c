/* nearby-signal-graph.c
 *
 * Drawn with cairo through GtkSnapshot: GTK 4.8 has no stroke nodes or GskPath yet.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "nearby-signal-graph"

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "nearby-dbm.h"
#include "nearby-signal-graph.h"

/* Samples further apart than this were not heard in between: the line breaks there. */
#define GAP_US          (5 * G_USEC_PER_SEC)

#define RSSI_FLOOR      (-100.0)
#define RSSI_CEILING    (-30.0)
#define RSSI_GRID_STEP  20.0
#define MIN_DISTANCE_M  5.0

#define MARGIN_TOP      24
#define MARGIN_BOTTOM   22
#define MARGIN_SIDE     52
#define LABEL_GAP       6

struct _NearbySignalGraph
{
  GtkWidget  parent_instance;

  GArray    *samples;
};

G_DEFINE_FINAL_TYPE (NearbySignalGraph, nearby_signal_graph, GTK_TYPE_WIDGET)

GtkWidget *
nearby_signal_graph_new (void)
{
  return g_object_new (NEARBY_TYPE_SIGNAL_GRAPH, NULL);
}

char *
nearby_signal_graph_describe (GArray *samples)
{
  const NearbyObjectSample *last;
  g_autofree char *dbm = NULL;

  if (samples == NULL || samples->len == 0)
    return g_strdup (_("No signal heard yet"));

  last = &g_array_index (samples, NearbyObjectSample, samples->len - 1);
  dbm = nearby_dbm_format_number (last->rssi);
  if (last->distance >= 0)
    /* Translators: the signal graph, for screen readers: "Signal −62 dBm, about 1.3 m, …" */
    return g_strdup_printf (_("Signal %s dBm, about %.1f m, over the last minute"),
                            dbm, last->distance);
  return g_strdup_printf (_("Signal %s dBm, distance unknown, over the last minute"), dbm);
}

static void
nearby_signal_graph_update_accessible (NearbySignalGraph *self)
{
  g_autofree char *label = nearby_signal_graph_describe (self->samples);

  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, label,
                                  -1);
}

void
nearby_signal_graph_set_samples (NearbySignalGraph *self,
                                 GArray            *samples)
{
  g_return_if_fail (NEARBY_IS_SIGNAL_GRAPH (self));

  if (samples != NULL)
    g_array_ref (samples);
  g_clear_pointer (&self->samples, g_array_unref);
  self->samples = samples;

  nearby_signal_graph_update_accessible (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
append_label (GtkSnapshot    *snapshot,
              GtkWidget      *widget,
              const char     *text,
              const GdkRGBA  *colour,
              double          x,
              double          y,
              double          xalign,
              double          yalign)
{
  g_autoptr(PangoLayout) layout = gtk_widget_create_pango_layout (widget, text);
  PangoAttrList *attributes = pango_attr_list_new ();
  int width, height;

  pango_attr_list_insert (attributes, pango_attr_scale_new (PANGO_SCALE_SMALL));
  pango_attr_list_insert (attributes, pango_attr_font_features_new ("tnum=1"));
  pango_layout_set_attributes (layout, attributes);
  pango_attr_list_unref (attributes);
  pango_layout_get_pixel_size (layout, &width, &height);

  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT ((float) round (x - width * xalign),
                                                          (float) round (y - height * yalign)));
  gtk_snapshot_append_layout (snapshot, layout, colour);
  gtk_snapshot_restore (snapshot);
}

typedef struct {
  double left, top, width, height;
  gint64 start_us;
  double rssi_floor, rssi_ceiling;
  double distance_max;
} Plot;

static double
plot_x (const Plot *plot,
        gint64      time_us)
{
  return plot->left + plot->width * (double) (time_us - plot->start_us) / NEARBY_OBJECT_HISTORY_US;
}

static double
plot_rssi_y (const Plot *plot,
             double      rssi)
{
  double clamped = CLAMP (rssi, plot->rssi_floor, plot->rssi_ceiling);

  return plot->top + plot->height * (plot->rssi_ceiling - clamped)
                                  / (plot->rssi_ceiling - plot->rssi_floor);
}

static double
plot_distance_y (const Plot *plot,
                 double      distance)
{
  return plot->top + plot->height * (1.0 - MIN (distance, plot->distance_max) / plot->distance_max);
}

/* Traces one series, breaking the line over gaps and unknown values. */
static void
trace_series (cairo_t    *cr,
              const Plot *plot,
              GArray     *samples,
              gboolean    distance)
{
  gboolean drawing = FALSE;
  gint64 previous_us = 0;

  for (guint i = 0; i < samples->len; i++)
    {
      const NearbyObjectSample *sample = &g_array_index (samples, NearbyObjectSample, i);
      double x, y;

      if (sample->time_us < plot->start_us || (distance && sample->distance < 0))
        {
          drawing = FALSE;
          continue;
        }

      x = plot_x (plot, sample->time_us);
      y = distance ? plot_distance_y (plot, sample->distance) : plot_rssi_y (plot, sample->rssi);
      if (drawing && sample->time_us - previous_us <= GAP_US)
        cairo_line_to (cr, x, y);
      else
        {
          /* A lone sample still shows, as a short tick. */
          cairo_move_to (cr, x - 1.5, y);
          cairo_line_to (cr, x, y);
        }
      drawing = TRUE;
      previous_us = sample->time_us;
    }
}

static void
nearby_signal_graph_snapshot (GtkWidget   *widget,
                              GtkSnapshot *snapshot)
{
  NearbySignalGraph *self = NEARBY_SIGNAL_GRAPH (widget);
  GtkStyleContext *style = gtk_widget_get_style_context (widget);
  int widget_width = gtk_widget_get_width (widget);
  int widget_height = gtk_widget_get_height (widget);
  GdkRGBA foreground, accent, grid, dim;
  Plot plot = { 0 };
  cairo_t *cr;
  gint64 newest_us;

  gtk_style_context_get_color (style, &foreground);
  if (!gtk_style_context_lookup_color (style, "accent_color", &accent))
    gdk_rgba_parse (&accent, "#1c71d8");
  grid = foreground;
  grid.alpha *= 0.12f;
  dim = foreground;
  dim.alpha *= 0.65f;

  plot.left = MARGIN_SIDE;
  plot.top = MARGIN_TOP;
  plot.width = widget_width - 2 * MARGIN_SIDE;
  plot.height = widget_height - MARGIN_TOP - MARGIN_BOTTOM;
  if (plot.width < 20 || plot.height < 20)
    return;

  if (self->samples == NULL || self->samples->len == 0)
    {
      append_label (snapshot, widget, _("No signal heard yet"), &dim,
                    widget_width / 2.0, widget_height / 2.0, 0.5, 0.5);
      return;
    }

  newest_us = g_array_index (self->samples, NearbyObjectSample, self->samples->len - 1).time_us;
  plot.start_us = newest_us - NEARBY_OBJECT_HISTORY_US;
  plot.rssi_floor = RSSI_FLOOR;
  plot.rssi_ceiling = RSSI_CEILING;
  plot.distance_max = MIN_DISTANCE_M;
  for (guint i = 0; i < self->samples->len; i++)
    {
      const NearbyObjectSample *sample = &g_array_index (self->samples, NearbyObjectSample, i);

      if (sample->time_us < plot.start_us)
        continue;
      plot.rssi_floor = MIN (plot.rssi_floor, floor (sample->rssi / RSSI_GRID_STEP) * RSSI_GRID_STEP);
      plot.rssi_ceiling = MAX (plot.rssi_ceiling, ceil (sample->rssi / 10.0) * 10.0);
      if (sample->distance >= 0)
        plot.distance_max = MAX (plot.distance_max, sample->distance);
    }
  /* A round top for the metres axis. */
  {
    static const double tops[] = { 5, 10, 20, 50, 100, 200, 500, 1000 };
    double max = plot.distance_max;

    plot.distance_max = tops[G_N_ELEMENTS (tops) - 1];
    for (guint i = 0; i < G_N_ELEMENTS (tops); i++)
      if (tops[i] >= max)
        {
          plot.distance_max = tops[i];
          break;
        }
  }

  /* Axes and their labels: dBm on the left in the signal's colour, metres on the right. */
  for (double rssi = ceil (plot.rssi_floor / RSSI_GRID_STEP) * RSSI_GRID_STEP;
       rssi <= plot.rssi_ceiling; rssi += RSSI_GRID_STEP)
    {
      double y = round (plot_rssi_y (&plot, rssi));
      g_autofree char *label = nearby_dbm_format (rssi);

      gtk_snapshot_append_color (snapshot, &grid,
                                 &GRAPHENE_RECT_INIT (plot.left, y, plot.width, 1));
      append_label (snapshot, widget, label, &accent, plot.left - LABEL_GAP, y, 1.0, 0.5);
    }
  for (int i = 0; i <= 2; i++)
    {
      double metres = plot.distance_max * i / 2.0;
      g_autofree char *label = g_strdup_printf ("%g m", metres);

      append_label (snapshot, widget, label, &dim, plot.left + plot.width + LABEL_GAP,
                    plot_distance_y (&plot, metres), 0.0, 0.5);
    }
  for (int seconds = 60; seconds >= 0; seconds -= 30)
    {
      double x = plot_x (&plot, newest_us - seconds * G_USEC_PER_SEC);
      g_autofree char *label = seconds > 0 ? g_strdup_printf (_("%d s ago"), seconds)
                                           : g_strdup (_("now"));

      gtk_snapshot_append_color (snapshot, &grid,
                                 &GRAPHENE_RECT_INIT (round (x), plot.top, 1, plot.height));
      append_label (snapshot, widget, label, &dim, x, plot.top + plot.height + 3,
                    seconds == 60 ? 0.0 : seconds == 0 ? 1.0 : 0.5, 0.0);
    }

  /* A legend, so colour is not the only way to tell the lines apart. */
  append_label (snapshot, widget, _("— Signal (dBm)"), &accent, plot.left, 2, 0.0, 0.0);
  append_label (snapshot, widget, _("┄ Distance (m)"), &dim, plot.left + plot.width, 2, 1.0, 0.0);

  cr = gtk_snapshot_append_cairo (snapshot,
                                  &GRAPHENE_RECT_INIT (plot.left - 2, plot.top - 2,
                                                       plot.width + 4, plot.height + 4));
  cairo_rectangle (cr, plot.left - 2, plot.top - 2, plot.width + 4, plot.height + 4);
  cairo_clip (cr);
  cairo_set_line_join (cr, CAIRO_LINE_JOIN_ROUND);
  cairo_set_line_cap (cr, CAIRO_LINE_CAP_ROUND);

  trace_series (cr, &plot, self->samples, TRUE);
  gdk_cairo_set_source_rgba (cr, &dim);
  cairo_set_line_width (cr, 1.5);
  cairo_set_dash (cr, (const double[]) { 4.0, 4.0 }, 2, 0);
  cairo_stroke (cr);

  trace_series (cr, &plot, self->samples, FALSE);
  gdk_cairo_set_source_rgba (cr, &accent);
  cairo_set_line_width (cr, 2.5);
  cairo_set_dash (cr, NULL, 0, 0);
  cairo_stroke (cr);

  cairo_destroy (cr);
}

static void
nearby_signal_graph_measure (GtkWidget      *widget,
                             GtkOrientation  orientation,
                             int             for_size,
                             int            *minimum,
                             int            *natural,
                             int            *minimum_baseline,
                             int            *natural_baseline)
{
  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      *minimum = 2 * MARGIN_SIDE + 120;
      *natural = 2 * MARGIN_SIDE + 360;
    }
  else
    {
      *minimum = MARGIN_TOP + MARGIN_BOTTOM + 120;
      *natural = MARGIN_TOP + MARGIN_BOTTOM + 160;
    }
}

static void
nearby_signal_graph_finalize (GObject *object)
{
  NearbySignalGraph *self = NEARBY_SIGNAL_GRAPH (object);

  g_clear_pointer (&self->samples, g_array_unref);

  G_OBJECT_CLASS (nearby_signal_graph_parent_class)->finalize (object);
}

static void
nearby_signal_graph_class_init (NearbySignalGraphClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->finalize = nearby_signal_graph_finalize;

  widget_class->snapshot = nearby_signal_graph_snapshot;
  widget_class->measure = nearby_signal_graph_measure;

  gtk_widget_class_set_css_name (widget_class, "nearbysignalgraph");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
nearby_signal_graph_init (NearbySignalGraph *self)
{
  nearby_signal_graph_update_accessible (self);
}
