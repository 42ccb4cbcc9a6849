/* nearby-object-search.h: what the window's search finds
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "nearby-object.h"
#include "nearby-source.h"

G_BEGIN_DECLS

/* Whether @object is one a search for @query (what the person typed) keeps: every word of it
 * starts a word of the row's title, description or host (accents folded), or @query appears in
 * one of them; with @developer also in a device address or a frame kind ("uid", "tlm").
 * @source (or NULL) gives the hosts the demo makes up. An empty @query keeps every object. */
gboolean nearby_object_matches_search (NearbyObject *object,
                                       NearbySource *source,
                                       const char   *query,
                                       gboolean      developer);

G_END_DECLS
