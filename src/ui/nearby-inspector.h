/* nearby-inspector.h: one object in full: a summary with Open and Favourite for everyone,
 * and under "Developer Details" the page log, the timings and the frames
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "nearby-object-list.h"
#include "nearby-source.h"

G_BEGIN_DECLS

#define NEARBY_TYPE_INSPECTOR (nearby_inspector_get_type ())
G_DECLARE_FINAL_TYPE (NearbyInspector, nearby_inspector, NEARBY, INSPECTOR, AdwWindow)

/* @objects (optional) is the list @object lives in: the inspector watches it to say when the
 * object is no longer heard. */
NearbyInspector *nearby_inspector_new           (NearbyObject       *object,
                                                 NearbyObjectList   *objects);
NearbyObject    *nearby_inspector_get_object    (NearbyInspector    *self);
/* The source the object was heard from (optional): the host its summary shows is the one the
 * source makes up for it, as in its row (the demo's street). */
NearbySource    *nearby_inspector_get_source    (NearbyInspector    *self);
void             nearby_inspector_set_source    (NearbyInspector    *self,
                                                 NearbySource       *source);
/* TRUE once the list dropped the object; the inspector keeps showing its last data. */
gboolean         nearby_inspector_get_expired   (NearbyInspector    *self);
/* Developer mode opens the developer details (page log, timings, frames) from the start. */
gboolean         nearby_inspector_get_developer_mode (NearbyInspector *self);
void             nearby_inspector_set_developer_mode (NearbyInspector *self,
                                                      gboolean         developer_mode);
/* What the resolver did for the object, one line per step (redirects, status codes, timings,
 * why it was not looked up). NULL or empty shows "Not looked up yet". */
void             nearby_inspector_set_page_log  (NearbyInspector    *self,
                                                 const char *const  *lines);

G_END_DECLS
