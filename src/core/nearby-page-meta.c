/* nearby-page-meta.c
 *
 * The HTML comes from whatever server a beacon names, so everything here is bounded: bytes
 * taken, text kept, icons listed. Bytes are decoded to UTF-8 by us (so libxml2 never guesses
 * an encoding) and handed to libxml2's push parser, which only reports SAX events; parsing
 * stops once the head is done.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "nearby-page-meta"

#include "config.h"

#include <errno.h>
#include <string.h>

#include <libxml/HTMLparser.h>
#include <libxml/parserInternals.h>

#include "nearby-page-meta.h"
#include "nearby-text.h"
#include "nearby-url-policy.h"

#define MAX_RAW_TEXT       (8 * 1024)   /* bytes of title or body text kept before cleaning */

struct _NearbyPageMetaParser
{
  char              *document_url;
  char              *header_charset;
  char              *base_href;

  GByteArray        *prefix;          /* raw bytes held back until the charset is known */
  const char        *charset;
  gboolean           charset_is_utf8;
  GByteArray        *guessed_utf8;    /* the raw bytes so far, while UTF-8 is only a guess */
  gboolean           not_utf8;        /* ... and a byte has shown it wrong */
  GIConv             converter;
  guint8             pending[16];     /* an incomplete multibyte sequence between chunks */
  gsize              pending_len;
  GString           *converted;

  htmlParserCtxtPtr  context;
  gsize              raw_bytes;
  gboolean           done;

  gboolean           in_title;
  gboolean           title_seen;
  gboolean           in_body;
  guint              skip_depth;
  GString           *title_text;
  GString           *body_text;
  char              *meta_description;
  char              *og_title;
  char              *og_description;
  char              *og_url;
  char              *canonical_href;
  char              *manifest_href;
  GPtrArray         *icon_links;      /* of NearbyPageIcon with the raw href as url */
};

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
  g_clear_pointer (&meta->icons, g_ptr_array_unref);
  g_free (meta);
}

/* SAX */

static const char *
find_attr (const xmlChar **attrs,
           const char     *name)
{
  if (attrs == NULL)
    return NULL;

  for (guint i = 0; attrs[i] != NULL; i += 2)
    {
      if (g_ascii_strcasecmp ((const char *) attrs[i], name) == 0)
        return attrs[i + 1] ? (const char *) attrs[i + 1] : "";
    }

  return NULL;
}

static gboolean
has_rel_token (const char *rel,
               const char *token)
{
  g_auto(GStrv) tokens = NULL;

  if (rel == NULL)
    return FALSE;

  tokens = g_strsplit_set (rel, " \t\n\r\f", 16);
  for (guint i = 0; tokens[i] != NULL; i++)
    {
      if (g_ascii_strcasecmp (tokens[i], token) == 0)
        return TRUE;
    }

  return FALSE;
}

static gboolean
is_skipped_element (const char *name)
{
  static const char * const skipped[] = {
    "script", "style", "noscript", "template", "svg", "math", "select", "textarea",
    "iframe", "object", "nav", "button", "head", "title",
  };

  for (guint i = 0; i < G_N_ELEMENTS (skipped); i++)
    {
      if (g_ascii_strcasecmp (name, skipped[i]) == 0)
        return TRUE;
    }

  return FALSE;
}

static gboolean
has_description (NearbyPageMetaParser *self)
{
  return (self->meta_description != NULL && *self->meta_description != '\0') ||
         (self->og_description != NULL && *self->og_description != '\0');
}

static void
stop_parsing (NearbyPageMetaParser *self)
{
  if (self->done)
    return;

  self->done = TRUE;
  if (self->context != NULL)
    xmlStopParser (self->context);
}

static void
set_once (char       **field,
          const char  *value)
{
  if (*field == NULL && value != NULL)
    *field = g_strndup (value, MAX_RAW_TEXT);
}

static void
handle_meta (NearbyPageMetaParser *self,
             const xmlChar       **attrs)
{
  const char *name = find_attr (attrs, "name");
  const char *property = find_attr (attrs, "property");
  const char *content = find_attr (attrs, "content");
  const char *key = property ? property : name;

  if (key == NULL || content == NULL)
    return;

  if (g_ascii_strcasecmp (key, "description") == 0)
    set_once (&self->meta_description, content);
  else if (g_ascii_strcasecmp (key, "og:title") == 0)
    set_once (&self->og_title, content);
  else if (g_ascii_strcasecmp (key, "og:description") == 0)
    set_once (&self->og_description, content);
  else if (g_ascii_strcasecmp (key, "og:url") == 0)
    set_once (&self->og_url, content);
}

static void
handle_link (NearbyPageMetaParser *self,
             const xmlChar       **attrs)
{
  const char *rel = find_attr (attrs, "rel");
  const char *href = find_attr (attrs, "href");
  const char *icon_rel = NULL;

  if (rel == NULL || href == NULL || *href == '\0')
    return;

  if (has_rel_token (rel, "canonical"))
    set_once (&self->canonical_href, href);
  if (has_rel_token (rel, "manifest"))
    set_once (&self->manifest_href, href);

  if (has_rel_token (rel, "apple-touch-icon") || has_rel_token (rel, "apple-touch-icon-precomposed"))
    icon_rel = "apple-touch-icon";
  else if (has_rel_token (rel, "icon"))
    icon_rel = "icon";

  if (icon_rel != NULL && self->icon_links->len < NEARBY_PAGE_META_MAX_ICONS &&
      strlen (href) <= NEARBY_URL_MAX_LEN)
    {
      int size = nearby_page_icon_parse_sizes (find_attr (attrs, "sizes"));

      g_ptr_array_add (self->icon_links,
                       nearby_page_icon_new (href, icon_rel, find_attr (attrs, "type"), size));
    }
}

static void
sax_start_element (void           *user_data,
                   const xmlChar  *xml_name,
                   const xmlChar **attrs)
{
  NearbyPageMetaParser *self = user_data;
  const char *name = (const char *) xml_name;

  if (self->done || name == NULL)
    return;

  if (g_ascii_strcasecmp (name, "body") == 0)
    {
      self->in_body = TRUE;
      self->in_title = FALSE;
      if (has_description (self))
        stop_parsing (self);
      return;
    }

  if (self->in_body)
    {
      if (is_skipped_element (name))
        self->skip_depth++;
      else if (self->body_text->len > 0)
        g_string_append_c (self->body_text, ' ');
      return;
    }

  if (g_ascii_strcasecmp (name, "title") == 0 && !self->title_seen)
    self->in_title = TRUE;
  else if (g_ascii_strcasecmp (name, "meta") == 0)
    handle_meta (self, attrs);
  else if (g_ascii_strcasecmp (name, "link") == 0)
    handle_link (self, attrs);
  else if (g_ascii_strcasecmp (name, "base") == 0)
    set_once (&self->base_href, find_attr (attrs, "href"));
}

static void
sax_end_element (void          *user_data,
                 const xmlChar *xml_name)
{
  NearbyPageMetaParser *self = user_data;
  const char *name = (const char *) xml_name;

  if (self->done || name == NULL)
    return;

  if (self->in_body)
    {
      if (is_skipped_element (name) && self->skip_depth > 0)
        self->skip_depth--;
      return;
    }

  if (g_ascii_strcasecmp (name, "title") == 0 && self->in_title)
    {
      self->in_title = FALSE;
      self->title_seen = TRUE;
    }
  else if (g_ascii_strcasecmp (name, "head") == 0 && has_description (self))
    {
      stop_parsing (self);
    }
}

static void
sax_characters (void          *user_data,
                const xmlChar *text,
                int            len)
{
  NearbyPageMetaParser *self = user_data;

  if (self->done || len <= 0)
    return;

  if (self->in_title)
    {
      if (self->title_text->len < MAX_RAW_TEXT)
        g_string_append_len (self->title_text, (const char *) text,
                             MIN ((gsize) len, MAX_RAW_TEXT - self->title_text->len));
    }
  else if (self->in_body && self->skip_depth == 0)
    {
      g_string_append_len (self->body_text, (const char *) text,
                           MIN ((gsize) len, MAX_RAW_TEXT - self->body_text->len));
      /* Enough leading text for a description, even in a script-heavy alphabet. */
      if (self->body_text->len >= 4 * NEARBY_PAGE_META_MAX_DESC ||
          self->body_text->len >= MAX_RAW_TEXT)
        stop_parsing (self);
    }
}

/* libxml2 2.12 made the structured error const; Debian 12 has 2.9, the Flatpak runtime 2.14. */
#if LIBXML_VERSION >= 21200
typedef const xmlError SaxError;
#else
typedef xmlError SaxError;
#endif

static void
sax_silent_error (void             *user_data,
                  SaxError         *error)
{
}

/* Decoding */

static void
append_utf8_sanitized (NearbyPageMetaParser *self,
                       const char           *text,
                       gsize                 len)
{
  /* libxml2 gets UTF-8 without NUL bytes, which it would take as the end of the text. */
  for (gsize i = 0; i < len; i++)
    g_string_append_c (self->converted, text[i] == '\0' ? ' ' : text[i]);
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

      if (g_utf8_validate_len ((const char *) p, end - p, &valid_end))
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
parse_converted (NearbyPageMetaParser *self,
                 gboolean              terminate)
{
  gsize held_back = 0;

  if (self->context == NULL || self->not_utf8)
    return;

  if (!terminate)
    held_back = unfinished_tag_length (self->converted->str, self->converted->len);

  if (!self->done && (self->converted->len > held_back || terminate))
    htmlParseChunk (self->context, self->converted->str,
                    (int) (self->converted->len - held_back), terminate);
  g_string_erase (self->converted, 0, self->converted->len - held_back);
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

  memset (&sax, 0, sizeof sax);
  sax.startElement = sax_start_element;
  sax.endElement = sax_end_element;
  sax.characters = sax_characters;
  sax.serror = sax_silent_error;
  sax.initialized = XML_SAX2_MAGIC;

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
  self->title_text = g_string_new (NULL);
  self->body_text = g_string_new (NULL);
  self->icon_links = g_ptr_array_new_with_free_func ((GDestroyNotify) nearby_page_icon_free);

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

  meta->description = nearby_text_clean_or_null (self->meta_description, -1,
                                                 NEARBY_PAGE_META_MAX_DESC);
  if (meta->description == NULL)
    meta->description = nearby_text_clean_or_null (self->og_description, -1,
                                                   NEARBY_PAGE_META_MAX_DESC);
  if (meta->description == NULL)
    meta->description = nearby_text_clean_or_null (self->body_text->str, self->body_text->len,
                                                   NEARBY_PAGE_META_MAX_DESC);

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
  g_free (self->base_href);
  g_byte_array_unref (self->prefix);
  g_clear_pointer (&self->guessed_utf8, g_byte_array_unref);
  g_string_free (self->converted, TRUE);
  g_string_free (self->title_text, TRUE);
  g_string_free (self->body_text, TRUE);
  g_free (self->meta_description);
  g_free (self->og_title);
  g_free (self->og_description);
  g_free (self->og_url);
  g_free (self->canonical_href);
  g_free (self->manifest_href);
  g_ptr_array_unref (self->icon_links);
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
