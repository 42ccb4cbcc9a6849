/* nearby-section-model.h: the list's objects with a heading over each part
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "nearby-section-header.h"

G_BEGIN_DECLS

#define NEARBY_TYPE_SECTION_MODEL (nearby_section_model_get_type ())
G_DECLARE_FINAL_TYPE (NearbySectionModel, nearby_section_model, NEARBY, SECTION_MODEL, GObject)

/* @objects: a model of NearbyObjects in the list's order. The items are its objects with a
 * NearbySectionHeader before each run of objects in the same section. */
NearbySectionModel *nearby_section_model_new         (GListModel         *objects);
GListModel         *nearby_section_model_get_objects (NearbySectionModel *self);
gboolean            nearby_section_model_get_paused  (NearbySectionModel *self);
/* The section of the item at @position: a heading's own, or the one of the heading an object
 * is shown under (not always the one it is in now: see the model's comment). An object whose
 * heading changes is announced as changed, so that a row bound to it learns the new one. */
NearbySection       nearby_section_model_get_section (NearbySectionModel *self,
                                                      guint               position);
void                nearby_section_model_set_paused  (NearbySectionModel *self,
                                                      gboolean            paused);

G_END_DECLS
