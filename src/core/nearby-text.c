/* nearby-text.c
 *
 * Everything a page, a manifest or a URL shows ends up in a label or in JSON, and comes from a
 * server or a beacon nobody vouches for: text is made valid, visible and bounded here, and the
 * bytes of a page are given an encoding the way browsers choose one.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "nearby-text"

#include "config.h"

#include <string.h>

#include "nearby-text.h"

static gboolean
is_hidden_char (gunichar c)
{
  return (c >= 0x200b && c <= 0x200f) ||   /* zero width, LRM, RLM */
         (c >= 0x202a && c <= 0x202e) ||   /* embeddings and overrides */
         (c >= 0x2066 && c <= 0x2069) ||   /* isolates */
         c == 0x061c || c == 0xfeff || c == 0x2060 || c == 0x00ad;
}

/* What a terminal would act on rather than show: C0 controls but the line break and tab
 * (ESC among them), DEL, C1 controls (CSI 0x9b too), bidi and invisible characters, and the
 * Unicode line and paragraph separators. */
static gboolean
needs_terminal_escape (gunichar c)
{
  if (c == '\n' || c == '\t')
    return FALSE;

  return c < 0x20 || (c >= 0x7f && c <= 0x9f) || is_hidden_char (c)
         || c == 0x2028 || c == 0x2029;
}

/* @text as it can be written to a terminal: each character a terminal would act on is written
 * \uXXXX instead (\u202e for a right-to-left override, \u001b for ESC), a byte that is not
 * UTF-8 \xNN. Everything else, line breaks included, is kept. */
char *
nearby_text_escape_for_terminal (const char *text)
{
  GString *out;
  const char *p;
  const char *end;

  if (text == NULL)
    return g_strdup ("");

  out = g_string_sized_new (strlen (text) + 1);
  end = text + strlen (text);
  for (p = text; p < end;)
    {
      const char *run = p;
      gunichar c;

      /* Printable ASCII, nearly all of a JSON line, needs no escape: a run is copied at once
       * (a capture converted to JSON Lines spends its time here otherwise). */
      while (p < end && *p >= 0x20 && *p < 0x7f)
        p++;
      if (p > run)
        {
          g_string_append_len (out, run, p - run);
          continue;
        }

      c = g_utf8_get_char_validated (p, end - p);
      if (c == (gunichar) -1 || c == (gunichar) -2)
        {
          g_string_append_printf (out, "\\x%02x", (guchar) *p);
          p++;
          continue;
        }

      if (needs_terminal_escape (c))
        g_string_append_printf (out, "\\u%04x", c);
      else
        g_string_append_len (out, p, g_utf8_next_char (p) - p);
      p = g_utf8_next_char (p);
    }

  return g_string_free (out, FALSE);
}

/* Valid UTF-8, no control, bidi or invisible characters, whitespace collapsed, at most
 * max_chars characters (an ellipsis marks a cut). */
char *
nearby_text_clean (const char *text,
                   gssize      len,
                   guint       max_chars)
{
  GString *out;
  const char *p;
  const char *end;
  gboolean pending_space = FALSE;
  guint chars = 0;

  if (text == NULL)
    return g_strdup ("");
  if (len < 0)
    len = strlen (text);

  out = g_string_sized_new (MIN ((gsize) len, (gsize) max_chars * 4) + 4);
  p = text;
  end = text + len;

  while (p < end)
    {
      gunichar c = g_utf8_get_char_validated (p, end - p);
      gsize step;

      if (c == (gunichar) -1 || c == (gunichar) -2)
        {
          c = 0xfffd;
          step = 1;
        }
      else
        {
          step = g_utf8_next_char (p) - p;
          if (c == 0)
            step = 1;
        }
      p += step;

      if (is_hidden_char (c))
        continue;

      if (c == 0 || g_unichar_isspace (c) || g_unichar_type (c) == G_UNICODE_CONTROL ||
          c == 0x2028 || c == 0x2029)
        {
          pending_space = out->len > 0;
          continue;
        }

      if (chars + (pending_space ? 1 : 0) >= max_chars)
        {
          const char *cut = g_utf8_offset_to_pointer (out->str, max_chars > 0 ? max_chars - 1 : 0);

          g_string_truncate (out, cut - out->str);
          while (out->len > 0 && out->str[out->len - 1] == ' ')
            g_string_truncate (out, out->len - 1);
          if (max_chars > 0)
            g_string_append (out, "…");
          break;
        }

      if (pending_space)
        {
          g_string_append_c (out, ' ');
          chars++;
          pending_space = FALSE;
        }
      g_string_append_unichar (out, c);
      chars++;
    }

  return g_string_free (out, FALSE);
}

/* The same, for optional fields: NULL when nothing is left to show. */
char *
nearby_text_clean_or_null (const char *text,
                           gssize      len,
                           guint       max_chars)
{
  g_autofree char *clean = NULL;

  if (text == NULL)
    return NULL;

  clean = nearby_text_clean (text, len, max_chars);
  if (*clean == '\0')
    return NULL;

  return g_steal_pointer (&clean);
}

static const char *
normalize_charset_label (const char *label,
                         gsize       len,
                         gboolean    from_meta)
{
  g_autofree char *lower = NULL;
  GIConv probe;

  lower = g_ascii_strdown (label, len);
  g_strstrip (lower);
  if (*lower == '\0' || strlen (lower) > 40)
    return NULL;

  for (const char *p = lower; *p; p++)
    {
      if (!g_ascii_isalnum (*p) && *p != '-' && *p != '_' && *p != '.' && *p != ':')
        return NULL;
    }

  if (g_str_equal (lower, "utf-8") || g_str_equal (lower, "utf8") ||
      g_str_equal (lower, "unicode-1-1-utf-8"))
    return "UTF-8";

  /* Per the WHATWG encoding standard these labels all mean windows-1252. */
  if (g_str_equal (lower, "iso-8859-1") || g_str_equal (lower, "iso8859-1") ||
      g_str_equal (lower, "latin1") || g_str_equal (lower, "l1") ||
      g_str_equal (lower, "us-ascii") || g_str_equal (lower, "ascii") ||
      g_str_equal (lower, "cp1252") || g_str_equal (lower, "windows-1252") ||
      g_str_equal (lower, "x-cp1252") || g_str_equal (lower, "iso_8859-1") ||
      g_str_equal (lower, "cp819") || g_str_equal (lower, "ibm819"))
    return "WINDOWS-1252";

  if (g_str_has_prefix (lower, "utf-16"))
    {
      /* A document that could say so in ASCII is not UTF-16. */
      if (from_meta)
        return "UTF-8";
      if (g_str_equal (lower, "utf-16be"))
        return "UTF-16BE";
      return "UTF-16LE";
    }

  if (g_str_has_prefix (lower, "utf-32") || g_str_equal (lower, "utf-7") ||
      g_str_equal (lower, "replacement"))
    return NULL;

  probe = g_iconv_open ("UTF-8", lower);
  if (probe == (GIConv) -1)
    return NULL;
  g_iconv_close (probe);

  return g_intern_string (lower);
}

static const char *
prescan_meta_charset (const guint8 *data,
                      gsize         len)
{
  char lower[NEARBY_TEXT_PRESCAN_BYTES + 1];
  const char *p;
  const char *end;
  gsize n = 0;

  /* Lowered by hand up to the first NUL byte: g_ascii_strdown() calls a function a byte, and
   * this runs for every chunk until the encoding is known. */
  len = MIN (len, NEARBY_TEXT_PRESCAN_BYTES);
  for (; n < len && data[n] != '\0'; n++)
    lower[n] = (data[n] >= 'A' && data[n] <= 'Z') ? data[n] + ('a' - 'A') : data[n];
  lower[n] = '\0';
  end = lower + n;
  p = lower;

  while ((p = strstr (p, "<meta")) != NULL)
    {
      const char *tag_end = memchr (p, '>', end - p);
      const char *q;

      if (tag_end == NULL)
        tag_end = end;

      q = p;
      while ((q = g_strstr_len (q, tag_end - q, "charset")) != NULL)
        {
          const char *label;
          const char *stop;
          const char *found;

          q += strlen ("charset");
          while (q < tag_end && (g_ascii_isspace (*q)))
            q++;
          if (q >= tag_end || *q != '=')
            continue;
          q++;
          while (q < tag_end && (g_ascii_isspace (*q) || *q == '"' || *q == '\''))
            q++;
          label = q;
          stop = label;
          while (stop < tag_end && !g_ascii_isspace (*stop) && *stop != '"' && *stop != '\'' &&
                 *stop != ';' && *stop != '/' && *stop != '>')
            stop++;
          found = normalize_charset_label (label, stop - label, TRUE);
          if (found != NULL)
            return found;
        }
      p = tag_end;
    }

  return NULL;
}

/* GLib 2.74 validates byte by byte, at about 13 instructions a byte: a tenth of what resolving a
 * page cost went to the UTF-8 check of its head. Pages are mostly ASCII, which is checked here 8
 * bytes at a time (no byte 0, no high bit); GLib checks what lies between, each piece ending
 * where an ASCII byte starts, which no multi-byte sequence can straddle. */
gboolean
nearby_text_validate_utf8 (const char  *text,
                           gsize        len,
                           const char **end)
{
  const guint8 *p = (const guint8 *) text;
  const guint8 *stop = p + len;

  g_return_val_if_fail (text != NULL || len == 0, FALSE);

  while (p < stop)
    {
      const guint8 *piece_end;
      const char *valid_end = NULL;

      while (stop - p >= 8)
        {
          guint64 word;

          memcpy (&word, p, sizeof word);
          if (((word - G_GUINT64_CONSTANT (0x0101010101010101)) | word) &
              G_GUINT64_CONSTANT (0x8080808080808080))
            break;
          p += sizeof word;
        }
      /* Within 8 bytes of one that is not plain ASCII */
      while (p < stop && *p != 0 && *p < 0x80)
        p++;
      if (p == stop)
        break;

      piece_end = p + 1;
      while (piece_end < stop && *piece_end >= 0x80)
        piece_end++;
      if (!g_utf8_validate_len ((const char *) p, piece_end - p, &valid_end))
        {
          if (end != NULL)
            *end = valid_end;
          return FALSE;
        }
      p = piece_end;
    }

  if (end != NULL)
    *end = (const char *) stop;

  return TRUE;
}

static gboolean
prefix_is_utf8 (const guint8 *data,
                gsize         len)
{
  const char *end = NULL;
  gsize rest;

  if (nearby_text_validate_utf8 ((const char *) data, len, &end))
    return TRUE;

  /* A sequence cut at the end of what we have so far is not an error. */
  rest = len - ((const guint8 *) end - data);
  if (rest < 4 && *(const guint8 *) end >= 0xc2 && *(const guint8 *) end <= 0xf4)
    {
      for (gsize i = 1; i < rest; i++)
        {
          if ((((const guint8 *) end)[i] & 0xc0) != 0x80)
            return FALSE;
        }
      return TRUE;
    }

  return FALSE;
}

/* The order: a byte order mark (which browsers let win over the header), the HTTP header,
 * a <meta> in the first KiB, valid UTF-8, and windows-1252 for the rest. */
const char *
nearby_text_sniff_charset (const char   *header_charset,
                           const guint8 *data,
                           gsize         len,
                           gsize        *bom_len)
{
  const char *found;

  if (bom_len != NULL)
    *bom_len = 0;

  if (data == NULL)
    len = 0;

  if (len >= 3 && data[0] == 0xef && data[1] == 0xbb && data[2] == 0xbf)
    {
      if (bom_len != NULL)
        *bom_len = 3;
      return "UTF-8";
    }
  if (len >= 2 && data[0] == 0xff && data[1] == 0xfe)
    {
      if (bom_len != NULL)
        *bom_len = 2;
      return "UTF-16LE";
    }
  if (len >= 2 && data[0] == 0xfe && data[1] == 0xff)
    {
      if (bom_len != NULL)
        *bom_len = 2;
      return "UTF-16BE";
    }

  if (header_charset != NULL &&
      (found = normalize_charset_label (header_charset, strlen (header_charset), FALSE)) != NULL)
    return found;

  if (len == 0)
    return "UTF-8";

  if ((found = prescan_meta_charset (data, len)) != NULL)
    return found;

  if (prefix_is_utf8 (data, MIN (len, 4 * NEARBY_TEXT_PRESCAN_BYTES)))
    return "UTF-8";

  return "WINDOWS-1252";
}

/* Whether nearby_text_sniff_charset() found the encoding said (a byte order mark, the header,
 * a <meta>) rather than guessed it from the bytes. */
gboolean
nearby_text_charset_is_declared (const char   *header_charset,
                                 const guint8 *data,
                                 gsize         len)
{
  gsize bom_len = 0;

  if (data == NULL)
    len = 0;

  nearby_text_sniff_charset (NULL, data, MIN (len, 3), &bom_len);

  return bom_len > 0 ||
         (header_charset != NULL &&
          normalize_charset_label (header_charset, strlen (header_charset), FALSE) != NULL) ||
         (len > 0 && prescan_meta_charset (data, len) != NULL);
}

