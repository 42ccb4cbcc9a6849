/* nearby-signal-graph.h: an object's signal and distance over the last minute
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "nearby-object.h"

G_BEGIN_DECLS

#define NEARBY_TYPE_SIGNAL_GRAPH (nearby_signal_graph_get_type ())
G_DECLARE_FINAL_TYPE (NearbySignalGraph, nearby_signal_graph, NEARBY, SIGNAL_GRAPH, GtkWidget)

GtkWidget *nearby_signal_graph_new         (void);
/* @samples: NearbyObjectSample, oldest first, as nearby_object_dup_samples() returns them.
 * The graph keeps a reference. NULL clears it. */
void       nearby_signal_graph_set_samples (NearbySignalGraph *self,
                                            GArray            *samples);
/* What a screen reader says for the graph ("Signal −62 dBm, about 1.3 m, over the last minute"). */
char      *nearby_signal_graph_describe    (GArray            *samples);

G_END_DECLS
