/* nearby-dbm.h: signal strengths written for people
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* "−62": rounded to a whole number, with a real minus sign (U+2212), which reads better than a
 * hyphen and which screen readers say as "minus". For sentences that name the unit themselves. */
char *nearby_dbm_format_number (double dbm);
/* "−62 dBm" */
char *nearby_dbm_format        (double dbm);

G_END_DECLS
