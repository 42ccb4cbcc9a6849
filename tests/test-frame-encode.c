/* test-frame-encode.c: the URL encoder finds the shortest frame, which decodes back to the
 * URL, and says why a URL does not fit
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <glib.h>
#include <string.h>

#include "nearby-frame.h"

#define SEED 0x6e656172  /* fixed, so that a failure reproduces */

static char *
message_of (const NearbyFrame *frame)
{
  char buffer[NEARBY_FRAME_MESSAGE_MAX];

  return g_strdup (nearby_frame_format_error (frame, buffer, sizeof buffer));
}

static const char *const test_schemes[] = { "http://www.", "https://www.", "http://", "https://" };
static const char *const test_expansions[] = {
  ".com/", ".org/", ".edu/", ".net/", ".info/", ".biz/", ".gov/",
  ".com", ".org", ".edu", ".net", ".info", ".biz", ".gov",
};

/* Tries every way to write @text as literal characters and expansion codes. Branch and bound:
 * a partial encoding is abandoned only when it already uses as many bytes as the best complete
 * one, so every encoding that could be shorter is still tried. */
static void
exhaustive_search (const char *text,
                   size_t      used,
                   size_t     *best)
{
  if (*text == '\0')
    {
      *best = MIN (*best, used);
      return;
    }
  if (used + 1 >= *best)
    return;

  for (guint code = 0; code < G_N_ELEMENTS (test_expansions); code++)
    {
      size_t len = strlen (test_expansions[code]);

      if (strncmp (text, test_expansions[code], len) == 0)
        exhaustive_search (text + len, used + 1, best);
    }
  exhaustive_search (text + 1, used + 1, best);
}

static size_t
exhaustive_shortest (const char *text)
{
  size_t best = G_MAXSIZE;

  exhaustive_search (text, 0, &best);
  return best;
}

/* The shortest over every scheme prefix the URL starts with, leaving something after it. */
static size_t
exhaustive_shortest_url (const char *url)
{
  size_t best = G_MAXSIZE;

  for (guint s = 0; s < G_N_ELEMENTS (test_schemes); s++)
    {
      size_t len = strlen (test_schemes[s]);

      if (strlen (url) > len && strncmp (url, test_schemes[s], len) == 0)
        best = MIN (best, 1 + exhaustive_shortest (url + len));
    }

  return best;
}

/* URLs built from pieces that overlap the expansion table in every way: ".com/" next to ".co",
 * "m/", ".info" next to ".inf", "o/" and so on. */
static char *
generate_url (GRand   *rand,
              gboolean printable_noise)
{
  static const char *const url_starts[] = {
    "http://", "https://", "http://www.", "https://www.", "https://www", "http://www",
  };
  static const char *const pieces[] = {
    "a", "b", "o", "m", "/", ".", "com", ".com", ".com/", ".co", "m/", ".org", ".org/", "org",
    ".info", ".info/", ".inf", "o/", ".net", ".net/", ".gov/", ".gov", ".biz", ".biz/", ".edu",
    ".edu/", "x.", "-", "%20", "?q=", "www.", "w", "e", "du/",
  };
  GString *url = g_string_new (url_starts[g_rand_int_range (rand, 0, G_N_ELEMENTS (url_starts))]);
  int n_pieces = g_rand_int_range (rand, 1, 14);

  for (int i = 0; i < n_pieces; i++)
    {
      if (printable_noise && g_rand_int_range (rand, 0, 4) == 0)
        g_string_append_c (url, (char) g_rand_int_range (rand, 0x21, 0x7f));
      else
        g_string_append (url, pieces[g_rand_int_range (rand, 0, G_N_ELEMENTS (pieces))]);
    }

  return g_string_free (url, FALSE);
}

static void
check_encoding_is_shortest (const char *url)
{
  guint8 out[NEARBY_FRAME_URL_SERVICE_DATA_MAX];
  size_t out_len;
  NearbyFrame status;
  NearbyFrame decoded;
  NearbyFrameError error;
  size_t expected = exhaustive_shortest_url (url);

  error = nearby_frame_encode_url (NEARBY_PROTOCOL_EDDYSTONE, url, 0, -20, out, &out_len, &status);
  if (expected == G_MAXSIZE)
    {
      g_assert_cmpint (error, ==, NEARBY_FRAME_ERROR_UNSUPPORTED_SCHEME);
      return;
    }
  if (expected > NEARBY_FRAME_ENCODED_URL_MAX)
    {
      g_assert_cmpint (error, ==, NEARBY_FRAME_ERROR_URL_TOO_LONG);
      g_assert_cmpuint (status.error_length, ==, expected);
      g_assert_cmpuint (status.error_length - status.error_limit, ==, expected - NEARBY_FRAME_ENCODED_URL_MAX);
      return;
    }

  g_assert_cmpint (error, ==, NEARBY_FRAME_OK);
  g_assert_cmpuint (out_len, ==, 2 + expected);
  g_assert_cmpint (nearby_frame_decode_service_data (NEARBY_UUID16_EDDYSTONE, out, out_len, &decoded),
                   ==, NEARBY_FRAME_OK);
  g_assert_cmpstr (decoded.url, ==, url);
}

/* The DP finds the same length as trying every encoding, for thousands of URLs. */
static void
test_encode_shortest_exhaustive (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (SEED);
  guint fitting = 0;

  for (guint i = 0; i < 4000; i++)
    {
      g_autofree char *url = generate_url (rand, i % 2 == 0);

      check_encoding_is_shortest (url);
      if (exhaustive_shortest_url (url) <= NEARBY_FRAME_ENCODED_URL_MAX)
        fitting++;
    }
  /* The generator must exercise both sides of the limit. */
  g_assert_cmpuint (fitting, >, 400);
  g_assert_cmpuint (fitting, <, 3600);

  /* Where greedy longest-match goes wrong: taking the longest scheme "http://www." leaves
   * "info/" as five literal bytes, while "http://" + "www" + ".info/" takes four. */
  {
    guint8 out[NEARBY_FRAME_URL_SERVICE_DATA_MAX];
    size_t out_len, excess;
    static const guint8 expected[] = { 0x10, 0x00, 0x02, 'w', 'w', 'w', 0x04 };

    g_assert_cmpint (nearby_frame_encode_eddystone_url ("http://www.info/", 0, out, &out_len, &excess),
                     ==, NEARBY_FRAME_OK);
    g_assert_cmpmem (out, out_len, expected, sizeof expected);
  }

  /* Hand-picked overlaps: ".com/" vs ".com" + "/", "www." in the scheme or not. */
  check_encoding_is_shortest ("http://www.com/");
  check_encoding_is_shortest ("http://www.info/");
  check_encoding_is_shortest ("https://www.gov.biz/");
  check_encoding_is_shortest ("https://a.com/.com.org/.info/.info");
  check_encoding_is_shortest ("https://www.www.com");
  check_encoding_is_shortest ("http://.com/.com/.com/.com/.com/.com/.com/.com/.com/.com/.com/.com/.com/.com/.com/.com/.com/");
  check_encoding_is_shortest ("http://.com/.com/.com/.com/.com/.com/.com/.com/.com/.com/.com/.com/.com/.com/.com/.com/.com/.com/");
}

/* decode(encode(url)) == url, for both protocols, over many generated URLs. */
static void
test_encode_roundtrip (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (SEED + 1);

  for (guint i = 0; i < 20000; i++)
    {
      g_autofree char *url = generate_url (rand, TRUE);
      guint8 out[NEARBY_FRAME_URL_SERVICE_DATA_MAX];
      size_t out_len, excess;
      NearbyFrame frame;

      if (nearby_frame_encode_eddystone_url (url, -20, out, &out_len, &excess) == NEARBY_FRAME_OK)
        {
          g_assert_cmpuint (out_len, <=, NEARBY_FRAME_URL_SERVICE_DATA_MAX);
          g_assert_cmpint (nearby_frame_decode_service_data (NEARBY_UUID16_EDDYSTONE, out, out_len, &frame),
                           ==, NEARBY_FRAME_OK);
          g_assert_cmpstr (frame.url, ==, url);
          g_assert_cmpint (frame.tx_power, ==, -20);
        }
      else
        g_assert_cmpuint (excess, >, 0);

      if (nearby_frame_encode_uribeacon (url, 0x01, 4, out, &out_len, &excess) == NEARBY_FRAME_OK)
        {
          g_assert_cmpint (nearby_frame_decode_service_data (NEARBY_UUID16_URIBEACON, out, out_len, &frame),
                           ==, NEARBY_FRAME_OK);
          g_assert_cmpstr (frame.url, ==, url);
          g_assert_true (frame.invisible);
        }
    }
}

static void
test_encode_errors (void)
{
  guint8 out[NEARBY_FRAME_URL_SERVICE_DATA_MAX];
  size_t out_len, excess;
  NearbyFrame status;
  g_autofree char *message = NULL;
  g_autofree char *long_url = NULL;
  GString *huge = g_string_new ("https://");

  g_assert_cmpint (nearby_frame_encode_url (NEARBY_PROTOCOL_EDDYSTONE, "https://exa mple.com", 0, 0, out,
                                            &out_len, &status), ==, NEARBY_FRAME_ERROR_UNSUPPORTED_CHARACTER);
  g_assert_cmpuint (status.error_offset, ==, 11);
  message = message_of (&status);
  g_assert_cmpstr (message, ==, "Character 12 of the URL is byte 0x20, which no frame can carry: only printable "
                                "ASCII 0x21–0x7E is allowed; percent-encode it.");
  g_clear_pointer (&message, g_free);

  g_assert_cmpint (nearby_frame_encode_url (NEARBY_PROTOCOL_EDDYSTONE, "https://café.fr", 0, 0, out,
                                            &out_len, &status), ==, NEARBY_FRAME_ERROR_UNSUPPORTED_CHARACTER);
  g_assert_cmpuint (status.error_offset, ==, 11);
  g_assert_cmpuint (status.error_byte, ==, 0xc3);

  /* By how many bytes it is over, with the same answer from both entry points. */
  g_assert_cmpint (nearby_frame_encode_eddystone_url ("https://example.com/a-rather-long-path", 0, out,
                                                      &out_len, &excess), ==, NEARBY_FRAME_ERROR_URL_TOO_LONG);
  g_assert_cmpuint (excess, ==, 1 + 7 + 1 + 18 - NEARBY_FRAME_ENCODED_URL_MAX);
  g_assert_cmpuint (out_len, ==, 0);
  g_assert_cmpint (nearby_frame_encode_url (NEARBY_PROTOCOL_EDDYSTONE, "https://example.com/a-rather-long-path",
                                            0, 0, out, &out_len, &status), ==, NEARBY_FRAME_ERROR_URL_TOO_LONG);
  message = message_of (&status);
  g_assert_cmpstr (message, ==, "The URL needs 27 bytes with its scheme prefix, 9 more than the 18 a frame "
                                "carries: use a URL shortener.");
  g_clear_pointer (&message, g_free);

  /* However long the URL, the excess is exact and nothing overflows. */
  for (int i = 0; i < 5000; i++)
    g_string_append (huge, "ab.com/");
  g_assert_cmpint (nearby_frame_encode_eddystone_url (huge->str, 0, out, &out_len, &excess),
                   ==, NEARBY_FRAME_ERROR_URL_TOO_LONG);
  g_assert_cmpuint (excess, ==, 1 + 5000 * 3 - NEARBY_FRAME_ENCODED_URL_MAX);
  g_string_free (huge, TRUE);

  g_assert_cmpint (nearby_frame_encode_eddystone_url ("ftp://example.com", 0, out, &out_len, &excess),
                   ==, NEARBY_FRAME_ERROR_UNSUPPORTED_SCHEME);
  g_assert_cmpint (nearby_frame_encode_eddystone_url ("", 0, out, &out_len, &excess),
                   ==, NEARBY_FRAME_ERROR_UNSUPPORTED_SCHEME);
  g_assert_cmpint (nearby_frame_encode_eddystone_url ("https://", 0, out, &out_len, &excess),
                   ==, NEARBY_FRAME_ERROR_EMPTY_URL);
  /* "http://www." alone would be an empty frame with scheme 0x00: http:// + "www." it is. */
  g_assert_cmpint (nearby_frame_encode_eddystone_url ("http://www.", 0, out, &out_len, &excess),
                   ==, NEARBY_FRAME_OK);
  g_assert_cmpuint (out[2], ==, 0x02);

  /* urn:uuid: is UriBeacon's alone, and must be a UUID. */
  g_assert_cmpint (nearby_frame_encode_eddystone_url ("urn:uuid:b1e13d51-5fc9-4d5b-902b-ab668dd54981", 0,
                                                      out, &out_len, &excess), ==,
                   NEARBY_FRAME_ERROR_UNSUPPORTED_SCHEME);
  g_assert_cmpint (nearby_frame_encode_uribeacon ("urn:uuid:b1e13d51-5fc9-4d5b-902b-ab668dd5498", 0, 0,
                                                  out, &out_len, &excess), ==, NEARBY_FRAME_ERROR_INVALID_UUID);
  g_assert_cmpint (nearby_frame_encode_uribeacon ("urn:uuid:b1e13d51x5fc9-4d5b-902b-ab668dd54981", 0, 0,
                                                  out, &out_len, &excess), ==, NEARBY_FRAME_ERROR_INVALID_UUID);
  g_assert_cmpint (nearby_frame_encode_uribeacon ("https://a.org", 0x02, 0, out, &out_len, &excess),
                   ==, NEARBY_FRAME_ERROR_RESERVED_FLAGS);

  long_url = g_strdup ("https://abcdefghijklmnopq");  /* 17 bytes: fits exactly */
  g_assert_cmpint (nearby_frame_encode_eddystone_url (long_url, 0, out, &out_len, &excess), ==, NEARBY_FRAME_OK);
  g_assert_cmpuint (out_len, ==, NEARBY_FRAME_URL_SERVICE_DATA_MAX);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/frame/encode/shortest-exhaustive", test_encode_shortest_exhaustive);
  g_test_add_func ("/frame/encode/roundtrip", test_encode_roundtrip);
  g_test_add_func ("/frame/encode/errors", test_encode_errors);

  return g_test_run ();
}
