/* test-text.c: text from pages and beacons made safe to show, and the encoding of a page
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib.h>
#include <string.h>

#include "nearby-text.h"

static void
test_clean_text (void)
{
  g_autofree char *a = nearby_text_clean ("  a\t\tb\n\u2028c  ", -1, 100);
  g_autofree char *b = nearby_text_clean ("abcdef", -1, 4);
  g_autofree char *c = nearby_text_clean ("\xe2\x80\xae\xe2\x80\xae", -1, 4);

  g_assert_cmpstr (a, ==, "a b c");
  g_assert_cmpstr (b, ==, "abc…");
  g_assert_cmpstr (c, ==, "");
}

/* A title cannot reorder or hide what follows it, and broken bytes show as replacement
 * characters instead of reaching a label. */
static void
test_clean_hostile (void)
{
  g_autofree char *bidi = nearby_text_clean ("invoice\xe2\x80\xae""fdp.exe\xe2\x80\xac"
                                             "\xe2\x81\xa6 x\xe2\x80\x8b""y", -1, 100);
  g_autofree char *controls = nearby_text_clean ("Pay\x01here\x7f now\r\n", -1, 100);
  g_autofree char *broken = nearby_text_clean ("ok \xff\xfe bad \xc3", -1, 100);
  g_autofree char *none = nearby_text_clean (NULL, -1, 10);
  g_autofree char *nothing = nearby_text_clean ("abc", -1, 0);

  g_assert_cmpstr (bidi, ==, "invoicefdp.exe xy");
  g_assert_cmpstr (controls, ==, "Pay here now");
  g_assert_cmpstr (broken, ==, "ok \xef\xbf\xbd\xef\xbf\xbd bad \xef\xbf\xbd");
  g_assert_cmpstr (none, ==, "");
  g_assert_cmpstr (nothing, ==, "");
}

/* What a terminal would obey is written out as \u escapes; text, line breaks and tabs stay. */
static void
test_escape_for_terminal (void)
{
  g_autofree char *bidi = nearby_text_escape_for_terminal ("invoice\xe2\x80\xae""fdp.exe");
  g_autofree char *escape = nearby_text_escape_for_terminal ("\033[2J\033]0;title\a\r");
  g_autofree char *c1 = nearby_text_escape_for_terminal ("a\xc2\x9b""31m\x7f");
  g_autofree char *kept = nearby_text_escape_for_terminal ("Müller — “ok”\tnext\n");
  g_autofree char *broken = nearby_text_escape_for_terminal ("ok \xff\xc3");
  g_autofree char *separators = nearby_text_escape_for_terminal ("a\xe2\x80\xa8""b\xe2\x81\xa6");

  g_assert_cmpstr (bidi, ==, "invoice\\u202efdp.exe");
  g_assert_cmpstr (escape, ==, "\\u001b[2J\\u001b]0;title\\u0007\\u000d");
  g_assert_cmpstr (c1, ==, "a\\u009b31m\\u007f");
  g_assert_cmpstr (kept, ==, "Müller — “ok”\tnext\n");
  g_assert_cmpstr (broken, ==, "ok \\xff\\xc3");
  g_assert_cmpstr (separators, ==, "a\\u2028b\\u2066");
}

/* The limit counts characters, not bytes, and the ellipsis is one of them. */
static void
test_clean_limit (void)
{
  g_autoptr(GString) long_text = g_string_new (NULL);
  g_autofree char *cut = NULL;
  g_autofree char *exact = nearby_text_clean ("été", -1, 3);
  g_autofree char *spaced = nearby_text_clean ("ab    cd", -1, 4);

  for (guint i = 0; i < 1000; i++)
    g_string_append (long_text, "日本 ");
  cut = nearby_text_clean (long_text->str, long_text->len, 200);

  g_assert_true (g_utf8_validate (cut, -1, NULL));
  g_assert_cmpuint (g_utf8_strlen (cut, -1), ==, 200);
  g_assert_true (g_str_has_suffix (cut, "…"));
  g_assert_cmpstr (exact, ==, "été");
  /* A cut right after a space does not leave the space before the ellipsis */
  g_assert_cmpstr (spaced, ==, "ab…");
}

static void
assert_charset (const char *header_charset,
                const char *data,
                gssize      len,
                const char *expected,
                gsize       expected_bom_len)
{
  g_autofree char *start = NULL;
  g_autofree char *shown = NULL;
  gsize bom_len = 99;

  if (len < 0)
    len = strlen (data);

  start = g_strndup (data, MIN (len, 40));
  shown = g_strescape (start, NULL);
  g_test_message ("%s / %s", header_charset ? header_charset : "(none)", shown);
  g_assert_cmpstr (nearby_text_sniff_charset (header_charset, (const guint8 *) data, len, &bom_len),
                   ==, expected);
  g_assert_cmpuint (bom_len, ==, expected_bom_len);
}

/* Byte order mark, then the header, then a <meta> in the first KiB, then UTF-8 if the bytes
 * are valid, then windows-1252. */
static void
assert_validates_as_glib (const char *text,
                          gsize       len)
{
  const char *glib_end = NULL;
  const char *end = NULL;
  gboolean glib_valid = g_utf8_validate_len (text, len, &glib_end);
  gboolean valid = nearby_text_validate_utf8 (text, len, &end);

  if (valid != glib_valid || end != glib_end)
    {
      g_autoptr(GString) hex = g_string_new (NULL);

      for (gsize i = 0; i < len; i++)
        g_string_append_printf (hex, "%02x ", (guint8) text[i]);
      g_test_message ("%" G_GSIZE_FORMAT " bytes: %s", len, hex->str);
    }
  g_assert_cmpint (valid, ==, glib_valid);
  g_assert_cmpint (end - text, ==, glib_end - text);
}

/* The page parser's UTF-8 check says what GLib's says, valid or not and where it stops: on the
 * sequences that are not UTF-8 (overlong, surrogates, past U+10FFFF, cut short, NUL), placed
 * at every offset around the 8-byte steps, and on random mixtures of them with ASCII. */
static void
test_validate_utf8 (void)
{
  const char *pieces[] = {
    "a", "plain ASCII text", "\xc3\xa9", "\xe6\x9d\xb1", "\xf0\x9f\x9a\x8c", "\xef\xbb\xbf",
    "\xc3", "\xe6\x9d", "\xf0\x9f\x9a", "\x80", "\xbf", "\xc0\xaf", "\xe0\x80\xaf",
    "\xed\xa0\x80", "\xf4\x90\x80\x80", "\xf8\x88\x80\x80\x80", "\xff", "\xfe", "\0",
    "\x7f", "\x01",
  };
  GRand *rand = g_rand_new_with_seed (20261206);

  assert_validates_as_glib ("", 0);
  for (guint i = 0; i < G_N_ELEMENTS (pieces); i++)
    {
      for (guint offset = 0; offset < 20; offset++)
        {
          g_autoptr(GString) text = g_string_new (NULL);
          gsize piece_len = pieces[i][0] == '\0' ? 1 : strlen (pieces[i]);

          for (guint j = 0; j < offset; j++)
            g_string_append_c (text, 'x');
          g_string_append_len (text, pieces[i], piece_len);
          assert_validates_as_glib (text->str, text->len);
          g_string_append (text, "after the piece, more than 8 bytes");
          assert_validates_as_glib (text->str, text->len);
        }
    }

  for (guint round = 0; round < 20000; round++)
    {
      g_autoptr(GString) text = g_string_new (NULL);
      guint n = g_rand_int_range (rand, 0, 12);

      for (guint j = 0; j < n; j++)
        {
          const char *piece = pieces[g_rand_int_range (rand, 0, G_N_ELEMENTS (pieces))];

          /* Valid pieces more often than not, so that the text goes on past the first */
          if (g_rand_int_range (rand, 0, 4) != 0)
            piece = pieces[g_rand_int_range (rand, 0, 6)];
          if (piece[0] == '\0')
            g_string_append_c (text, '\0');
          else
            g_string_append (text, piece);
        }
      assert_validates_as_glib (text->str, text->len);
      /* and cut at any byte */
      if (text->len > 0)
        assert_validates_as_glib (text->str, g_rand_int_range (rand, 0, text->len));
    }

  g_rand_free (rand);
}

static void
test_sniff_charset (void)
{
  g_autoptr(GString) late = g_string_new ("<html>");

  assert_charset (NULL, "", 0, "UTF-8", 0);
  assert_charset (NULL, "<title>plain</title>", -1, "UTF-8", 0);
  assert_charset (NULL, "<title>na\xc3\xafve</title>", -1, "UTF-8", 0);
  assert_charset (NULL, "<title>Caf\xe9</title>", -1, "WINDOWS-1252", 0);
  /* A sequence cut at the end of what has arrived so far is still UTF-8 */
  assert_charset (NULL, "<title>caf\xc3", -1, "UTF-8", 0);

  /* The BOM wins over everything, and is reported so that it is skipped */
  assert_charset ("iso-8859-1", "\xef\xbb\xbf<title>x", -1, "UTF-8", 3);
  assert_charset (NULL, "\xff\xfe<\0t\0", 6, "UTF-16LE", 2);
  assert_charset (NULL, "\xfe\xff\0<\0t", 6, "UTF-16BE", 2);

  /* The header wins over the document */
  assert_charset ("koi8-r", "<meta charset='utf-8'>", -1, "koi8-r", 0);
  /* The WHATWG labels for windows-1252 */
  assert_charset ("ISO-8859-1", "<title>x", -1, "WINDOWS-1252", 0);
  assert_charset ("us-ascii", "<title>x", -1, "WINDOWS-1252", 0);
  assert_charset (" Latin1 ", "<title>x", -1, "WINDOWS-1252", 0);
  assert_charset ("utf8", "<title>x", -1, "UTF-8", 0);
  /* Labels that name nothing usable are ignored */
  assert_charset ("bogus\"label", "<title>x", -1, "UTF-8", 0);
  assert_charset ("no-such-charset", "<title>x", -1, "UTF-8", 0);
  assert_charset ("utf-7", "<title>x", -1, "UTF-8", 0);

  assert_charset (NULL, "<meta charset=\"koi8-r\"><title>", -1, "koi8-r", 0);
  assert_charset (NULL, "<META HTTP-EQUIV='Content-Type' CONTENT='text/html; charset=ISO-8859-1'>",
                  -1, "WINDOWS-1252", 0);
  /* A document that can say "utf-16" in ASCII is not UTF-16 */
  assert_charset (NULL, "<meta charset=utf-16>", -1, "UTF-8", 0);

  /* A <meta> after the first KiB is not seen */
  for (guint i = 0; i < 120; i++)
    g_string_append (late, "<!-- pad -->");
  g_string_append (late, "<meta charset='koi8-r'>");
  assert_charset (NULL, late->str, late->len, "UTF-8", 0);
}

static void
test_charset_is_declared (void)
{
  static const char meta[] = "<meta charset=koi8-r><title>x</title>";
  static const char plain[] = "<title>plain</title>";

  g_assert_true (nearby_text_charset_is_declared (NULL, (const guint8 *) "\xef\xbb\xbfx", 4));
  g_assert_true (nearby_text_charset_is_declared ("utf-8", (const guint8 *) plain, strlen (plain)));
  g_assert_true (nearby_text_charset_is_declared (NULL, (const guint8 *) meta, strlen (meta)));
  g_assert_false (nearby_text_charset_is_declared (NULL, (const guint8 *) plain, strlen (plain)));
  g_assert_false (nearby_text_charset_is_declared ("no-such-charset", (const guint8 *) plain,
                                                   strlen (plain)));
  g_assert_false (nearby_text_charset_is_declared (NULL, NULL, 0));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/text/clean", test_clean_text);
  g_test_add_func ("/text/clean-hostile", test_clean_hostile);
  g_test_add_func ("/text/clean-limit", test_clean_limit);
  g_test_add_func ("/text/escape-for-terminal", test_escape_for_terminal);
  g_test_add_func ("/text/validate-utf8", test_validate_utf8);
  g_test_add_func ("/text/sniff-charset", test_sniff_charset);
  g_test_add_func ("/text/charset-is-declared", test_charset_is_declared);

  return g_test_run ();
}
