/* test-hex.c: hex pasted from btmon, hcidump or nRF Connect reads as the same bytes, and a typo
 * is pointed at
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <gio/gio.h>

#include "nearby-hex.h"

static const guint8 flags_and_uuid[] = { 0x02, 0x01, 0x06, 0x03, 0x03, 0xaa, 0xfe };

static void
assert_parses_to (const char   *text,
                  const guint8 *expected,
                  gsize         expected_len)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = nearby_hex_parse (text, &error);
  gsize len;
  const guint8 *data;

  g_assert_no_error (error);
  g_assert_nonnull (bytes);
  data = g_bytes_get_data (bytes, &len);
  g_assert_cmpmem (data, len, expected, expected_len);
}

static char *
parse_error (const char *text)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = nearby_hex_parse (text, &error);

  g_assert_null (bytes);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
  g_assert_true (g_utf8_validate (error->message, -1, NULL));

  return g_strdup (error->message);
}

static void
test_tool_forms (void)
{
  static const char *const forms[] = {
    "02 01 06 03 03 aa fe",           /* btmon */
    "02:01:06:03:03:AA:FE",           /* hcidump */
    "0x02010603 03AAFE",              /* nRF Connect */
    "0x02 0x01 0x06 0x03 0x03 0xaa 0xfe",
    "02-01-06-03-03-aa-fe",
    "02,01,06,03,03,aa,fe",
    "020106\t0303\r\naafe\n",
  };

  for (guint i = 0; i < G_N_ELEMENTS (forms); i++)
    assert_parses_to (forms[i], flags_and_uuid, sizeof flags_and_uuid);
}

static void
test_empty (void)
{
  assert_parses_to ("", NULL, 0);
  assert_parses_to (" : ", NULL, 0);
}

static void
test_errors_point_at_the_typo (void)
{
  g_autofree char *not_hex = parse_error ("10zz");
  g_autofree char *lone = parse_error ("02 01 6");
  g_autofree char *lone_inside = parse_error ("02 1 06");
  g_autofree char *x_inside = parse_error ("020x01");
  g_autofree char *control = parse_error ("02\00701");
  g_autofree char *accented = parse_error ("02é1");

  g_assert_cmpstr (not_hex, ==, "“10zz” is not hexadecimal: unexpected “z” at position 3");
  g_assert_cmpstr (lone, ==,
                   "“02 01 6” has a lone hex digit at position 7: write every byte as two digits");
  g_assert_cmpstr (lone_inside, ==,
                   "“02 1 06” has a lone hex digit at position 4: write every byte as two digits");
  /* "0x" introduces a byte, not the middle of one. */
  g_assert_cmpstr (x_inside, ==, "“020x01” is not hexadecimal: unexpected “x” at position 4");
  g_assert_cmpstr (control, ==,
                   "“02\00701” is not hexadecimal: unexpected character at position 3");
  g_assert_cmpstr (accented, ==, "“02é1” is not hexadecimal: unexpected character at position 3");
}

/* Bytes that are not UTF-8 are not repeated back, wherever they are: the message stays valid
 * text, with the position of the first problem. */
static void
test_error_on_binary_input (void)
{
  g_autofree char *binary = parse_error ("02\xff");
  g_autofree char *typo_before = parse_error ("02 zz \xff");
  g_autofree char *lone_before = parse_error ("02 1 \xff");

  g_assert_cmpstr (binary, ==, "“input” is not hexadecimal: unexpected character at position 3");
  g_assert_cmpstr (typo_before, ==, "“input” is not hexadecimal: unexpected “z” at position 4");
  g_assert_cmpstr (lone_before, ==,
                   "“input” has a lone hex digit at position 4: write every byte as two digits");
}

static void
test_format (void)
{
  g_autofree char *text = nearby_hex_format (flags_and_uuid, sizeof flags_and_uuid);
  g_autofree char *empty = nearby_hex_format (NULL, 0);

  g_assert_cmpstr (text, ==, "0201060303aafe");
  g_assert_cmpstr (empty, ==, "");
  assert_parses_to (text, flags_and_uuid, sizeof flags_and_uuid);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/hex/tool-forms", test_tool_forms);
  g_test_add_func ("/hex/empty", test_empty);
  g_test_add_func ("/hex/errors-point-at-the-typo", test_errors_point_at_the_typo);
  g_test_add_func ("/hex/error-on-binary-input", test_error_on_binary_input);
  g_test_add_func ("/hex/format", test_format);

  return g_test_run ();
}
