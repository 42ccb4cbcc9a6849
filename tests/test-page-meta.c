/* test-page-meta.c: what a row shows for a page: title, description, icon, actions
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <gio/gio.h>
#include <json-glib/json-glib.h>
#include <string.h>

#include "nearby-page-meta.h"

#define BASE "https://shop.example/menu/today.html"

/* Every document is parsed whole and in random chunk sizes: the results must not differ. */
static NearbyPageMeta *
parse_chunked_at (const char   *base,
                  const char   *header_charset,
                  const guint8 *data,
                  gsize         len)
{
  g_autoptr(NearbyPageMetaParser) parser = nearby_page_meta_parser_new (base, header_charset);
  gsize offset = 0;

  while (offset < len)
    {
      gsize chunk = g_test_rand_int_range (1, 700);

      chunk = MIN (chunk, len - offset);

      if (!nearby_page_meta_parser_feed (parser, data + offset, chunk))
        break;
      offset += chunk;
    }

  return nearby_page_meta_parser_finish (parser);
}

static NearbyPageMeta *
parse_chunked (const char   *header_charset,
               const guint8 *data,
               gsize         len)
{
  return parse_chunked_at (BASE, header_charset, data, len);
}

static void
assert_same_meta (NearbyPageMeta *a,
                  NearbyPageMeta *b)
{
  g_assert_cmpstr (a->title, ==, b->title);
  g_assert_cmpstr (a->description, ==, b->description);
  g_assert_cmpstr (a->canonical_url, ==, b->canonical_url);
  g_assert_cmpstr (a->manifest_url, ==, b->manifest_url);
  g_assert_cmpstr (a->refresh_url, ==, b->refresh_url);
  g_assert_cmpstr (a->charset, ==, b->charset);
  g_assert_cmpuint (a->icons->len, ==, b->icons->len);
  for (guint i = 0; i < a->icons->len; i++)
    {
      NearbyPageIcon *ia = g_ptr_array_index (a->icons, i);
      NearbyPageIcon *ib = g_ptr_array_index (b->icons, i);

      g_assert_cmpstr (ia->url, ==, ib->url);
      g_assert_cmpint (ia->size, ==, ib->size);
    }
}

static NearbyPageMeta *
parse_at (const char *base,
          const char *header_charset,
          const char *data,
          gssize      len)
{
  NearbyPageMeta *whole;

  if (len < 0)
    len = strlen (data);

  whole = nearby_page_meta_parse (base, header_charset, (const guint8 *) data, len);
  for (guint round = 0; round < 8; round++)
    {
      g_autoptr(NearbyPageMeta) chunked = parse_chunked_at (base, header_charset,
                                                            (const guint8 *) data, len);

      assert_same_meta (whole, chunked);
    }

  return whole;
}

static NearbyPageMeta *
parse (const char *header_charset,
       const char *data,
       gssize      len)
{
  return parse_at (BASE, header_charset, data, len);
}

static void
test_good_page (void)
{
  const char *html =
    "<!DOCTYPE html>\n<html><head>\n"
    "<meta charset=\"utf-8\">\n"
    "<title>  Caf&eacute; &amp;\n   Bar &#x2615; </title>\n"
    "<meta name=\"description\" content=\"Fresh &quot;espresso&quot; at   the counter\">\n"
    "<meta property=\"og:title\" content=\"Ignored OG title\">\n"
    "<link rel=\"shortcut icon\" href=\"/favicon-16.png\" sizes=\"16x16\">\n"
    "<link rel=\"icon\" href=\"icons/icon-96.png\" sizes=\"96x96\" type=\"image/png\">\n"
    "<link rel=\"icon\" href=\"icons/icon.svg\" type=\"image/svg+xml\" sizes=\"any\">\n"
    "<link rel=\"apple-touch-icon\" href=\"//cdn.example/touch.png\">\n"
    "<link rel=\"manifest\" href=\"../app.webmanifest\">\n"
    "<link rel=\"canonical\" href=\"https://shop.example/menu\">\n"
    "<link rel=\"icon\" href=\"javascript:alert(1)\">\n"
    "</head><body><p>Not the description</p></body></html>";
  g_autoptr(NearbyPageMeta) meta = parse (NULL, html, -1);
  NearbyPageIcon *icon;

  g_assert_cmpstr (meta->title, ==, "Café & Bar ☕");
  g_assert_cmpstr (meta->description, ==, "Fresh \"espresso\" at the counter");
  g_assert_cmpstr (meta->canonical_url, ==, "https://shop.example/menu");
  g_assert_cmpstr (meta->manifest_url, ==, "https://shop.example/app.webmanifest");
  g_assert_cmpstr (meta->charset, ==, "UTF-8");
  /* javascript: is dropped, relative and scheme-relative URLs resolved */
  g_assert_cmpuint (meta->icons->len, ==, 4);
  icon = g_ptr_array_index (meta->icons, 0);
  g_assert_cmpstr (icon->url, ==, "https://shop.example/favicon-16.png");
  g_assert_cmpstr (icon->rel, ==, "icon");
  g_assert_cmpint (icon->size, ==, 16);
  icon = g_ptr_array_index (meta->icons, 1);
  g_assert_cmpstr (icon->url, ==, "https://shop.example/menu/icons/icon-96.png");
  g_assert_cmpstr (icon->type, ==, "image/png");
  g_assert_cmpint (icon->size, ==, 96);
  icon = g_ptr_array_index (meta->icons, 2);
  g_assert_cmpstr (icon->type, ==, "image/svg+xml");
  g_assert_cmpint (icon->size, ==, -1);
  icon = g_ptr_array_index (meta->icons, 3);
  g_assert_cmpstr (icon->url, ==, "https://cdn.example/touch.png");
  g_assert_cmpstr (icon->rel, ==, "apple-touch-icon");
  g_assert_cmpint (icon->size, ==, 0);
}

static void
test_fallbacks (void)
{
  g_autoptr(NearbyPageMeta) og = NULL;
  g_autoptr(NearbyPageMeta) body = NULL;
  g_autoptr(NearbyPageMeta) empty = NULL;
  g_autoptr(GString) long_body = g_string_new ("<html><head></head><body><script>var x = 1;</script>");

  og = parse (NULL,
              "<html><head><meta property='og:title' content='Bus stop 42'>"
              "<meta property='og:description' content='Next bus in 3 min'>"
              "<meta property='og:url' content='/stops/42'>"
              "<base href='https://transit.example/'></head></html>", -1);
  g_assert_cmpstr (og->title, ==, "Bus stop 42");
  g_assert_cmpstr (og->description, ==, "Next bus in 3 min");
  g_assert_cmpstr (og->canonical_url, ==, "https://transit.example/stops/42");

  body = parse (NULL,
                "<html><head><title>Museum</title><style>p{}</style></head>"
                "<body><nav>Menu Home</nav><h1>Room 3</h1><p>The <b>blue</b>\n\n vase.</p>"
                "</body></html>", -1);
  g_assert_cmpstr (body->title, ==, "Museum");
  g_assert_cmpstr (body->description, ==, "Room 3 The blue vase.");

  for (guint i = 0; i < 500; i++)
    g_string_append (long_body, "<p>word word word</p>\n");
  g_string_append (long_body, "</body></html>");
  empty = parse (NULL, long_body->str, long_body->len);
  g_assert_null (empty->title);
  g_assert_cmpuint (g_utf8_strlen (empty->description, -1), <=, NEARBY_PAGE_META_MAX_DESC);
  g_assert_true (g_str_has_prefix (empty->description, "word word"));
  g_assert_true (g_str_has_suffix (empty->description, "…"));
  g_assert_null (strstr (empty->description, "var x"));
}

static void
test_charsets (void)
{
  /* windows-1252 without any declaration: not valid UTF-8, so the fallback */
  g_autoptr(NearbyPageMeta) legacy = parse (NULL, "<title>Caf\xe9 \x93quoted\x94 \x80 5</title>", -1);
  g_autoptr(NearbyPageMeta) meta_latin1 = NULL;
  g_autoptr(NearbyPageMeta) header = NULL;
  g_autoptr(NearbyPageMeta) bom = NULL;
  g_autoptr(NearbyPageMeta) utf16 = NULL;
  g_autoptr(NearbyPageMeta) koi8 = NULL;
  g_autoptr(NearbyPageMeta) invalid = NULL;
  g_autoptr(NearbyPageMeta) late_meta = NULL;
  g_autoptr(NearbyPageMeta) late_latin1 = NULL;
  static const char utf16le[] = "\xff\xfe<\0t\0i\0t\0l\0e\0>\0\xac\x20 \0""5\0<\0/\0t\0i\0t\0l\0e\0>\0";
  g_autoptr(GString) padded = g_string_new ("<html><head>");

  g_assert_cmpstr (legacy->title, ==, "Café “quoted” € 5");
  g_assert_cmpstr (legacy->charset, ==, "WINDOWS-1252");

  meta_latin1 = parse (NULL, "<meta http-equiv='Content-Type' content='text/html; charset=ISO-8859-1'>"
                             "<title>Gr\xfc\xdf""e</title>", -1);
  g_assert_cmpstr (meta_latin1->title, ==, "Grüße");

  /* The header wins over the document's meta */
  header = parse ("koi8-r", "<meta charset='utf-8'><title>\xf0\xd2\xc9\xd7\xc5\xd4</title>", -1);
  g_assert_cmpstr (header->title, ==, "Привет");

  bom = parse ("iso-8859-1", "\xef\xbb\xbf<title>\xc3\xa9t\xc3\xa9</title>", -1);
  g_assert_cmpstr (bom->title, ==, "été");
  g_assert_cmpstr (bom->charset, ==, "UTF-8");

  utf16 = parse (NULL, utf16le, sizeof utf16le - 1);
  g_assert_cmpstr (utf16->title, ==, "€ 5");

  koi8 = parse (NULL, "<meta charset=\"koi8-r\"><title>\xf0\xd2\xc9\xd7\xc5\xd4</title>", -1);
  g_assert_cmpstr (koi8->title, ==, "Привет");

  /* A declared UTF-8 page with broken bytes: replacement characters, nothing worse */
  invalid = parse ("utf-8", "<title>ok \xff\xfe bad \xc3</title><meta name=description content='x\xe2\x82'>", -1);
  g_assert_true (g_utf8_validate (invalid->title, -1, NULL));
  g_assert_true (g_str_has_prefix (invalid->title, "ok \xef\xbf\xbd"));
  g_assert_true (g_utf8_validate (invalid->description, -1, NULL));

  /* A meta charset after the first KiB is not seen: the bytes are valid UTF-8, so UTF-8 */
  for (guint i = 0; i < 120; i++)
    g_string_append (padded, "<!-- pad -->");
  g_string_append (padded, "<meta charset='windows-1252'><title>na\xc3\xafve</title>");
  late_meta = parse (NULL, padded->str, padded->len);
  g_assert_cmpstr (late_meta->title, ==, "naïve");

  /* Undeclared, and the first byte that is not UTF-8 comes after the first KiB: windows-1252
   * however the page arrives, not replacement characters when it comes in small pieces */
  g_string_truncate (padded, 0);
  g_string_append (padded, "<html><head>");
  for (guint i = 0; i < 120; i++)
    g_string_append (padded, "<!-- pad -->");
  g_string_append (padded, "<title>Caf\xe9 \x93menu\x94</title>");
  late_latin1 = parse (NULL, padded->str, padded->len);
  g_assert_cmpstr (late_latin1->title, ==, "Café “menu”");
  g_assert_cmpstr (late_latin1->charset, ==, "WINDOWS-1252");
}

static void
test_hostile_text (void)
{
  g_autoptr(NearbyPageMeta) bidi = NULL;
  g_autoptr(NearbyPageMeta) nul = NULL;
  g_autoptr(NearbyPageMeta) nul_legacy = NULL;
  g_autoptr(NearbyPageMeta) huge = NULL;
  g_autoptr(GString) big = g_string_new ("<html><head><title>");
  static const char with_nul[] = "<title>Pay\0here\x01\x7f now</title>";
  /* Several NUL bytes, through the converter, and the description after them still read. */
  static const char with_nuls_legacy[] = "<meta charset=windows-1252><title>Caf\xe9\0\0open\0</title>"
                                         "<meta name=description content='Tea\0& cake'>";

  bidi = parse (NULL, "<title>invoice\xe2\x80\xae""fdp.exe\xe2\x80\xac\xe2\x81\xa6 x\xe2\x80\x8b""y</title>", -1);
  g_assert_cmpstr (bidi->title, ==, "invoicefdp.exe xy");

  nul = parse (NULL, with_nul, sizeof with_nul - 1);
  g_assert_cmpstr (nul->title, ==, "Pay here now");
  nul_legacy = parse (NULL, with_nuls_legacy, sizeof with_nuls_legacy - 1);
  g_assert_cmpstr (nul_legacy->title, ==, "Café open");
  g_assert_cmpstr (nul_legacy->description, ==, "Tea & cake");

  /* A 1 MB title: at most 256 KiB is read, at most 200 characters kept */
  for (guint i = 0; i < 1024 * 1024 / 8; i++)
    g_string_append (big, "Abcdefg ");
  g_string_append (big, "</title></head></html>");
  huge = parse (NULL, big->str, big->len);
  g_assert_nonnull (huge->title);
  g_assert_cmpuint (g_utf8_strlen (huge->title, -1), ==, NEARBY_PAGE_META_MAX_TITLE);
  g_assert_cmpuint (huge->bytes_parsed, <=, NEARBY_PAGE_META_MAX_HTML);
}

static void
test_stops_after_head (void)
{
  g_autoptr(NearbyPageMetaParser) parser = nearby_page_meta_parser_new (BASE, NULL);
  g_autoptr(NearbyPageMeta) meta = NULL;
  const char *head = "<html><head><title>T</title><meta name=description content=D></head><body>";
  g_autofree char *filler = g_strnfill (4096, 'x');
  gboolean wants_more = TRUE;

  nearby_page_meta_parser_feed (parser, (const guint8 *) head, strlen (head));
  for (guint i = 0; i < 10 && wants_more; i++)
    wants_more = nearby_page_meta_parser_feed (parser, (const guint8 *) filler, 4096);
  g_assert_false (wants_more);
  meta = nearby_page_meta_parser_finish (parser);
  g_assert_cmpstr (meta->title, ==, "T");
  g_assert_cmpstr (meta->description, ==, "D");
  g_assert_cmpuint (meta->bytes_parsed, <, 3 * 4096);
}

/* What libxml2 takes as the end of <head> does not end it for a browser: in the HTML standard's
 * tree construction, <title>, <meta>, <link> and <base> met "in body" are processed with the
 * rules for "in head", and document.title is the first <title> in the document. */
static void
test_head_ended_early (void)
{
  static const char * const enders[] = {
    "<iframe src='/frame' style='display:none'></iframe>",
    "<noscript><iframe src='/tm.html'></iframe></noscript>",
    "<div id='consent'></div>",
    "<div role='dialog'><p>We use cookies</p><button>Accept</button></div>",
    "<custom-widget data-x='1'></custom-widget>",
    "<esi:include src='/x'></esi:include>",
    "<span></span>",
    "<img src='/pixel.gif'>",
    "<svg><symbol id='i'><title>Icon</title></symbol></svg>",
  };

  for (guint i = 0; i < G_N_ELEMENTS (enders); i++)
    {
      g_autofree char *html = g_strdup_printf (
        "<!DOCTYPE html><html><head><meta charset='utf-8'>%s"
        "<title>Bus stop 42</title>"
        "<meta name='description' content='Next bus in 3 min'>"
        "<link rel='icon' href='/icon.png'><link rel='manifest' href='/app.json'>"
        "<base href='https://transit.example/'>"
        "<link rel='canonical' href='stops/42'>"
        "</head><body><p>Hello</p></body></html>", enders[i]);
      g_autoptr(NearbyPageMeta) meta = parse (NULL, html, -1);

      g_test_message ("%s", enders[i]);
      g_assert_cmpstr (meta->title, ==, "Bus stop 42");
      g_assert_cmpstr (meta->description, ==, "Next bus in 3 min");
      g_assert_cmpuint (meta->icons->len, ==, 1);
      g_assert_cmpstr (((NearbyPageIcon *) g_ptr_array_index (meta->icons, 0))->url, ==,
                       "https://transit.example/icon.png");
      g_assert_cmpstr (meta->manifest_url, ==, "https://transit.example/app.json");
      g_assert_cmpstr (meta->canonical_url, ==, "https://transit.example/stops/42");
    }
}

/* Only the document's own <title> is document.title: not one in SVG, in a template, in
 * <noscript> (raw text where scripts run), and not one after the page's text has begun. */
static void
test_title_is_the_documents (void)
{
  g_autoptr(NearbyPageMeta) svg = NULL;
  g_autoptr(NearbyPageMeta) inert = NULL;
  g_autoptr(NearbyPageMeta) late = NULL;
  g_autoptr(NearbyPageMeta) first = NULL;
  g_autoptr(NearbyPageMeta) empty_first = NULL;

  svg = parse (NULL, "<html><head><svg><title>Search icon</title></svg>"
                     "<title>Museum</title></head><body></body></html>", -1);
  g_assert_cmpstr (svg->title, ==, "Museum");

  inert = parse (NULL, "<html><head><template><title>T</title><meta name=description content=T>"
                       "</template><noscript><title>N</title></noscript>"
                       "<meta property=og:title content='From OG'></head><body></body></html>", -1);
  g_assert_cmpstr (inert->title, ==, "From OG");
  g_assert_null (inert->description);

  late = parse (NULL, "<html><head></head><body><main><p>Room 3 is closed.</p>"
                      "<title>Too late</title><meta name=description content='Too late'>"
                      "</main></body></html>", -1);
  g_assert_null (late->title);
  g_assert_cmpstr (late->description, ==, "Room 3 is closed.");

  first = parse (NULL, "<title>One</title><div></div><title>Two</title>", -1);
  g_assert_cmpstr (first->title, ==, "One");

  /* An empty first <title> is an empty document.title: the metadata fills in, not a later one */
  empty_first = parse (NULL, "<title> </title><meta name=twitter:title content=Tw>"
                             "<title>Two</title>", -1);
  g_assert_cmpstr (empty_first->title, ==, "Tw");
}

static void
test_title_and_description_order (void)
{
  g_autoptr(NearbyPageMeta) og = NULL;
  g_autoptr(NearbyPageMeta) twitter = NULL;
  g_autoptr(NearbyPageMeta) names = NULL;

  og = parse (NULL, "<meta name=twitter:title content=Tw><meta property=og:title content=Og>"
                    "<meta name=twitter:description content=TwD>"
                    "<meta property=og:description content=OgD>", -1);
  g_assert_cmpstr (og->title, ==, "Og");
  g_assert_cmpstr (og->description, ==, "OgD");

  twitter = parse (NULL, "<meta name=twitter:title content='Bus 4'>"
                         "<meta name=twitter:description content='Every 10 min'>"
                         "<body><p>Body text</p>", -1);
  g_assert_cmpstr (twitter->title, ==, "Bus 4");
  g_assert_cmpstr (twitter->description, ==, "Every 10 min");

  /* Keys in the other attribute, as sites write them */
  names = parse (NULL, "<meta name=og:title content='Og name'>"
                       "<meta property=description content='Described'>"
                       "<meta property=og:title content='Second'>", -1);
  g_assert_cmpstr (names->title, ==, "Og name");
  g_assert_cmpstr (names->description, ==, "Described");
}

/* Without a description in the head, the page's own text: never its navigation and furniture. */
static void
test_body_description (void)
{
  static const struct { const char *body; const char *description; } cases[] = {
    { "<div role=banner><h2>Accessibility links</h2><a href='#main'>Skip to content</a>"
      "<a href='/a11y'>Accessibility Help</a></div><nav>Home News</nav>"
      "<main id=main><p>Buses run late.</p></main>", "Buses run late." },
    { "<a class=skip href='#c'>Skip to content</a><header><p>Site name</p></header>"
      "<aside><p>Subscribe</p></aside><div id=c><p>First words.</p></div>"
      "<footer><p>Copyright</p></footer>", "First words." },
    { "<div role=navigation>Menu</div><div aria-hidden=true>Hidden</div>"
      "<div hidden><p>Not shown</p></div><article><p>The article.</p></article>",
      "The article." },
    { "<div role=contentinfo>Footer first</div><div role=complementary>Aside</div>"
      "<div role=search><p>Search</p></div><div role=main>Main text</div>", "Main text" },
    { "<template><p>Template</p></template><noscript><p>Enable scripts</p></noscript>"
      "<svg><text>Vector</text></svg><select><option>Option</option></select>"
      "<button>Press</button><textarea>Typed</textarea><p>Shown.</p>", "Shown." },
    { "<div>Just a div, no paragraph</div>", "Just a div, no paragraph" },
    { "<div class=cookie role=dialog><p>We use cookies</p></div><div>Div text</div>",
      "Div text" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *html = g_strdup_printf ("<html><head><title>T</title></head><body>%s"
                                               "</body></html>", cases[i].body);
      g_autoptr(NearbyPageMeta) meta = parse (NULL, html, -1);

      g_test_message ("%s", cases[i].body);
      g_assert_cmpstr (meta->description, ==, cases[i].description);
    }
}

static void
test_meta_refresh (void)
{
  static const struct { const char *content; const char *url; } cases[] = {
    { "0; url=/next", "https://shop.example/next" },
    { "0;URL='next.html'", "https://shop.example/menu/next.html" },
    { " 3 , url = \"https://other.example/x\" ", "https://other.example/x" },
    { "0; https://other.example/y", "https://other.example/y" },
    { "1.5; url=/z", "https://shop.example/z" },
    { "0; url='/quoted'trailing'", "https://shop.example/quoted" },
    { "0", NULL },                                   /* reloads itself */
    { "300; url=/later", NULL },                     /* a page meant to be read first */
    { "0; url=javascript:alert(1)", NULL },
    { "0; url=" BASE, NULL },
    { "soon; url=/x", NULL },
    { "0; url=", NULL },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *escaped = g_markup_escape_text (cases[i].content, -1);
      g_autofree char *html = g_strdup_printf ("<head><title>Moved</title>"
                                               "<meta http-equiv=Refresh content=\"%s\">", escaped);
      g_autoptr(NearbyPageMeta) meta = parse (NULL, html, -1);

      g_test_message ("%s", cases[i].content);
      g_assert_cmpstr (meta->refresh_url, ==, cases[i].url);
      g_assert_cmpstr (meta->title, ==, "Moved");
    }
}

/* A page that gave its title and description has nothing more to give past its <body> tag,
 * however long its navigation; one that did not is read up to its own text. */
static void
test_stops_at_body_tag (void)
{
  g_autoptr(GString) html = g_string_new ("<html><head><div></div><title>T</title>"
                                          "<meta name=description content=D></head><body>");
  g_autoptr(GString) untitled = g_string_new ("<html><head><meta name=description content=D>"
                                              "</head><body>");
  g_autoptr(NearbyPageMeta) meta = NULL;
  g_autoptr(NearbyPageMeta) late_title = NULL;

  g_autoptr(NearbyPageMetaParser) parser = nearby_page_meta_parser_new (BASE, NULL);
  gsize offset = 0;

  for (guint i = 0; i < 2000; i++)
    g_string_append (html, "<nav><a href='/x'>Link</a></nav>\n");
  while (offset < html->len &&
         nearby_page_meta_parser_feed (parser, (const guint8 *) html->str + offset,
                                       MIN (4096, html->len - offset)))
    offset += 4096;
  g_assert_cmpuint (offset, <, 3 * 4096);
  meta = nearby_page_meta_parser_finish (parser);
  g_assert_cmpstr (meta->title, ==, "T");
  g_assert_cmpstr (meta->description, ==, "D");

  for (guint i = 0; i < 200; i++)
    g_string_append (untitled, "<nav><a href='/x'>Link</a></nav>\n");
  g_string_append (untitled, "<title>After the body tag</title><p>Text</p>");
  late_title = parse (NULL, untitled->str, untitled->len);
  g_assert_cmpstr (late_title->title, ==, "After the body tag");
  g_assert_cmpstr (late_title->description, ==, "D");
}

/* libxml2 2.9's push parser lost everything after a <script> or <style> when a chunk of the
 * network's ended inside its end tag ("</scr"): wherever the page is cut, the same result. */
static void
test_split_anywhere (void)
{
  g_autoptr(GString) html = g_string_new ("<html><head><!--");

  for (guint i = 0; i < 110; i++)
    g_string_append (html, " padding ");
  g_string_append (html, "--><script>var a = 1 < 2;</script><style>p{}</style>\n"
                         "<noscript><iframe src=/x></iframe></noscript>\n"
                         "<meta name=description content=D><title>T</title></head>"
                         "<body><p>x</p></body></html>");

  for (gsize cut = 1; cut < html->len; cut++)
    {
      g_autoptr(NearbyPageMetaParser) parser = nearby_page_meta_parser_new (BASE, NULL);
      g_autoptr(NearbyPageMeta) meta = NULL;

      if (nearby_page_meta_parser_feed (parser, (const guint8 *) html->str, cut))
        nearby_page_meta_parser_feed (parser, (const guint8 *) html->str + cut, html->len - cut);
      meta = nearby_page_meta_parser_finish (parser);
      if (g_strcmp0 (meta->title, "T") != 0 || g_strcmp0 (meta->description, "D") != 0)
        g_test_message ("cut at %zu: \"%.12s\"", cut, html->str + cut);
      g_assert_cmpstr (meta->title, ==, "T");
      g_assert_cmpstr (meta->description, ==, "D");
    }
}

/* The content of a <script> or a <style> ends where a browser's tokenizer ends it, wherever the
 * page is cut into chunks: "<!--" and a "<script" in a script make its first "</script>" text. */
static void
test_raw_text (void)
{
  static const struct {
    const char *head;
    const char *title;
    const char *description;
  } cases[] = {
    { "<script><!--\ndocument.write('<script>var x = \"</script><title>Wrong</title>\";<\\/script>');"
      "\n--></script><title>Right</title><meta name=description content=D>", "Right", "D" },
    { "<title>T</title><script><!--<script>a</script><meta name=description content=Hidden>",
      "T", NULL },
    { "<script><!--></script><title>Right</title><meta name=description content=D>",
      "Right", "D" },
    { "<script>if (a<b && c</d) x(); var s = '<!-- <title>Wrong</title>';</SCRIPT\n>"
      "<title>Right</title><meta name=description content=D>", "Right", "D" },
    { "<script>var s = \"</scripts><title>Wrong</title>\";</script/>"
      "<title>Right</title><meta name=description content=D>", "Right", "D" },
    { "<script><!-- a--b -- > <scripty> </script --><title>Right</title>"
      "<meta name=description content=D>", "Right", "D" },
    { "<style>a::after { content: \"<!--<title>Wrong</title>\" }</style >"
      "<title>Right</title><meta name=description content=D>", "Right", "D" },
    { "<style>p{}</styles></style><title>Right</title><meta name=description content=D>",
      "Right", "D" },
    { "<!-- <script> --><title>Right</title><meta name=description content=D>", "Right", "D" },
    { "<script data-x=\"a>b\">var t = '<title>Wrong</title>';</script>"
      "<title>Right</title><meta name=description content=D>", "Right", "D" },
    { "<SCRIPT type=module>for (;;) {}</script><STYLE media=print></STYLE>"
      "<title>Right</title><meta name=description content=D>", "Right", "D" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GString) html = g_string_new ("<!DOCTYPE html><html><head><!--");

      /* Past the bytes held back to look for a charset, so that the cuts reach the parser */
      for (guint j = 0; j < 130; j++)
        g_string_append (html, " padding ");
      g_string_append_printf (html, "-->%s</head><body></body></html>", cases[i].head);

      for (gsize cut = 0; cut <= html->len; cut++)
        {
          g_autoptr(NearbyPageMetaParser) parser = nearby_page_meta_parser_new (BASE, NULL);
          g_autoptr(NearbyPageMeta) meta = NULL;

          if (nearby_page_meta_parser_feed (parser, (const guint8 *) html->str, cut))
            nearby_page_meta_parser_feed (parser, (const guint8 *) html->str + cut,
                                          html->len - cut);
          meta = nearby_page_meta_parser_finish (parser);
          if (g_strcmp0 (meta->title, cases[i].title) != 0 ||
              g_strcmp0 (meta->description, cases[i].description) != 0)
            g_test_message ("case %u, cut at %zu: \"%.12s\"", i, cut, html->str + cut);
          g_assert_cmpstr (meta->title, ==, cases[i].title);
          g_assert_cmpstr (meta->description, ==, cases[i].description);
        }
    }
}

/* tests/data/pages: shapes of real sites' heads, each with what a browser shows for it. */
static void
test_corpus (void)
{
  g_autofree char *dir = g_test_build_filename (G_TEST_DIST, "data", "pages", NULL);
  g_autofree char *expected_path = g_build_filename (dir, "expected.json", NULL);
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GList) names = NULL;
  JsonObject *expected;

  json_parser_load_from_file (parser, expected_path, &error);
  g_assert_no_error (error);
  expected = json_node_get_object (json_parser_get_root (parser));
  names = json_object_get_members (expected);
  g_assert_cmpuint (g_list_length (names), >=, 20);

  for (GList *l = names; l != NULL; l = l->next)
    {
      const char *name = l->data;
      JsonObject *page = json_object_get_object_member (expected, name);
      g_autofree char *path = g_build_filename (dir, name, NULL);
      g_autofree char *url = g_strconcat ("http://127.0.0.1/", name, NULL);
      g_autofree char *data = NULL;
      g_autoptr(NearbyPageMeta) meta = NULL;
      gsize len;
      const char *urls[][2] = {
        { "manifest", NULL }, { "canonical", NULL }, { "refresh", NULL }, { "icon", NULL },
      };

      g_test_message ("%s", name);
      g_file_get_contents (path, &data, &len, &error);
      g_assert_no_error (error);
      meta = parse_at (url, NULL, data, len);

      g_assert_cmpstr (meta->title, ==, json_object_get_string_member (page, "title"));
      g_assert_cmpstr (meta->description, ==, json_object_get_string_member (page, "description"));

      urls[0][1] = meta->manifest_url;
      urls[1][1] = meta->canonical_url;
      urls[2][1] = meta->refresh_url;
      urls[3][1] = meta->icons->len > 0 ? ((NearbyPageIcon *) meta->icons->pdata[0])->url : NULL;
      for (guint i = 0; i < G_N_ELEMENTS (urls); i++)
        {
          g_autofree char *want = NULL;

          if (json_object_has_member (page, urls[i][0]))
            want = g_strconcat ("http://127.0.0.1",
                                json_object_get_string_member (page, urls[i][0]), NULL);
          if (want != NULL || g_str_equal (urls[i][0], "refresh"))
            g_assert_cmpstr (urls[i][1], ==, want);
        }
    }
}

static void
test_garbage (void)
{
  /* sizeof counts the terminating NUL, which is wanted: the parser must cope with NUL bytes */
  static const char alphabet[] = "<>/=\"' abtiletmhd\xc3\xa9\x00&;#!-";
  g_autoptr(GRand) rand = g_rand_new_with_seed (42);

  for (guint round = 0; round < 50; round++)
    {
      gsize len = g_rand_int_range (rand, 0, 5000);
      g_autofree guint8 *data = g_malloc (len + 1);
      g_autoptr(NearbyPageMeta) meta = NULL;

      for (gsize i = 0; i < len; i++)
        data[i] = alphabet[g_rand_int_range (rand, 0, sizeof alphabet)];
      meta = parse_chunked (NULL, data, len);
      g_assert_true (meta->title == NULL || g_utf8_validate (meta->title, -1, NULL));
      g_assert_true (meta->description == NULL || g_utf8_validate (meta->description, -1, NULL));
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/page-meta/good-page", test_good_page);
  g_test_add_func ("/page-meta/fallbacks", test_fallbacks);
  g_test_add_func ("/page-meta/charsets", test_charsets);
  g_test_add_func ("/page-meta/hostile-text", test_hostile_text);
  g_test_add_func ("/page-meta/stops-after-head", test_stops_after_head);
  g_test_add_func ("/page-meta/head-ended-early", test_head_ended_early);
  g_test_add_func ("/page-meta/title-is-the-documents", test_title_is_the_documents);
  g_test_add_func ("/page-meta/title-and-description-order", test_title_and_description_order);
  g_test_add_func ("/page-meta/body-description", test_body_description);
  g_test_add_func ("/page-meta/meta-refresh", test_meta_refresh);
  g_test_add_func ("/page-meta/stops-at-body-tag", test_stops_at_body_tag);
  g_test_add_func ("/page-meta/split-anywhere", test_split_anywhere);
  g_test_add_func ("/page-meta/raw-text", test_raw_text);
  g_test_add_func ("/page-meta/corpus", test_corpus);
  g_test_add_func ("/page-meta/garbage", test_garbage);

  return g_test_run ();
}
