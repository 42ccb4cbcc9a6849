/* nearby-hex.c: bytes as hex, read the way Bluetooth tools print them
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "nearby-hex"

#include "config.h"

#include <gio/gio.h>
#include <glib/gi18n.h>
#include <string.h>

#include "nearby-hex.h"

char *
nearby_hex_format (const guint8 *data,
                   gsize         len)
{
  static const char digits[] = "0123456789abcdef";
  char *text = g_malloc (len * 2 + 1);

  for (gsize i = 0; i < len; i++)
    {
      text[2 * i] = digits[data[i] >> 4];
      text[2 * i + 1] = digits[data[i] & 0xf];
    }
  text[len * 2] = '\0';

  return text;
}

/* Error messages repeat the text only when it is UTF-8: they must stay valid text. */
static const char *
text_to_show (const char *text)
{
  return g_utf8_validate (text, -1, NULL) ? text : "input";
}

GBytes *
nearby_hex_parse (const char  *text,
                  GError     **error)
{
  g_autoptr(GByteArray) bytes = g_byte_array_new ();
  const char *p = text;

  g_return_val_if_fail (text != NULL, NULL);

  while (*p != '\0')
    {
      int high, low;
      guint8 byte;

      if (*p == ' ' || *p == ':' || *p == '-' || *p == '\t' || *p == '\n' || *p == '\r' || *p == ',')
        {
          p++;
          continue;
        }
      /* "0x" may start the whole string ("0x0201…", nRF Connect) or each byte ("0x02 0x01"). */
      if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X') &&
          (p == text || strchr (" :-\t,", p[-1]) != NULL))
        {
          p += 2;
          continue;
        }

      high = g_ascii_xdigit_value (p[0]);
      low = high >= 0 ? g_ascii_xdigit_value (p[1]) : -1;
      if (high >= 0 && low < 0 && (p[1] == '\0' || strchr (" :-\t\n\r,", p[1]) != NULL))
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       _("“%s” has a lone hex digit at position %d: write every byte as two digits"),
                       text_to_show (text), (int) (p - text) + 1);
          return NULL;
        }
      if (high < 0 || low < 0)
        {
          const char *bad = high < 0 ? p : p + 1;

          /* Never cut a UTF-8 sequence in half: the message must stay valid text. */
          if ((guchar) *bad >= 0x80 || !g_ascii_isprint (*bad))
            g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                         _("“%s” is not hexadecimal: unexpected character at position %d"),
                         text_to_show (text), (int) (bad - text) + 1);
          else
            g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                         _("“%s” is not hexadecimal: unexpected “%c” at position %d"),
                         text_to_show (text), *bad, (int) (bad - text) + 1);
          return NULL;
        }
      byte = (guint8) (high << 4 | low);
      g_byte_array_append (bytes, &byte, 1);
      p += 2;
    }

  return g_byte_array_free_to_bytes (g_steal_pointer (&bytes));
}
