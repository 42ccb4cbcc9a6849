/* nearby-section-header.h: the heading over a part of the list ("Right here", "Favourites")
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib-object.h>

#include "nearby-object.h"

G_BEGIN_DECLS

/* The parts of the list, in the order the list shows them. */
typedef enum {
  NEARBY_SECTION_FAVOURITES = 0,
  NEARBY_SECTION_IMMEDIATE,
  NEARBY_SECTION_NEAR,
  NEARBY_SECTION_FAR,
  NEARBY_SECTION_UNKNOWN,
} NearbySection;

/* The part of the list for a distance, leaving favourites aside. */
NearbySection nearby_section_for_bucket (NearbyBucket bucket);

/* The part of the list @object belongs in now. */
NearbySection nearby_section_for_object (NearbyObject *object);

#define NEARBY_TYPE_SECTION_HEADER (nearby_section_header_get_type ())
G_DECLARE_FINAL_TYPE (NearbySectionHeader, nearby_section_header, NEARBY, SECTION_HEADER, GObject)

NearbySectionHeader *nearby_section_header_new         (NearbySection        section);
NearbySection        nearby_section_header_get_section (NearbySectionHeader *self);

G_END_DECLS
