/* nearby-process-age.h: how long ago this process started
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Milliseconds since this process started, to the kernel's clock tick (10 ms), or -1 where
 * /proc cannot tell. */
double nearby_process_age_ms (void);

G_END_DECLS
