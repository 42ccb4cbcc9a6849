/* test-frame-error.c: why a frame was rejected, as the inspector and the broadcast dialog say it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <locale.h>
#include <string.h>

#include "nearby-frame-error.h"

static char *
codec_sentence (const NearbyFrame *frame)
{
  char buffer[NEARBY_FRAME_MESSAGE_MAX];

  return g_strdup (nearby_frame_format_error (frame, buffer, sizeof buffer));
}

/* Untranslated, every code gives the codec's own sentence, with the same numbers: the command
 * line's JSON and the inspector never disagree about a frame. (Counts of 1 are left out here:
 * the codec, without plurals, says "1 bytes".) */
static void
test_every_code_as_the_codec_says_it (void)
{
  static const NearbyProtocol protocols[] = {
    NEARBY_PROTOCOL_NONE, NEARBY_PROTOCOL_EDDYSTONE, NEARBY_PROTOCOL_URIBEACON,
    NEARBY_PROTOCOL_IBEACON,
  };
  static const guint8 bytes[] = { 0x00, 0x02, 0x04, 0x1F, 0x41, 0x93 };
  static const size_t lengths[] = { 0, 2, 7, 23 };
  static const size_t limits[] = { 0, 3, 18 };
  guint n_checked = 0;

  for (int error = NEARBY_FRAME_OK; error <= NEARBY_FRAME_N_ERRORS; error++)
    for (guint p = 0; p < G_N_ELEMENTS (protocols); p++)
      for (int kind = NEARBY_FRAME_KIND_NONE; kind <= NEARBY_FRAME_KIND_IBEACON; kind++)
        for (guint b = 0; b < G_N_ELEMENTS (bytes); b++)
          for (guint l = 0; l < G_N_ELEMENTS (lengths); l++)
            for (guint m = 0; m < G_N_ELEMENTS (limits); m++)
              {
                NearbyFrame frame = { 0 };
                g_autofree char *ours = NULL;
                g_autofree char *codec = NULL;

                frame.error = error;
                frame.protocol = protocols[p];
                frame.kind = kind;
                frame.error_offset = 5;
                frame.error_byte = bytes[b];
                frame.error_length = lengths[l];
                frame.error_limit = limits[m];
                /* The encoder's "too long" is always over its limit. */
                if (error == NEARBY_FRAME_ERROR_URL_TOO_LONG && lengths[l] <= limits[m])
                  continue;

                ours = nearby_frame_describe_error (&frame);
                codec = codec_sentence (&frame);
                g_assert_true (g_utf8_validate (ours, -1, NULL));
                g_assert_cmpstr (ours, ==, codec);
                n_checked++;
              }

  g_assert_cmpuint (n_checked, >, 10000);
}

/* The numbers a developer needs to find the fault: where, which byte, how long, how long it may
 * be. */
static void
test_sentences_name_the_numbers (void)
{
  NearbyFrame frame = { 0 };
  g_autofree char *text = NULL;

  frame.protocol = NEARBY_PROTOCOL_EDDYSTONE;
  frame.kind = NEARBY_FRAME_KIND_URL;
  frame.error = NEARBY_FRAME_ERROR_RESERVED_BYTE;
  frame.error_offset = 6;
  frame.error_byte = 0x1F;
  text = nearby_frame_describe_error (&frame);
  g_assert_cmpstr (text, ==, "Byte 6 of the URL frame is 0x1F, which is reserved: only expansion "
                             "codes 0x00–0x0D and printable ASCII 0x21–0x7E are allowed.");
  g_free (text);

  frame.error = NEARBY_FRAME_ERROR_URL_TOO_LONG;
  frame.error_length = 36;
  frame.error_limit = 18;
  text = nearby_frame_describe_error (&frame);
  g_assert_cmpstr (text, ==, "The URL needs 36 bytes with its scheme prefix, 18 more than the 18 "
                             "a frame carries: use a URL shortener.");
  g_free (text);

  frame.error = NEARBY_FRAME_ERROR_UNSUPPORTED_CHARACTER;
  frame.error_offset = 19;
  frame.error_byte = ' ';
  text = nearby_frame_describe_error (&frame);
  g_assert_nonnull (strstr (text, "Character 20 of the URL is byte 0x20"));
  g_free (text);

  frame.protocol = NEARBY_PROTOCOL_URIBEACON;
  frame.error = NEARBY_FRAME_ERROR_UNKNOWN_SCHEME;
  frame.error_offset = 2;
  frame.error_byte = 0x09;
  text = nearby_frame_describe_error (&frame);
  g_assert_nonnull (strstr (text, "Byte 2, the URL scheme prefix, is 0x09"));
  g_assert_nonnull (strstr (text, "0x04 urn:uuid:"));
  g_free (text);

  /* A code the codec does not know still gets a sentence. */
  frame.error = NEARBY_FRAME_N_ERRORS + 3;
  text = nearby_frame_describe_error (&frame);
  g_assert_cmpstr (text, ==, "Unknown error.");
}

/* What the decoder rejects says where, in bytes as they came. */
static void
test_decoded_frames (void)
{
  static const guint8 reserved[] = { 0x10, 0xee, 0x03, 'a', 0x1f };
  static const guint8 flags[] = { 0x06, 0x20, 0x02, 'a', 'b' };
  NearbyFrame frame;
  g_autofree char *text = NULL;

  g_assert_cmpint (nearby_frame_decode_service_data (NEARBY_UUID16_EDDYSTONE, reserved,
                                                     sizeof reserved, &frame),
                   ==, NEARBY_FRAME_ERROR_RESERVED_BYTE);
  text = nearby_frame_describe_error (&frame);
  g_assert_nonnull (strstr (text, "Byte 4 of the URL frame is 0x1F"));
  g_free (text);

  g_assert_cmpint (nearby_frame_decode_service_data (NEARBY_UUID16_URIBEACON, flags,
                                                     sizeof flags, &frame),
                   ==, NEARBY_FRAME_ERROR_RESERVED_FLAGS);
  text = nearby_frame_describe_error (&frame);
  g_assert_cmpstr (text, ==, "UriBeacon flags are 0x06: only bit 0 (Invisible Hint, 0x01) is "
                             "defined; bits 1–7 must be zero.");
}

/* One byte is "byte", two are "bytes": the codec cannot say that, gettext can. */
static void
test_plurals (void)
{
  NearbyFrame frame = { 0 };
  g_autofree char *one = NULL;
  g_autofree char *three = NULL;
  g_autofree char *follows = NULL;
  g_autofree char *follow = NULL;

  frame.protocol = NEARBY_PROTOCOL_EDDYSTONE;
  frame.kind = NEARBY_FRAME_KIND_TLM;
  frame.error = NEARBY_FRAME_ERROR_TRUNCATED;
  frame.error_limit = 14;
  frame.error_length = 1;
  one = nearby_frame_describe_error (&frame);
  g_assert_cmpstr (one, ==, "The Eddystone-TLM frame is 1 byte long; it needs 14.");
  frame.error_length = 3;
  three = nearby_frame_describe_error (&frame);
  g_assert_cmpstr (three, ==, "The Eddystone-TLM frame is 3 bytes long; it needs 14.");

  frame.protocol = NEARBY_PROTOCOL_NONE;
  frame.kind = NEARBY_FRAME_KIND_NONE;
  frame.error = NEARBY_FRAME_ERROR_MALFORMED_AD;
  frame.error_offset = 11;
  frame.error_byte = 0x16;
  frame.error_length = 22;
  frame.error_limit = 1;
  follows = nearby_frame_describe_error (&frame);
  g_assert_cmpstr (follows, ==, "The AD structure at byte 11 says it is 22 bytes long, but only "
                                "1 byte follows it.");
  frame.error_limit = 4;
  follow = nearby_frame_describe_error (&frame);
  g_assert_cmpstr (follow, ==, "The AD structure at byte 11 says it is 22 bytes long, but only "
                               "4 bytes follow it.");
}

/* In German, with the catalogue built next to the tests. */
static void
test_translated (void)
{
  g_autofree char *catalogue = g_test_build_filename (G_TEST_BUILT, "..", "po", "de",
                                                      "LC_MESSAGES", "nearby.mo", NULL);
  g_autofree char *locale_dir = g_test_build_filename (G_TEST_BUILT, "..", "po", NULL);
  NearbyFrame frame = { 0 };
  g_autofree char *one = NULL;
  g_autofree char *three = NULL;

  if (!g_file_test (catalogue, G_FILE_TEST_EXISTS))
    {
      g_test_skip ("the German catalogue is not built");
      return;
    }

  bindtextdomain (GETTEXT_PACKAGE, locale_dir);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);
  g_setenv ("LANGUAGE", "de", TRUE);
  /* Makes gettext read LANGUAGE again. */
  setlocale (LC_ALL, "");

  frame.protocol = NEARBY_PROTOCOL_EDDYSTONE;
  frame.kind = NEARBY_FRAME_KIND_UID;
  frame.error = NEARBY_FRAME_ERROR_TRUNCATED;
  frame.error_length = 1;
  one = nearby_frame_describe_error (&frame);
  frame.error_length = 3;
  three = nearby_frame_describe_error (&frame);

  g_unsetenv ("LANGUAGE");
  setlocale (LC_ALL, "");

  g_assert_cmpstr (one, ==, "Der Eddystone-UID-Frame ist 1 Byte lang; er benötigt 18 (20 mit den "
                            "beiden reservierten Bytes).");
  g_assert_cmpstr (three, ==, "Der Eddystone-UID-Frame ist 3 Bytes lang; er benötigt 18 (20 mit "
                              "den beiden reservierten Bytes).");
}

int
main (int   argc,
      char *argv[])
{
  /* English unless a test asks for German, whatever the caller's environment says. */
  g_unsetenv ("LANGUAGE");
  setlocale (LC_ALL, "");
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/frame-error/every-code-as-the-codec-says-it",
                   test_every_code_as_the_codec_says_it);
  g_test_add_func ("/frame-error/sentences-name-the-numbers", test_sentences_name_the_numbers);
  g_test_add_func ("/frame-error/decoded-frames", test_decoded_frames);
  g_test_add_func ("/frame-error/plurals", test_plurals);
  g_test_add_func ("/frame-error/translated", test_translated);

  return g_test_run ();
}
