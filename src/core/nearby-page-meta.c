/* nearby-page-meta.c
 *
 * The HTML comes from whatever server a beacon names, so everything here is bounded: bytes
 * taken, text kept, icons listed. Bytes are decoded to UTF-8 by us (so libxml2 never guesses
 * an encoding) and handed to libxml2's push parser, which only reports SAX events; what they
 * give is worked out in nearby-page-meta-sax.c, and parsing stops once they can give no more.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "nearby-page-meta"

#include "config.h"

#include <errno.h>
#include <string.h>

#include <libxml/parserInternals.h>

#include "nearby-page-meta-private.h"
#include "nearby-text.h"
#include "nearby-url-policy.h"

/* Icons */

NearbyPageIcon *
nearby_page_icon_new (const char *url,
                      const char *rel,
                      const char *type,
                      int         size)
{
  NearbyPageIcon *icon = g_new0 (NearbyPageIcon, 1);

  icon->url = g_strdup (url);
  icon->rel = g_strdup (rel);
  icon->type = type ? nearby_text_clean (type, -1, 64) : NULL;
  icon->size = size;

  return icon;
}

void
nearby_page_icon_free (NearbyPageIcon *icon)
{
  if (icon == NULL)
    return;

  g_free (icon->url);
  g_free (icon->rel);
  g_free (icon->type);
  g_free (icon);
}

/* "16x16 32x32", "any" -> the largest edge, -1 for any, 0 when unknown */
int
nearby_page_icon_parse_sizes (const char *sizes)
{
  g_auto(GStrv) tokens = NULL;
  int best = 0;

  if (sizes == NULL)
    return 0;

  tokens = g_strsplit_set (sizes, " \t\n,", 32);
  for (guint i = 0; tokens[i] != NULL; i++)
    {
      guint64 w = 0;
      guint64 h = 0;
      char *x;

      if (g_ascii_strcasecmp (tokens[i], "any") == 0)
        return -1;
      x = strpbrk (tokens[i], "xX");
      if (x == NULL)
        continue;
      *x = '\0';
      if (!g_ascii_string_to_unsigned (tokens[i], 10, 1, 8192, &w, NULL) ||
          !g_ascii_string_to_unsigned (x + 1, 10, 1, 8192, &h, NULL))
        continue;
      best = MAX (best, (int) MAX (w, h));
    }

  return best;
}

void
nearby_page_meta_free (NearbyPageMeta *meta)
{
  if (meta == NULL)
    return;

  g_free (meta->charset);
  g_free (meta->title);
  g_free (meta->description);
  g_free (meta->canonical_url);
  g_free (meta->manifest_url);
  g_free (meta->refresh_url);
  g_clear_pointer (&meta->icons, g_ptr_array_unref);
  g_free (meta);
}

/* Decoding */

static void
append_utf8_sanitized (NearbyPageMetaParser *self,
                       const char           *text,
                       gsize                 len)
{
  gsize start = self->converted->len;
  char *p;
  char *end;

  /* libxml2 gets UTF-8 without NUL bytes, which it would take as the end of the text. Copied
   * whole and mended after: byte by byte, this was a tenth of the CPU of resolving a page. */
  g_string_append_len (self->converted, text, len);
  p = self->converted->str + start;
  end = self->converted->str + self->converted->len;
  while ((p = memchr (p, '\0', end - p)) != NULL)
    *p++ = ' ';
}

static void
convert_utf8 (NearbyPageMetaParser *self,
              const guint8         *data,
              gsize                 len,
              gboolean              final)
{
  g_autofree guint8 *joined = NULL;
  const guint8 *p;
  const guint8 *end;

  if (len == 0 && self->pending_len == 0)
    return;

  if (self->pending_len > 0)
    {
      joined = g_malloc (self->pending_len + len);
      memcpy (joined, self->pending, self->pending_len);
      if (len > 0)
        memcpy (joined + self->pending_len, data, len);
      len += self->pending_len;
      data = joined;
      self->pending_len = 0;
    }

  p = data;
  end = data + len;
  while (p < end)
    {
      const char *valid_end = NULL;
      gunichar c;

      if (nearby_text_validate_utf8 ((const char *) p, end - p, &valid_end))
        {
          append_utf8_sanitized (self, (const char *) p, end - p);
          break;
        }
      append_utf8_sanitized (self, (const char *) p, (const guint8 *) valid_end - p);
      p = (const guint8 *) valid_end;

      if (*p == '\0')
        {
          g_string_append_c (self->converted, ' ');
          p++;
          continue;
        }

      c = g_utf8_get_char_validated ((const char *) p, end - p);
      if (c == (gunichar) -2 && !final && (gsize) (end - p) < sizeof self->pending)
        {
          memcpy (self->pending, p, end - p);
          self->pending_len = end - p;
          break;
        }
      /* A sequence cut by the end of what is read is no sign of another encoding. */
      if (self->guessed_utf8 != NULL && !(c == (gunichar) -2 && final))
        {
          self->not_utf8 = TRUE;
          return;
        }
      g_string_append (self->converted, "\xef\xbf\xbd");
      p++;
    }
}

static void
convert_iconv (NearbyPageMetaParser *self,
               const guint8         *data,
               gsize                 len,
               gboolean              final)
{
  g_autofree guint8 *joined = NULL;
  char out_buf[4096];
  char *in;
  gsize in_left;

  if (len == 0 && self->pending_len == 0)
    return;

  if (self->pending_len > 0)
    {
      joined = g_malloc (self->pending_len + len);
      memcpy (joined, self->pending, self->pending_len);
      if (len > 0)
        memcpy (joined + self->pending_len, data, len);
      len += self->pending_len;
      data = joined;
      self->pending_len = 0;
    }

  in = (char *) data;
  in_left = len;
  while (in_left > 0)
    {
      char *out = out_buf;
      gsize out_left = sizeof out_buf;
      gsize result = g_iconv (self->converter, &in, &in_left, &out, &out_left);
      int saved_errno = errno;

      append_utf8_sanitized (self, out_buf, out - out_buf);

      if (result != (gsize) -1)
        break;

      if (saved_errno == E2BIG)
        continue;
      if (saved_errno == EINVAL && !final && in_left < sizeof self->pending)
        {
          memcpy (self->pending, in, in_left);
          self->pending_len = in_left;
          break;
        }
      /* An invalid or truncated sequence: one replacement character, then go on. */
      g_string_append (self->converted, "\xef\xbf\xbd");
      in++;
      in_left--;
    }
}

/* Where the source's own <body> tag starts in @text, or -1. A "<body" in a comment or a script
 * counts too: it only ends the reading sooner, as the first real content would. */
static gssize
find_body_tag (const char *text,
               gsize       len)
{
  static const char tag[] = "<body";
  const gsize tag_len = sizeof tag - 1;
  const char *p = text;
  const char *end = text + len;

  while ((p = memchr (p, '<', end - p)) != NULL && (gsize) (end - p) > tag_len)
    {
      if (g_ascii_strncasecmp (p, tag, tag_len) == 0 &&
          (g_ascii_isspace (p[tag_len]) || p[tag_len] == '>' || p[tag_len] == '/'))
        return p - text;
      p++;
    }

  return -1;
}

/* How many bytes at the end of @text are a tag not closed yet. libxml2 2.9's push parser loses
 * the rest of the document when a chunk ends inside the end tag of a <script> or a <style>
 * ("</scr"), so it is only ever given whole tags; it waits for the '>' of a tag anyway. */
static gsize
unfinished_tag_length (const char *text,
                       gsize       len)
{
  for (gsize i = len; i > 0; i--)
    {
      if (text[i - 1] == '>')
        return 0;
      if (text[i - 1] == '<')
        return len - (i - 1);
    }

  return 0;
}

static void
feed_parser (NearbyPageMetaParser *self,
             const char           *text,
             gsize                 len)
{
  htmlParseChunk (self->context, text, (int) len, 0);
}

/* Has libxml2 taken everything it was given, having just opened a <script> or a <style>? Then
 * it waits at the start of the element's content, and an end tag is all it needs next. */
static gboolean
opened_raw_text (NearbyPageMetaParser *self)
{
  xmlParserInputPtr input = self->context->input;

  return self->raw_text_opened && input != NULL && input->cur == input->end;
}

/* The text is handed to libxml2 in parts, at two kinds of places. The source's <body> tag ends
 * its head: libxml2 may have ended the head long before (see nearby-page-meta-sax.c), so past
 * this tag is the first place where a page that has given its title and description has
 * nothing more to give, and what comes before the tag is parsed before the tag counts as
 * passed. And the end of each <script> and <style> start tag: once libxml2 has opened the
 * element there, its content is passed over (see nearby-page-meta-raw-text.c) and libxml2 is
 * given the end tag next. */
static void
parse_converted (NearbyPageMetaParser *self,
                 gboolean              terminate)
{
  /* What is taken is dropped from the front of the text once, at the end: dropped part by
   * part, the rest of a chunk was moved again for every script in it. */
  gsize taken = 0;

  if (self->context == NULL || self->not_utf8)
    return;

  while (!self->done)
    {
      const char *text = self->converted->str + taken;
      gsize len = self->converted->len - taken;
      NearbyPageMetaRawText kind = NEARBY_PAGE_META_RAW_TEXT_NONE;
      gssize body_at = -1;
      gssize raw_text_at;

      if (self->raw_text != NEARBY_PAGE_META_RAW_TEXT_NONE)
        {
          gsize consumed = 0;
          gssize end_tag_at = _nearby_page_meta_skip_raw_text (self->raw_text,
                                                               &self->raw_text_state,
                                                               text, len, &consumed);

          if (end_tag_at < 0)
            {
              /* An element never ended: the rest of the page is its content. */
              taken += terminate ? len : consumed;
              break;
            }
          taken += end_tag_at;
          self->raw_text = NEARBY_PAGE_META_RAW_TEXT_NONE;
          continue;
        }

      if (!terminate)
        len -= unfinished_tag_length (text, len);
      /* Each part is searched once: the body tag only up to the next script or style. */
      raw_text_at = _nearby_page_meta_find_raw_text_start (text, len, &kind);
      if (!self->body_tag_passed)
        body_at = find_body_tag (text, raw_text_at >= 0 ? (gsize) raw_text_at : len);

      if (body_at >= 0)
        {
          feed_parser (self, text, body_at);
          taken += body_at;
          self->body_tag_passed = TRUE;
        }
      else if (raw_text_at >= 0)
        {
          feed_parser (self, text, raw_text_at);
          taken += raw_text_at;
          if (opened_raw_text (self))
            {
              self->raw_text = kind;
              self->raw_text_state = 0;
            }
        }
      else
        {
          if (len > 0)
            feed_parser (self, text, len);
          taken += len;
          break;
        }
    }
  g_string_erase (self->converted, 0, taken);

  if (terminate && !self->done)
    htmlParseChunk (self->context, NULL, 0, 1);
}

static void
start_parser (NearbyPageMetaParser *self)
{
  htmlSAXHandler sax;
  gsize bom_len = 0;

  self->charset = nearby_text_sniff_charset (self->header_charset, self->prefix->data,
                                             self->prefix->len, &bom_len);
  self->charset_is_utf8 = g_str_equal (self->charset, "UTF-8");
  if (self->charset_is_utf8 &&
      !nearby_text_charset_is_declared (self->header_charset, self->prefix->data, self->prefix->len))
    self->guessed_utf8 = g_byte_array_new ();
  if (!self->charset_is_utf8)
    {
      self->converter = g_iconv_open ("UTF-8", self->charset);
      if (self->converter == (GIConv) -1)
        {
          self->charset = "WINDOWS-1252";
          self->converter = g_iconv_open ("UTF-8", self->charset);
        }
    }

  _nearby_page_meta_init_sax (&sax);

  self->context = htmlCreatePushParserCtxt (&sax, self, NULL, 0, NULL, XML_CHAR_ENCODING_UTF8);
  if (self->context == NULL)
    {
      self->done = TRUE;
      return;
    }
  htmlCtxtUseOptions (self->context,
                      HTML_PARSE_NONET | HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING |
                      HTML_PARSE_RECOVER | HTML_PARSE_IGNORE_ENC | HTML_PARSE_NOBLANKS);

  if (self->guessed_utf8 != NULL)
    g_byte_array_append (self->guessed_utf8, self->prefix->data, self->prefix->len);
  if (self->prefix->len > bom_len)
    {
      if (self->charset_is_utf8)
        convert_utf8 (self, self->prefix->data + bom_len, self->prefix->len - bom_len, FALSE);
      else
        convert_iconv (self, self->prefix->data + bom_len, self->prefix->len - bom_len, FALSE);
    }
  g_byte_array_set_size (self->prefix, 0);
  parse_converted (self, FALSE);
}

/* The end of the input, real or imposed by the cap: libxml2 delivers the text it holds back. */
static void
terminate_parsing (NearbyPageMetaParser *self)
{
  if (self->context == NULL && !self->done)
    start_parser (self);

  if (!self->done)
    {
      if (self->charset_is_utf8)
        convert_utf8 (self, NULL, 0, TRUE);
      else if (self->converter != (GIConv) -1)
        convert_iconv (self, NULL, 0, TRUE);
      parse_converted (self, TRUE);
      self->done = TRUE;
    }
}

NearbyPageMetaParser *
nearby_page_meta_parser_new (const char *base_url,
                             const char *header_charset)
{
  NearbyPageMetaParser *self = g_new0 (NearbyPageMetaParser, 1);

  self->document_url = g_strdup (base_url);
  self->header_charset = g_strdup (header_charset);
  self->prefix = g_byte_array_new ();
  self->converted = g_string_new (NULL);
  self->converter = (GIConv) -1;
  _nearby_page_meta_init_document (self);

  return self;
}

/* A page that declares no encoding is UTF-8 only if all of it is, as the guess would have said
 * had it seen the whole page at once: the first byte that is not starts it over. */
static void
start_over_as_windows_1252 (NearbyPageMetaParser *self)
{
  NearbyPageMetaParser *old = nearby_page_meta_parser_new (self->document_url, "windows-1252");
  g_autoptr(GByteArray) raw = g_steal_pointer (&self->guessed_utf8);
  NearbyPageMetaParser swap;

  g_debug ("%s: not UTF-8 after %u bytes, read again as windows-1252", self->document_url,
           raw->len);
  swap = *old;
  *old = *self;
  *self = swap;
  nearby_page_meta_parser_free (old);

  nearby_page_meta_parser_feed (self, raw->data, raw->len);
}

/* Returns FALSE once the parser has seen enough: stop reading. */
gboolean
nearby_page_meta_parser_feed (NearbyPageMetaParser *self,
                              const guint8         *data,
                              gsize                 len)
{
  g_return_val_if_fail (self != NULL, FALSE);

  if (self->done)
    return FALSE;

  if (self->raw_bytes + len > NEARBY_PAGE_META_MAX_HTML)
    len = NEARBY_PAGE_META_MAX_HTML - self->raw_bytes;
  self->raw_bytes += len;

  if (self->context == NULL)
    {
      g_byte_array_append (self->prefix, data, len);
      if (self->prefix->len >= NEARBY_TEXT_PRESCAN_BYTES)
        start_parser (self);
    }
  else
    {
      if (self->guessed_utf8 != NULL)
        g_byte_array_append (self->guessed_utf8, data, len);
      if (self->charset_is_utf8)
        convert_utf8 (self, data, len, FALSE);
      else
        convert_iconv (self, data, len, FALSE);
      parse_converted (self, FALSE);
    }

  if (self->raw_bytes >= NEARBY_PAGE_META_MAX_HTML)
    terminate_parsing (self);

  if (self->not_utf8)
    start_over_as_windows_1252 (self);

  return !self->done;
}

NearbyPageMeta *
nearby_page_meta_parser_finish (NearbyPageMetaParser *self)
{
  NearbyPageMeta *meta;
  g_autofree char *base = NULL;
  g_autofree char *refresh = NULL;

  g_return_val_if_fail (self != NULL, NULL);

  terminate_parsing (self);
  if (self->not_utf8)
    {
      start_over_as_windows_1252 (self);
      terminate_parsing (self);
    }

  meta = g_new0 (NearbyPageMeta, 1);
  meta->charset = g_strdup (self->charset ? self->charset : "UTF-8");
  meta->bytes_parsed = self->raw_bytes;
  meta->icons = g_ptr_array_new_with_free_func ((GDestroyNotify) nearby_page_icon_free);

  base = nearby_url_resolve (self->document_url, self->base_href);
  if (base == NULL)
    base = g_strdup (self->document_url);

  meta->title = nearby_text_clean_or_null (self->title_text->str, self->title_text->len,
                                           NEARBY_PAGE_META_MAX_TITLE);
  if (meta->title == NULL)
    meta->title = nearby_text_clean_or_null (self->og_title, -1, NEARBY_PAGE_META_MAX_TITLE);
  if (meta->title == NULL)
    meta->title = nearby_text_clean_or_null (self->twitter_title, -1, NEARBY_PAGE_META_MAX_TITLE);

  meta->description = nearby_text_clean_or_null (self->meta_description, -1,
                                                 NEARBY_PAGE_META_MAX_DESC);
  if (meta->description == NULL)
    meta->description = nearby_text_clean_or_null (self->og_description, -1,
                                                   NEARBY_PAGE_META_MAX_DESC);
  if (meta->description == NULL)
    meta->description = nearby_text_clean_or_null (self->twitter_description, -1,
                                                   NEARBY_PAGE_META_MAX_DESC);
  if (meta->description == NULL)
    meta->description = nearby_text_clean_or_null (self->content_text->str,
                                                   self->content_text->len,
                                                   NEARBY_PAGE_META_MAX_DESC);
  if (meta->description == NULL)
    meta->description = nearby_text_clean_or_null (self->leading_text->str,
                                                   self->leading_text->len,
                                                   NEARBY_PAGE_META_MAX_DESC);

  refresh = _nearby_page_meta_parse_refresh (self->refresh);
  meta->refresh_url = nearby_url_resolve (base, refresh);
  if (meta->refresh_url != NULL && g_strcmp0 (meta->refresh_url, self->document_url) == 0)
    g_clear_pointer (&meta->refresh_url, g_free);

  meta->canonical_url = nearby_url_resolve (base, self->canonical_href);
  if (meta->canonical_url == NULL)
    meta->canonical_url = nearby_url_resolve (base, self->og_url);
  meta->manifest_url = nearby_url_resolve (base, self->manifest_href);

  for (guint i = 0; i < self->icon_links->len; i++)
    {
      NearbyPageIcon *link = g_ptr_array_index (self->icon_links, i);
      g_autofree char *url = nearby_url_resolve (base, link->url);

      if (url != NULL)
        g_ptr_array_add (meta->icons,
                         nearby_page_icon_new (url, link->rel, link->type, link->size));
    }

  return meta;
}

void
nearby_page_meta_parser_free (NearbyPageMetaParser *self)
{
  if (self == NULL)
    return;

  if (self->context != NULL)
    htmlFreeParserCtxt (self->context);
  if (self->converter != (GIConv) -1)
    g_iconv_close (self->converter);
  g_free (self->document_url);
  g_free (self->header_charset);
  g_byte_array_unref (self->prefix);
  g_clear_pointer (&self->guessed_utf8, g_byte_array_unref);
  g_string_free (self->converted, TRUE);
  _nearby_page_meta_clear_document (self);
  g_free (self);
}

NearbyPageMeta *
nearby_page_meta_parse (const char   *base_url,
                        const char   *header_charset,
                        const guint8 *data,
                        gsize         len)
{
  g_autoptr(NearbyPageMetaParser) parser = nearby_page_meta_parser_new (base_url, header_charset);

  nearby_page_meta_parser_feed (parser, data, len);

  return nearby_page_meta_parser_finish (parser);
}
