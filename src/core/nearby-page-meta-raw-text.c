/* nearby-page-meta-raw-text.c: where the content of a <script> or a <style> ends
 *
 * Real heads carry 100 KiB and more of inline script and style, and nothing in it is metadata:
 * parsing it was three quarters of the time spent on a page. So its content is not given to
 * libxml2 at all; the end is found here the way the HTML standard's tokenizer finds it. A
 * <style> is raw text up to "</style". A <script> is too, except that "<!--" starts an escaped
 * section in which a "<script" starts a double-escaped one: there, "</script" does not end the
 * element, and only "-->" goes back to plain script data. The text arrives in chunks, so the
 * scan stops where it cannot decide yet and goes on from a state kept between chunks.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "nearby-page-meta-private.h"

typedef enum {
  STATE_DATA,
  STATE_ESCAPED,
  STATE_ESCAPED_DASH,
  STATE_ESCAPED_DASH_DASH,
  STATE_DOUBLE_ESCAPED,
  STATE_DOUBLE_ESCAPED_DASH,
  STATE_DOUBLE_ESCAPED_DASH_DASH,
} State;

typedef enum {
  MATCH_NO,
  MATCH_YES,
  MATCH_UNDECIDED,  /* the text ends before it can tell */
} Match;

static gboolean
is_tag_name_end (char c)
{
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '/' || c == '>';
}

/* Does @name, in any case and ended as a tag name ends, start at @text? */
static Match
match_name (const char *text,
            gsize       len,
            const char *name)
{
  gsize name_len = strlen (name);

  for (gsize i = 0; i <= name_len; i++)
    {
      if (i == len)
        return MATCH_UNDECIDED;
      if (i == name_len)
        return is_tag_name_end (text[i]) ? MATCH_YES : MATCH_NO;
      if (g_ascii_tolower (text[i]) != name[i])
        return MATCH_NO;
    }

  g_assert_not_reached ();
}

gssize
_nearby_page_meta_find_raw_text_start (const char            *text,
                                       gsize                  len,
                                       NearbyPageMetaRawText *kind)
{
  const char *p = text;
  const char *end = text + len;

  while ((p = memchr (p, '<', end - p)) != NULL)
    {
      NearbyPageMetaRawText found = NEARBY_PAGE_META_RAW_TEXT_NONE;
      const char *gt;

      if (match_name (p + 1, end - p - 1, "script") == MATCH_YES)
        found = NEARBY_PAGE_META_RAW_TEXT_SCRIPT;
      else if (match_name (p + 1, end - p - 1, "style") == MATCH_YES)
        found = NEARBY_PAGE_META_RAW_TEXT_STYLE;

      if (found != NEARBY_PAGE_META_RAW_TEXT_NONE)
        {
          /* A '>' in a quoted attribute value ends the search too soon; libxml2 then reports
           * no element there, and the content is parsed as it always was. */
          gt = memchr (p, '>', end - p);
          if (gt == NULL)
            return -1;
          *kind = found;
          return gt + 1 - text;
        }
      p++;
    }

  return -1;
}

/* "</script", "</style" followed by the end of a tag name */
static Match
match_end_tag (const char *text,
               gsize       len,
               const char *name)
{
  if (len < 2)
    return MATCH_UNDECIDED;
  if (text[1] != '/')
    return MATCH_NO;

  return match_name (text + 2, len - 2, name);
}

gssize
_nearby_page_meta_skip_raw_text (NearbyPageMetaRawText  kind,
                                 guint                 *state,
                                 const char            *text,
                                 gsize                  len,
                                 gsize                 *consumed)
{
  const char *name = kind == NEARBY_PAGE_META_RAW_TEXT_SCRIPT ? "script" : "style";
  State s = *state;
  gsize i = 0;

  while (i < len)
    {
      char c = text[i];
      Match match;

      if (s == STATE_DATA)
        {
          const char *lt = memchr (text + i, '<', len - i);

          if (lt == NULL)
            {
              i = len;
              break;
            }
          i = lt - text;

          match = match_end_tag (text + i, len - i, name);
          if (match == MATCH_YES)
            {
              *state = s;
              *consumed = i;
              return i;
            }
          if (match == MATCH_UNDECIDED)
            break;

          if (kind == NEARBY_PAGE_META_RAW_TEXT_SCRIPT && text[i + 1] == '!')
            {
              if (len - i < 4)
                break;
              if (text[i + 2] == '-' && text[i + 3] == '-')
                {
                  s = STATE_ESCAPED_DASH_DASH;
                  i += 4;
                  continue;
                }
            }
          i++;
          continue;
        }

      if (c == '-')
        {
          if (s == STATE_ESCAPED)
            s = STATE_ESCAPED_DASH;
          else if (s == STATE_ESCAPED_DASH)
            s = STATE_ESCAPED_DASH_DASH;
          else if (s == STATE_DOUBLE_ESCAPED)
            s = STATE_DOUBLE_ESCAPED_DASH;
          else if (s == STATE_DOUBLE_ESCAPED_DASH)
            s = STATE_DOUBLE_ESCAPED_DASH_DASH;
          i++;
          continue;
        }

      if (c == '>' && (s == STATE_ESCAPED_DASH_DASH || s == STATE_DOUBLE_ESCAPED_DASH_DASH))
        {
          s = STATE_DATA;
          i++;
          continue;
        }

      if (c != '<')
        {
          if (s == STATE_ESCAPED_DASH || s == STATE_ESCAPED_DASH_DASH)
            s = STATE_ESCAPED;
          else if (s == STATE_DOUBLE_ESCAPED_DASH || s == STATE_DOUBLE_ESCAPED_DASH_DASH)
            s = STATE_DOUBLE_ESCAPED;
          i++;
          continue;
        }

      if (s == STATE_ESCAPED || s == STATE_ESCAPED_DASH || s == STATE_ESCAPED_DASH_DASH)
        {
          /* "</script" ends the element here too; "<script" opens a double-escaped section. */
          match = match_end_tag (text + i, len - i, name);
          if (match == MATCH_YES)
            {
              *state = s;
              *consumed = i;
              return i;
            }
          if (match == MATCH_UNDECIDED)
            break;

          s = STATE_ESCAPED;
          match = match_name (text + i + 1, len - i - 1, "script");
          if (match == MATCH_UNDECIDED)
            break;
          if (match == MATCH_YES)
            {
              s = STATE_DOUBLE_ESCAPED;
              i += 1 + strlen ("script") + 1;
              continue;
            }
          i++;
          continue;
        }

      /* Double escaped: only "</script" goes back to escaped, and does not end the element */
      match = match_end_tag (text + i, len - i, "script");
      if (match == MATCH_UNDECIDED)
        break;
      s = STATE_DOUBLE_ESCAPED;
      if (match == MATCH_YES)
        {
          s = STATE_ESCAPED;
          i += 2 + strlen ("script") + 1;
          continue;
        }
      i++;
    }

  *state = s;
  *consumed = i;

  return -1;
}
