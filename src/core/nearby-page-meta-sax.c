/* nearby-page-meta-sax.c
 *
 * What a page's elements give, taken the way a browser builds the document rather than the way
 * libxml2 does. libxml2 ends <head> at the first element it does not expect there (an
 * <iframe>, a <div>, an unknown tag: tag managers, consent and A/B-test snippets put them at the
 * top of real heads), and reports everything after it as body. A browser does too, but in the
 * HTML standard's tree construction a <title>, <meta>, <link> or <base> met "in body" is
 * processed with the rules for "in head", and document.title is the first <title> element in
 * the document, wherever it is. So these are taken wherever they appear until the page's own
 * text begins ("the first real content"): the first non-blank text inside <main>, <article>, a
 * <p> or a heading that is not in the site's furniture (<nav>, <header>, <footer>, <aside>,
 * dialogs, the navigation, banner, contentinfo, complementary and search landmarks, skip links),
 * not hidden and not in an element a browser does not render as text. That bound is ours, not
 * the standard's: a browser reads the whole page, we stop where pages stop describing themselves,
 * and where that leaves no description the text from there on is the description.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "nearby-page-meta"

#include "config.h"

#include <string.h>

#include "nearby-page-meta-private.h"
#include "nearby-url-policy.h"

#define ENOUGH_TEXT        (4 * NEARBY_PAGE_META_MAX_DESC)
#define MAX_OPEN_ELEMENTS  1024

/* Where an element puts its content, as far as a row's text is concerned. */
typedef enum {
  SCOPE_INERT   = 1 << 0,  /* not part of the document a browser shows: no metadata, no text */
  SCOPE_HIDDEN  = 1 << 1,  /* rendered as no text */
  SCOPE_CHROME  = 1 << 2,  /* the site's navigation and furniture, not the page's own text */
  SCOPE_CONTENT = 1 << 3,  /* where the page's own text is: main, article, p, headings */
} Scope;

typedef struct {
  char  *name;
  guint  scopes;
} OpenElement;

static void
clear_open_element (gpointer data)
{
  g_free (((OpenElement *) data)->name);
}

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
has_token (const char *list,
           const char *token)
{
  g_auto(GStrv) tokens = NULL;

  if (list == NULL)
    return FALSE;

  tokens = g_strsplit_set (list, " \t\n\r\f", 16);
  for (guint i = 0; tokens[i] != NULL; i++)
    {
      if (g_ascii_strcasecmp (tokens[i], token) == 0)
        return TRUE;
    }

  return FALSE;
}

static gboolean
name_is_one_of (const char         *name,
                const char * const *names)
{
  for (guint i = 0; names[i] != NULL; i++)
    {
      if (g_ascii_strcasecmp (name, names[i]) == 0)
        return TRUE;
    }

  return FALSE;
}

/* A browser runs scripts, so <noscript> is raw text to it, and <iframe>, <noembed> and
 * <noframes> always are; <template> content and foreign (SVG, MathML) elements are not the
 * document's: a <title> inside them is not document.title. libxml2 2.9 parses all of them as
 * elements, so they are set aside here. */
static guint
classify_element (const char     *name,
                  const xmlChar **attrs)
{
  static const char * const inert[] = {
    "template", "noscript", "iframe", "noembed", "noframes", "svg", "math", "frameset", NULL,
  };
  static const char * const hidden[] = {
    "script", "style", "select", "textarea", "button", "object", "datalist", "title", NULL,
  };
  static const char * const chrome[] = { "nav", "header", "footer", "aside", "dialog", NULL };
  static const char * const content[] = {
    "main", "article", "p", "h1", "h2", "h3", "h4", "h5", "h6", NULL,
  };
  static const char * const chrome_roles[] = {
    "navigation", "banner", "contentinfo", "complementary", "search", "dialog", "alertdialog",
    NULL,
  };
  const char *role = find_attr (attrs, "role");
  const char *aria_hidden = find_attr (attrs, "aria-hidden");
  guint scopes = 0;

  if (name_is_one_of (name, inert))
    return SCOPE_INERT;

  if (name_is_one_of (name, hidden) || find_attr (attrs, "hidden") != NULL ||
      (aria_hidden != NULL && g_ascii_strcasecmp (aria_hidden, "true") == 0))
    scopes |= SCOPE_HIDDEN;

  if (name_is_one_of (name, chrome))
    scopes |= SCOPE_CHROME;
  for (guint i = 0; role != NULL && chrome_roles[i] != NULL; i++)
    {
      if (has_token (role, chrome_roles[i]))
        scopes |= SCOPE_CHROME;
    }
  /* Skip links ("Skip to content") and other jumps within the page */
  if (g_ascii_strcasecmp (name, "a") == 0)
    {
      const char *href = find_attr (attrs, "href");

      if (href != NULL && g_str_has_prefix (href, "#"))
        scopes |= SCOPE_CHROME;
    }

  if (name_is_one_of (name, content) || has_token (role, "main") || has_token (role, "article"))
    scopes |= SCOPE_CONTENT;

  return scopes;
}

static gboolean
is_blank (const xmlChar *text,
          int            len)
{
  for (int i = 0; i < len; i++)
    {
      if (!g_ascii_isspace (text[i]))
        return FALSE;
    }

  return TRUE;
}

gboolean
_nearby_page_meta_has_title (NearbyPageMetaParser *self)
{
  return (self->title_seen && !is_blank ((const xmlChar *) self->title_text->str,
                                         self->title_text->len)) ||
         (self->og_title != NULL && *self->og_title != '\0') ||
         (self->twitter_title != NULL && *self->twitter_title != '\0');
}

gboolean
_nearby_page_meta_has_description (NearbyPageMetaParser *self)
{
  return (self->meta_description != NULL && *self->meta_description != '\0') ||
         (self->og_description != NULL && *self->og_description != '\0') ||
         (self->twitter_description != NULL && *self->twitter_description != '\0');
}

void
_nearby_page_meta_stop (NearbyPageMetaParser *self)
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
    *field = g_strndup (value, NEARBY_PAGE_META_MAX_RAW_TEXT);
}

static void
handle_meta (NearbyPageMetaParser *self,
             const xmlChar       **attrs)
{
  static const struct { const char *key; gsize offset; } fields[] = {
    { "description", G_STRUCT_OFFSET (NearbyPageMetaParser, meta_description) },
    { "og:title", G_STRUCT_OFFSET (NearbyPageMetaParser, og_title) },
    { "og:description", G_STRUCT_OFFSET (NearbyPageMetaParser, og_description) },
    { "og:url", G_STRUCT_OFFSET (NearbyPageMetaParser, og_url) },
    { "twitter:title", G_STRUCT_OFFSET (NearbyPageMetaParser, twitter_title) },
    { "twitter:description", G_STRUCT_OFFSET (NearbyPageMetaParser, twitter_description) },
  };
  const char *http_equiv = find_attr (attrs, "http-equiv");
  const char *name = find_attr (attrs, "name");
  const char *property = find_attr (attrs, "property");
  const char *content = find_attr (attrs, "content");

  if (content == NULL)
    return;

  if (http_equiv != NULL && g_ascii_strcasecmp (http_equiv, "refresh") == 0)
    {
      set_once (&self->refresh, content);
      return;
    }

  /* Sites put Open Graph keys in name= and Twitter keys in property= as often as the other way
   * round; the first of each key in the document wins, as it does for Open Graph readers. */
  for (guint i = 0; i < G_N_ELEMENTS (fields); i++)
    {
      if ((property != NULL && g_ascii_strcasecmp (property, fields[i].key) == 0) ||
          (name != NULL && g_ascii_strcasecmp (name, fields[i].key) == 0))
        set_once (G_STRUCT_MEMBER_P (self, fields[i].offset), content);
    }
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

  if (has_token (rel, "canonical"))
    set_once (&self->canonical_href, href);
  if (has_token (rel, "manifest"))
    set_once (&self->manifest_href, href);

  if (has_token (rel, "apple-touch-icon") || has_token (rel, "apple-touch-icon-precomposed"))
    icon_rel = "apple-touch-icon";
  else if (has_token (rel, "icon"))
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
append_separator (GString *text)
{
  if (text->len > 0 && text->len < NEARBY_PAGE_META_MAX_RAW_TEXT && text->str[text->len - 1] != ' ')
    g_string_append_c (text, ' ');
}

static void
push_element (NearbyPageMetaParser *self,
              const char           *name,
              guint                 scopes)
{
  OpenElement element = { g_strdup (name), scopes };

  g_array_append_val (self->open_elements, element);
  if (scopes & SCOPE_INERT)
    self->inert_depth++;
  if (scopes & SCOPE_HIDDEN)
    self->hidden_depth++;
  if (scopes & SCOPE_CHROME)
    self->chrome_depth++;
  if (scopes & SCOPE_CONTENT)
    self->content_depth++;
}

/* libxml2 closes what it opened, in order; an end tag it reports for an element that is not
 * open here (it never should) changes nothing. */
static void
pop_element (NearbyPageMetaParser *self,
             const char           *name)
{
  guint i = self->open_elements->len;

  while (i > 0 && g_ascii_strcasecmp (g_array_index (self->open_elements, OpenElement, i - 1).name,
                                      name) != 0)
    i--;
  if (i == 0)
    return;

  while (self->open_elements->len >= i)
    {
      OpenElement *element = &g_array_index (self->open_elements, OpenElement,
                                             self->open_elements->len - 1);

      if (element->scopes & SCOPE_INERT)
        self->inert_depth--;
      if (element->scopes & SCOPE_HIDDEN)
        self->hidden_depth--;
      if (element->scopes & SCOPE_CHROME)
        self->chrome_depth--;
      if (element->scopes & SCOPE_CONTENT)
        self->content_depth--;
      g_array_set_size (self->open_elements, self->open_elements->len - 1);
    }
}

/* The page's own text has begun: no more metadata is taken (see the opening comment), and once
 * a description is known there is nothing left to read. */
static void
start_content (NearbyPageMetaParser *self)
{
  self->content_started = TRUE;
  if (_nearby_page_meta_has_description (self))
    _nearby_page_meta_stop (self);
}

static const char * const head_elements[] = {
  "html", "head", "title", "meta", "link", "base", "script", "style", "noscript", "template",
  NULL,
};

static void
sax_start_element (void           *user_data,
                   const xmlChar  *xml_name,
                   const xmlChar **attrs)
{
  NearbyPageMetaParser *self = user_data;
  const char *name = (const char *) xml_name;
  gboolean takes_metadata;

  if (self->done || name == NULL)
    return;

  if (self->open_elements->len >= MAX_OPEN_ELEMENTS)
    {
      _nearby_page_meta_stop (self);
      return;
    }

  takes_metadata = !self->content_started && self->inert_depth == 0;
  if (takes_metadata && !self->title_seen && !self->in_title &&
      g_ascii_strcasecmp (name, "title") == 0)
    self->in_title = TRUE;
  else if (takes_metadata && g_ascii_strcasecmp (name, "meta") == 0)
    handle_meta (self, attrs);
  else if (takes_metadata && g_ascii_strcasecmp (name, "link") == 0)
    handle_link (self, attrs);
  else if (takes_metadata && g_ascii_strcasecmp (name, "base") == 0)
    set_once (&self->base_href, find_attr (attrs, "href"));

  self->raw_text_opened = g_ascii_strcasecmp (name, "script") == 0 ||
                          g_ascii_strcasecmp (name, "style") == 0;
  append_separator (self->content_started ? self->content_text : self->leading_text);
  push_element (self, name, classify_element (name, attrs));

  /* libxml2 may report the head's last elements after more input has come: only an element
   * that cannot be in a head shows that it has reached the body. */
  if (self->body_tag_passed && !name_is_one_of (name, head_elements) &&
      _nearby_page_meta_has_title (self) && _nearby_page_meta_has_description (self))
    _nearby_page_meta_stop (self);
}

static void
sax_end_element (void          *user_data,
                 const xmlChar *xml_name)
{
  NearbyPageMetaParser *self = user_data;
  const char *name = (const char *) xml_name;

  if (self->done || name == NULL)
    return;

  self->raw_text_opened = FALSE;
  if (self->in_title && g_ascii_strcasecmp (name, "title") == 0)
    {
      self->in_title = FALSE;
      self->title_seen = TRUE;
    }

  pop_element (self, name);
}

static void
sax_characters (void          *user_data,
                const xmlChar *text,
                int            len)
{
  NearbyPageMetaParser *self = user_data;
  GString *buffer;

  if (self->done || len <= 0)
    return;

  self->raw_text_opened = FALSE;
  if (self->in_title)
    {
      if (self->title_text->len < NEARBY_PAGE_META_MAX_RAW_TEXT)
        g_string_append_len (self->title_text, (const char *) text,
                             MIN ((gsize) len, NEARBY_PAGE_META_MAX_RAW_TEXT - self->title_text->len));
      return;
    }

  if (self->inert_depth > 0 || self->hidden_depth > 0 || self->chrome_depth > 0)
    return;

  if (!self->content_started && self->content_depth > 0 && !is_blank (text, len))
    {
      start_content (self);
      if (self->done)
        return;
    }

  buffer = self->content_started ? self->content_text : self->leading_text;
  if (buffer->len < NEARBY_PAGE_META_MAX_RAW_TEXT)
    g_string_append_len (buffer, (const char *) text,
                         MIN ((gsize) len, NEARBY_PAGE_META_MAX_RAW_TEXT - buffer->len));

  /* Enough text for a description, even in a script-heavy alphabet. A page whose text is in
   * no paragraph at all has begun its content by then too. */
  if (buffer->len >= ENOUGH_TEXT)
    {
      if (!self->content_started)
        {
          g_string_append_len (self->content_text, self->leading_text->str,
                               self->leading_text->len);
          g_string_truncate (self->leading_text, 0);
          start_content (self);
        }
      _nearby_page_meta_stop (self);
    }
}

/* libxml2 2.12 made the structured error const. */
#if LIBXML_VERSION >= 21200
static void
sax_silent_error (void             *user_data,
                  const xmlError   *error)
{
}
#else
static void
sax_silent_error (void             *user_data,
                  xmlError         *error)
{
}
#endif

/* <meta http-equiv="refresh" content="0; url=/next">, read as the HTML standard's "shared
 * declarative refresh steps" read it. Returns the URL as written when the page moves on within
 * NEARBY_PAGE_META_MAX_REFRESH_DELAY seconds; a longer delay is a page meant to be read first,
 * and a refresh without a URL reloads the page itself. */
char *
_nearby_page_meta_parse_refresh (const char *content)
{
  const char *p = content;
  guint64 delay = 0;
  gboolean has_digits = FALSE;
  char quote = '\0';
  const char *end;

  if (content == NULL)
    return NULL;

  while (g_ascii_isspace (*p))
    p++;
  for (; g_ascii_isdigit (*p); p++)
    {
      has_digits = TRUE;
      delay = MIN (delay * 10 + (*p - '0'), G_MAXUINT32);
    }
  if (!has_digits && *p != '.')
    return NULL;
  while (g_ascii_isdigit (*p) || *p == '.')
    p++;
  if (delay > NEARBY_PAGE_META_MAX_REFRESH_DELAY || *p == '\0')
    return NULL;
  if (*p != ';' && *p != ',' && !g_ascii_isspace (*p))
    return NULL;

  while (g_ascii_isspace (*p))
    p++;
  if (*p == ';' || *p == ',')
    p++;
  while (g_ascii_isspace (*p))
    p++;

  if (g_ascii_strncasecmp (p, "url", 3) == 0)
    {
      const char *after = p + 3;

      while (g_ascii_isspace (*after))
        after++;
      if (*after == '=')
        {
          p = after + 1;
          while (g_ascii_isspace (*p))
            p++;
        }
    }

  if (*p == '"' || *p == '\'')
    quote = *p++;
  end = quote != '\0' ? strchr (p, quote) : NULL;

  return end != NULL ? g_strndup (p, end - p) : g_strdup (p);
}

void
_nearby_page_meta_init_sax (htmlSAXHandler *sax)
{
  memset (sax, 0, sizeof *sax);
  sax->startElement = sax_start_element;
  sax->endElement = sax_end_element;
  sax->characters = sax_characters;
  sax->serror = sax_silent_error;
  sax->initialized = XML_SAX2_MAGIC;
}

void
_nearby_page_meta_init_document (NearbyPageMetaParser *self)
{
  self->open_elements = g_array_new (FALSE, FALSE, sizeof (OpenElement));
  g_array_set_clear_func (self->open_elements, clear_open_element);
  self->title_text = g_string_new (NULL);
  self->leading_text = g_string_new (NULL);
  self->content_text = g_string_new (NULL);
  self->icon_links = g_ptr_array_new_with_free_func ((GDestroyNotify) nearby_page_icon_free);
}

void
_nearby_page_meta_clear_document (NearbyPageMetaParser *self)
{
  g_clear_pointer (&self->open_elements, g_array_unref);
  g_string_free (g_steal_pointer (&self->title_text), TRUE);
  g_string_free (g_steal_pointer (&self->leading_text), TRUE);
  g_string_free (g_steal_pointer (&self->content_text), TRUE);
  g_clear_pointer (&self->base_href, g_free);
  g_clear_pointer (&self->meta_description, g_free);
  g_clear_pointer (&self->og_title, g_free);
  g_clear_pointer (&self->og_description, g_free);
  g_clear_pointer (&self->og_url, g_free);
  g_clear_pointer (&self->twitter_title, g_free);
  g_clear_pointer (&self->twitter_description, g_free);
  g_clear_pointer (&self->refresh, g_free);
  g_clear_pointer (&self->canonical_href, g_free);
  g_clear_pointer (&self->manifest_href, g_free);
  g_clear_pointer (&self->icon_links, g_ptr_array_unref);
}
