/* nearby-page-meta.h: page metadata from a bounded HTML head, fed in chunks
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define NEARBY_PAGE_META_MAX_HTML      (256 * 1024)
#define NEARBY_PAGE_META_MAX_TITLE     200
#define NEARBY_PAGE_META_MAX_DESC      300
#define NEARBY_PAGE_META_MAX_ICONS     16
/* A <meta http-equiv=refresh> that moves on within this many seconds is a redirect. */
#define NEARBY_PAGE_META_MAX_REFRESH_DELAY 5

typedef struct {
  char *url;    /* absolute http(s) */
  char *rel;    /* "icon", "apple-touch-icon", "manifest" */
  char *type;   /* as declared, may be NULL */
  int   size;   /* largest declared edge in px, 0 unknown, -1 "any" */
} NearbyPageIcon;

NearbyPageIcon *nearby_page_icon_new         (const char     *url,
                                              const char     *rel,
                                              const char     *type,
                                              int             size);
void            nearby_page_icon_free        (NearbyPageIcon *icon);
int             nearby_page_icon_parse_sizes (const char     *sizes);

typedef struct {
  char      *charset;          /* the charset the page was decoded with */
  char      *title;            /* <title>, else og:title, else twitter:title; or NULL */
  char      *description;      /* meta description, og:, twitter:description, else body text */
  char      *canonical_url;    /* <link rel=canonical>, else og:url */
  char      *manifest_url;
  char      *refresh_url;      /* where a <meta http-equiv=refresh> redirects, absolute http(s) */
  GPtrArray *icons;            /* of NearbyPageIcon, in document order */
  gsize      bytes_parsed;     /* raw bytes taken before the parser stopped */
} NearbyPageMeta;

void            nearby_page_meta_free        (NearbyPageMeta *meta);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (NearbyPageMeta, nearby_page_meta_free)

typedef struct _NearbyPageMetaParser NearbyPageMetaParser;

NearbyPageMetaParser *nearby_page_meta_parser_new    (const char           *base_url,
                                                      const char           *header_charset);
gboolean              nearby_page_meta_parser_feed   (NearbyPageMetaParser *parser,
                                                      const guint8         *data,
                                                      gsize                 len);
NearbyPageMeta       *nearby_page_meta_parser_finish (NearbyPageMetaParser *parser);
void                  nearby_page_meta_parser_free   (NearbyPageMetaParser *parser);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (NearbyPageMetaParser, nearby_page_meta_parser_free)

NearbyPageMeta *nearby_page_meta_parse (const char   *base_url,
                                        const char   *header_charset,
                                        const guint8 *data,
                                        gsize         len);

G_END_DECLS
