/* nearby-text.h: untrusted text made safe to show (in a label or a terminal), and the encoding of a page's bytes
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* How far into a document a <meta charset> is looked for, as browsers do. */
#define NEARBY_TEXT_PRESCAN_BYTES 1024

char       *nearby_text_clean           (const char   *text,
                                         gssize        len,
                                         guint         max_chars);
char       *nearby_text_clean_or_null   (const char   *text,
                                         gssize        len,
                                         guint         max_chars);
/* As g_utf8_validate_len(), several times faster on text that is mostly ASCII. */
gboolean    nearby_text_validate_utf8   (const char   *text,
                                         gsize         len,
                                         const char  **end);
/* @text with what a terminal would obey (controls, ESC, bidi overrides) written as \u202e. */
char       *nearby_text_escape_for_terminal (const char   *text);
const char *nearby_text_sniff_charset   (const char   *header_charset,
                                         const guint8 *data,
                                         gsize         len,
                                         gsize        *bom_len);
gboolean    nearby_text_charset_is_declared (const char   *header_charset,
                                             const guint8 *data,
                                             gsize         len);

G_END_DECLS
