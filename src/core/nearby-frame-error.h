/* nearby-frame-error.h: why a frame was rejected, in the user's language
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

#include "nearby-frame.h"

G_BEGIN_DECLS

/* The sentence for @frame->error, naming the offending byte, offset or length as
 * nearby_frame_format_error() does, translated. Untranslated, it is the codec's English (which
 * the command line's JSON keeps). */
char *nearby_frame_describe_error (const NearbyFrame *frame);

G_END_DECLS
