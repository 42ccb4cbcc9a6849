/* nearby-hex.h: bytes as hex, read the way Bluetooth tools print them
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Parses hex as btmon, hcidump or nRF Connect print it: pairs of digits, optionally separated by
 * spaces, ':', '-' or ',', with an optional "0x" before the whole string or before each byte. */
GBytes *nearby_hex_parse  (const char    *text,
                           GError       **error);
/* Two lower-case digits a byte, nothing between them. */
char   *nearby_hex_format (const guint8  *data,
                           gsize          len);

G_END_DECLS
