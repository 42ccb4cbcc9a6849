/* nearby-frame-row.h: one frame a device sent, with the bytes it came from, for the inspector
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "nearby-object.h"

G_BEGIN_DECLS

#define NEARBY_TYPE_FRAME_ROW (nearby_frame_row_get_type ())
G_DECLARE_FINAL_TYPE (NearbyFrameRow, nearby_frame_row, NEARBY, FRAME_ROW, AdwPreferencesRow)

GtkWidget *nearby_frame_row_new       (void);
/* Shows @frame, as @device last sent it, in place: a selection in the row survives updates. */
void       nearby_frame_row_set_frame (NearbyFrameRow           *self,
                                       const NearbyObjectDevice *device,
                                       const NearbyFrame        *frame);

G_END_DECLS
