/* fuzz-page-meta.c: page metadata from hostile bytes, fed in chunks
 *
 * The first byte picks the chunk size and the charset the HTTP header claims; the rest is the
 * document.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <stdint.h>
#include <string.h>

#include "nearby-icon.h"
#include "nearby-page-meta.h"
#include "nearby-text.h"

static const char * const header_charsets[] = {
  NULL, "utf-8", "iso-8859-1", "windows-1252", "koi8-r", "shift_jis", "utf-16", "bogus\"label",
};

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  NearbyPageMetaParser *parser;
  NearbyPageMeta *meta;
  size_t chunk;
  size_t offset;
  const char *end = NULL;
  const char *glib_end = NULL;

  if (size < 1)
    return 0;

  /* The parser's UTF-8 check says what GLib's does, on any bytes. */
  g_assert (nearby_text_validate_utf8 ((const char *) data, size, &end) ==
            g_utf8_validate_len ((const char *) data, size, &glib_end));
  g_assert (end == glib_end);

  chunk = 1 + (data[0] & 0x1f) * 37;
  parser = nearby_page_meta_parser_new ("https://fuzz.example/dir/page.html",
                                        header_charsets[(data[0] >> 5) & 7]);
  data++;
  size--;

  for (offset = 0; offset < size; offset += chunk)
    {
      size_t len = size - offset < chunk ? size - offset : chunk;

      if (!nearby_page_meta_parser_feed (parser, data + offset, len))
        break;
    }
  meta = nearby_page_meta_parser_finish (parser);

  g_assert (meta->title == NULL || g_utf8_validate (meta->title, -1, NULL));
  g_assert (meta->description == NULL || g_utf8_validate (meta->description, -1, NULL));
  g_assert (meta->title == NULL || g_utf8_strlen (meta->title, -1) <= NEARBY_PAGE_META_MAX_TITLE);
  g_assert (meta->description == NULL ||
            g_utf8_strlen (meta->description, -1) <= NEARBY_PAGE_META_MAX_DESC);
  g_assert (meta->icons->len <= NEARBY_PAGE_META_MAX_ICONS);
  nearby_icon_choose (meta->icons, NEARBY_ICON_TARGET_SIZE);

  nearby_page_meta_free (meta);
  nearby_page_meta_parser_free (parser);

  return 0;
}
