/* nearby-page-meta-private.h: the page metadata parser's state, shared by its two files
 *
 * Included by nearby-page-meta.c (bytes in, metadata out) and nearby-page-meta-sax.c (what the
 * document's elements give) only.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <libxml/HTMLparser.h>

#include "nearby-page-meta.h"

G_BEGIN_DECLS

#define NEARBY_PAGE_META_MAX_RAW_TEXT (8 * 1024)  /* bytes of title or body text kept */

typedef enum {
  NEARBY_PAGE_META_RAW_TEXT_NONE,
  NEARBY_PAGE_META_RAW_TEXT_SCRIPT,
  NEARBY_PAGE_META_RAW_TEXT_STYLE,
} NearbyPageMetaRawText;

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

  GArray            *open_elements;   /* of OpenElement */
  guint              inert_depth;
  guint              hidden_depth;
  guint              chrome_depth;
  guint              content_depth;
  gboolean           content_started;
  gboolean           body_tag_passed;
  gboolean           raw_text_opened; /* libxml2's last event opened a <script> or <style> */
  NearbyPageMetaRawText raw_text;     /* whose content is being passed over */
  guint              raw_text_state;

  gboolean           in_title;
  gboolean           title_seen;
  GString           *title_text;
  GString           *leading_text;    /* before the page's own text, outside its furniture */
  GString           *content_text;    /* from the page's own text on */
  char              *meta_description;
  char              *og_title;
  char              *og_description;
  char              *og_url;
  char              *twitter_title;
  char              *twitter_description;
  char              *refresh;
  char              *canonical_href;
  char              *manifest_href;
  GPtrArray         *icon_links;      /* of NearbyPageIcon with the raw href as url */
};

void      _nearby_page_meta_init_sax        (htmlSAXHandler       *sax);
void      _nearby_page_meta_init_document   (NearbyPageMetaParser *self);
void      _nearby_page_meta_clear_document  (NearbyPageMetaParser *self);
gboolean  _nearby_page_meta_has_title       (NearbyPageMetaParser *self);
gboolean  _nearby_page_meta_has_description (NearbyPageMetaParser *self);
void      _nearby_page_meta_stop            (NearbyPageMetaParser *self);
char     *_nearby_page_meta_parse_refresh   (const char           *content);

gssize    _nearby_page_meta_find_raw_text_start (const char            *text,
                                                 gsize                  len,
                                                 NearbyPageMetaRawText *kind);
gssize    _nearby_page_meta_skip_raw_text       (NearbyPageMetaRawText  kind,
                                                 guint                 *state,
                                                 const char            *text,
                                                 gsize                  len,
                                                 gsize                 *consumed);

G_END_DECLS
