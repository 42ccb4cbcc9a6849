/* test-icon.c: which of a page's images becomes its row's icon, and how
 *
 * Plain images are drawn with GdkPixbuf at test time; the variants a server may send (an ICO
 * of several sizes or holding a PNG, progressive and CMYK JPEG, interlaced and 16-bit PNG, an
 * animation) are small files in tests/data/icons/; hostile headers are built byte by byte.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <gdk-pixbuf/gdk-pixbuf.h>
#include <string.h>

#include "nearby-icon.h"
#include "nearby-test-utils.h"

#define ROW_SIZE 64

/* A GIF of one frame, whose image descriptor may say something else than its header. */
static GBytes *
make_gif (guint16 screen_width,
          guint16 screen_height,
          guint16 frame_width,
          guint16 frame_height)
{
  guint8 gif[] = {
    'G', 'I', 'F', '8', '9', 'a', 0, 0, 0, 0, 0x80, 0, 0,   /* header, 2-colour table */
    0x00, 0x00, 0x00, 0xff, 0xff, 0xff,
    0x2c, 0, 0, 0, 0, 0, 0, 0, 0, 0x00,                    /* image descriptor */
    0x02, 0x02, 0x44, 0x01, 0x00,                          /* LZW: clear, one pixel, end */
    0x3b,
  };

  gif[6] = screen_width;
  gif[7] = screen_width >> 8;
  gif[8] = screen_height;
  gif[9] = screen_height >> 8;
  gif[24] = frame_width;
  gif[25] = frame_width >> 8;
  gif[26] = frame_height;
  gif[27] = frame_height >> 8;

  return g_bytes_new (gif, sizeof gif);
}

static GBytes *
read_fixture (const char *name)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "icons", name, NULL);
  g_autoptr(GError) error = NULL;
  char *contents = NULL;
  gsize len = 0;

  g_file_get_contents (path, &contents, &len, &error);
  g_assert_no_error (error);

  return g_bytes_new_take (contents, len);
}

static guint32
crc32_of (const guint8 *data,
          gsize         len)
{
  guint32 crc = 0xffffffff;

  for (gsize i = 0; i < len; i++)
    {
      crc ^= data[i];
      for (int k = 0; k < 8; k++)
        crc = (crc >> 1) ^ (0xedb88320 & (0 - (crc & 1)));
    }

  return ~crc;
}

static void
put_be32 (guint8  *p,
          guint32  v)
{
  p[0] = v >> 24;
  p[1] = v >> 16;
  p[2] = v >> 8;
  p[3] = v;
}

static void
put_le32 (guint8  *p,
          guint32  v)
{
  p[0] = v;
  p[1] = v >> 8;
  p[2] = v >> 16;
  p[3] = v >> 24;
}

/* A PNG whose header claims width x height: a decoder that trusted 20000x20000 would allocate
 * 1.6 GB. */
static GBytes *
make_png_header (guint32 width,
                 guint32 height)
{
  guint8 png[8 + 25 + 12];

  memcpy (png, "\x89PNG\r\n\x1a\n", 8);
  put_be32 (png + 8, 13);
  memcpy (png + 12, "IHDR", 4);
  put_be32 (png + 16, width);
  put_be32 (png + 20, height);
  png[24] = 8;   /* bit depth */
  png[25] = 6;   /* RGBA */
  png[26] = 0;
  png[27] = 0;
  png[28] = 0;
  put_be32 (png + 29, crc32_of (png + 12, 17));
  put_be32 (png + 33, 0);
  memcpy (png + 37, "IEND", 4);
  put_be32 (png + 41, crc32_of ((const guint8 *) "IEND", 4));

  return g_bytes_new (png, sizeof png);
}

/* An ICO with one entry that holds the given image; the directory says 256x256, as it does for
 * every entry that large. */
static GBytes *
wrap_in_ico (GBytes *image)
{
  gsize len = g_bytes_get_size (image);
  guint8 *ico = g_malloc0 (6 + 16 + len);

  ico[2] = 1;                  /* type: icon */
  ico[4] = 1;                  /* one entry */
  ico[6 + 4] = 1;              /* planes */
  ico[6 + 6] = 32;             /* bits per pixel */
  put_le32 (ico + 6 + 8, len);
  put_le32 (ico + 6 + 12, 6 + 16);
  memcpy (ico + 6 + 16, g_bytes_get_data (image, NULL), len);

  return g_bytes_new_take (ico, 6 + 16 + len);
}

static NearbyIcon *
decode (GBytes  *bytes,
        GError **error)
{
  gsize len;
  const guint8 *data = g_bytes_get_data (bytes, &len);

  return nearby_icon_decode (data, len, ROW_SIZE, error);
}

/* What the row gets is always a PNG no larger than the row needs. */
static void
assert_row_png (NearbyIcon *icon,
                int         expected_width,
                int         expected_height)
{
  g_autoptr(GdkPixbufLoader) loader = gdk_pixbuf_loader_new_with_type ("png", NULL);
  GdkPixbuf *pixbuf;

  g_assert_nonnull (icon->png);
  g_assert_true (gdk_pixbuf_loader_write_bytes (loader, icon->png, NULL));
  g_assert_true (gdk_pixbuf_loader_close (loader, NULL));
  pixbuf = gdk_pixbuf_loader_get_pixbuf (loader);
  g_assert_cmpint (gdk_pixbuf_get_width (pixbuf), ==, expected_width);
  g_assert_cmpint (gdk_pixbuf_get_height (pixbuf), ==, expected_height);
}

static void
test_formats (void)
{
  struct {
    const char *type;
    int         size;
    const char *mime_type;
  } cases[] = {
    { "png", 96, "image/png" },
    { "png", 16, "image/png" },
    { "ico", 32, "image/x-icon" },
    { "jpeg", 48, "image/jpeg" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GBytes) bytes = nearby_test_make_image (cases[i].type, cases[i].size, cases[i].size);
      g_autoptr(GError) error = NULL;
      g_autoptr(NearbyIcon) icon = NULL;
      int shown = MIN (cases[i].size, ROW_SIZE);

      g_test_message ("%s %d", cases[i].type, cases[i].size);
      icon = decode (bytes, &error);
      g_assert_no_error (error);
      g_assert_cmpstr (icon->mime_type, ==, cases[i].mime_type);
      /* The size as served, for the Details view; the PNG as the row shows it */
      g_assert_cmpint (icon->width, ==, cases[i].size);
      g_assert_cmpint (icon->height, ==, cases[i].size);
      assert_row_png (icon, shown, shown);
    }

  /* A frame smaller than the screen gives the screen's size */
  {
    g_autoptr(GBytes) gif = make_gif (16, 16, 8, 4);
    g_autoptr(GError) error = NULL;
    g_autoptr(NearbyIcon) icon = decode (gif, &error);

    g_assert_no_error (error);
    g_assert_cmpint (icon->width, ==, 16);
    assert_row_png (icon, 16, 16);
  }

  {
    g_autoptr(GBytes) gif = nearby_test_gif_1x1 ();
    g_autoptr(GError) error = NULL;
    g_autoptr(NearbyIcon) icon = decode (gif, &error);

    g_assert_no_error (error);
    g_assert_cmpstr (icon->mime_type, ==, "image/gif");
    g_assert_cmpint (icon->width, ==, 1);
    assert_row_png (icon, 1, 1);
  }
}

static GdkPixbuf *
load_png (GBytes *png)
{
  g_autoptr(GdkPixbufLoader) loader = gdk_pixbuf_loader_new_with_type ("png", NULL);

  g_assert_true (gdk_pixbuf_loader_write_bytes (loader, png, NULL));
  g_assert_true (gdk_pixbuf_loader_close (loader, NULL));

  return g_object_ref (gdk_pixbuf_loader_get_pixbuf (loader));
}

static void
assert_same_pixels (GdkPixbuf *expected,
                    GdkPixbuf *shown)
{
  int width = gdk_pixbuf_get_width (expected);
  int channels = gdk_pixbuf_get_n_channels (expected);

  g_assert_cmpint (gdk_pixbuf_get_width (shown), ==, width);
  g_assert_cmpint (gdk_pixbuf_get_height (shown), ==, gdk_pixbuf_get_height (expected));
  g_assert_cmpint (gdk_pixbuf_get_n_channels (shown), ==, channels);
  for (int y = 0; y < gdk_pixbuf_get_height (expected); y++)
    {
      const guint8 *a = gdk_pixbuf_read_pixels (expected) + y * gdk_pixbuf_get_rowstride (expected);
      const guint8 *b = gdk_pixbuf_read_pixels (shown) + y * gdk_pixbuf_get_rowstride (shown);

      g_assert_cmpmem (a, width * channels, b, width * channels);
    }
}

/* The PNG the app keeps shows every pixel as served, alpha included: an icon with a gradient
 * and see-through corners, and a JPEG (no alpha) as GdkPixbuf decodes it. */
static void
test_pixels_kept (void)
{
  g_autoptr(GdkPixbuf) drawn = gdk_pixbuf_new (GDK_COLORSPACE_RGB, TRUE, 8, 40, 24);
  g_autoptr(GBytes) jpeg = nearby_test_make_image ("jpeg", 48, 48);
  g_autoptr(GInputStream) jpeg_stream = g_memory_input_stream_new_from_bytes (jpeg);
  g_autoptr(GdkPixbuf) jpeg_decoded = NULL;
  g_autoptr(GdkPixbuf) shown = NULL;
  g_autoptr(NearbyIcon) icon = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *served = NULL;
  gsize served_len = 0;

  for (int y = 0; y < 24; y++)
    {
      guint8 *row = gdk_pixbuf_get_pixels (drawn) + y * gdk_pixbuf_get_rowstride (drawn);

      for (int x = 0; x < 40; x++)
        {
          row[4 * x] = x * 6;
          row[4 * x + 1] = y * 10;
          row[4 * x + 2] = (x * y) & 0xff;
          row[4 * x + 3] = (x < 4 && y < 4) ? 0 : 128 + x;
        }
    }
  g_assert_true (gdk_pixbuf_save_to_buffer (drawn, &served, &served_len, "png", &error, NULL));
  icon = nearby_icon_decode ((const guint8 *) served, served_len, ROW_SIZE, &error);
  g_assert_no_error (error);
  shown = load_png (icon->png);
  assert_same_pixels (drawn, shown);
  g_clear_pointer (&icon, nearby_icon_free);
  g_clear_object (&shown);

  jpeg_decoded = gdk_pixbuf_new_from_stream (jpeg_stream, NULL, &error);
  g_assert_no_error (error);
  icon = decode (jpeg, &error);
  g_assert_no_error (error);
  shown = load_png (icon->png);
  g_assert_false (gdk_pixbuf_get_has_alpha (shown));
  assert_same_pixels (jpeg_decoded, shown);
}

/* A wide banner keeps its proportions. */
static void
test_scaling (void)
{
  g_autoptr(GBytes) wide = nearby_test_make_image ("png", 200, 50);
  g_autoptr(GBytes) tall = nearby_test_make_image ("jpeg", 30, 90);
  g_autoptr(GError) error = NULL;
  g_autoptr(NearbyIcon) wide_icon = decode (wide, &error);
  g_autoptr(NearbyIcon) tall_icon = NULL;

  g_assert_no_error (error);
  g_assert_cmpint (wide_icon->width, ==, 200);
  g_assert_cmpint (wide_icon->height, ==, 50);
  assert_row_png (wide_icon, 64, 16);

  tall_icon = decode (tall, &error);
  g_assert_no_error (error);
  assert_row_png (tall_icon, 21, 64);
}

/* What real servers send besides the plain case. */
static void
test_fixtures (void)
{
  struct {
    const char *name;
    const char *mime_type;
    int         width;
    int         height;
  } cases[] = {
    { "interlaced.png", "image/png", 24, 24 },
    { "gray16.png", "image/png", 20, 20 },
    { "progressive.jpg", "image/jpeg", 40, 30 },
    { "cmyk.jpg", "image/jpeg", 20, 20 },
    { "animated.gif", "image/gif", 12, 12 },
    { "multi-size.ico", "image/x-icon", 24, 24 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GBytes) bytes = read_fixture (cases[i].name);
      g_autoptr(GError) error = NULL;
      g_autoptr(NearbyIcon) icon = NULL;

      g_test_message ("%s", cases[i].name);
      icon = decode (bytes, &error);
      g_assert_no_error (error);
      g_assert_cmpstr (icon->mime_type, ==, cases[i].mime_type);
      g_assert_cmpint (icon->width, ==, cases[i].width);
      g_assert_cmpint (icon->height, ==, cases[i].height);
      assert_row_png (icon, MIN (cases[i].width, ROW_SIZE), MIN (cases[i].height, ROW_SIZE));
    }
}

static void
assert_refused (const char *what,
                GBytes     *bytes,
                int         code)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(NearbyIcon) icon = NULL;

  g_test_message ("%s", what);
  icon = decode (bytes, &error);
  g_assert_null (icon);
  g_assert_nonnull (error);
  if (code >= 0)
    g_assert_error (error, G_IO_ERROR, code);
}

static void
assert_refused_data (const char *what,
                     const void *data,
                     gsize       len,
                     int         code)
{
  g_autoptr(GBytes) bytes = g_bytes_new (data, len);

  assert_refused (what, bytes, code);
}

/* The page keeps no icon; nothing allocates what a header claims. */
static void
test_refused (void)
{
  static const guint8 malformed_ico[] = { 0, 0, 1, 0, 1, 0, 16, 16, 0, 0, 1, 0, 32, 0,
                                          0xff, 0xff, 0, 0, 0xf0, 0xff, 0xff, 0x7f, 1, 2, 3 };
  static const guint8 gif_no_size[] = { 'G', 'I', 'F', '8', '9', 'a', 0, 0, 0, 0, 0x80, 0, 0 };
  static const guint8 jpeg_no_frame[] = { 0xff, 0xd8, 0xff, 0xe0, 0x00, 0x04, 0, 0, 0xff, 0xd9,
                                          0, 0, 0, 0, 0, 0 };
  static const char svg[] = "<svg xmlns='http://www.w3.org/2000/svg' width='10' height='10'/>";
  static const char webp[] = "RIFF\x1a\0\0\0WEBPVP8L\x0d\0\0\0\x2f\0\0\0"
                             "\x10\x07\x10\x11\x11\x88\x88\xfe\x07\0";
  g_autoptr(GBytes) huge = make_png_header (20000, 20000);
  g_autoptr(GBytes) zero = make_png_header (0, 16);
  g_autoptr(GBytes) too_wide = read_fixture ("too-wide.png");
  g_autoptr(GBytes) ico = nearby_test_make_image ("ico", 32, 32);
  g_autoptr(GBytes) truncated_ico = g_bytes_new_from_bytes (ico, 0, g_bytes_get_size (ico) / 2);
  g_autoptr(GBytes) png = nearby_test_make_image ("png", 32, 32);
  g_autoptr(GBytes) truncated_png = g_bytes_new_from_bytes (png, 0, 20);
  g_autoptr(GBytes) bmp = nearby_test_make_image ("bmp", 8, 8);
  g_autoptr(GBytes) huge_frame = make_gif (8, 8, 20000, 20000);
  g_autoptr(GBytes) wider_frame = make_gif (8, 8, 9, 8);
  g_autoptr(GBytes) empty_frame = make_gif (8, 8, 0, 8);
  g_autoptr(GBytes) animation = read_fixture ("frame-past-screen.gif");
  g_autoptr(GBytes) hidden_frame = read_fixture ("frame-after-empty-block.gif");

  assert_refused ("20000x20000 PNG", huge, G_IO_ERROR_INVALID_DATA);
  assert_refused ("0x16 PNG", zero, G_IO_ERROR_INVALID_DATA);
  assert_refused ("3000x1 PNG", too_wide, G_IO_ERROR_INVALID_DATA);
  assert_refused ("truncated ICO", truncated_ico, G_IO_ERROR_INVALID_DATA);
  assert_refused_data ("ICO entry outside the file", malformed_ico, sizeof malformed_ico,
                       G_IO_ERROR_INVALID_DATA);
  assert_refused_data ("GIF of no size", gif_no_size, sizeof gif_no_size, G_IO_ERROR_INVALID_DATA);
  assert_refused_data ("JPEG without a frame", jpeg_no_frame, sizeof jpeg_no_frame,
                       G_IO_ERROR_INVALID_DATA);
  assert_refused ("PNG cut inside its header", truncated_png, G_IO_ERROR_INVALID_DATA);
  /* Not accepted from the network at all */
  assert_refused ("8x8 GIF with a 20000x20000 frame", huge_frame, G_IO_ERROR_INVALID_DATA);
  assert_refused ("8x8 GIF with a 9x8 frame", wider_frame, G_IO_ERROR_INVALID_DATA);
  /* Found by fuzz-icon: GdkPixbuf logged a critical on these (fatal in this test) */
  assert_refused ("GIF with a frame of width 0", empty_frame, G_IO_ERROR_INVALID_DATA);
  assert_refused ("animation with a frame past the screen", animation, G_IO_ERROR_INVALID_DATA);
  /* GdkPixbuf reads on past an empty first block of a graphic control extension */
  assert_refused ("GIF with a frame after an empty block", hidden_frame, G_IO_ERROR_INVALID_DATA);
  assert_refused_data ("SVG", svg, sizeof svg - 1, G_IO_ERROR_NOT_SUPPORTED);
  assert_refused_data ("WebP", webp, sizeof webp - 1, G_IO_ERROR_NOT_SUPPORTED);
  assert_refused ("BMP", bmp, G_IO_ERROR_NOT_SUPPORTED);
  assert_refused_data ("nothing", "", 0, G_IO_ERROR_NOT_SUPPORTED);
}

/* GdkPixbuf 2.42 does not decode an ICO whose entry is a PNG ("Compressed icons are not
 * supported"): such a favicon gives no icon, and the next candidate is tried. Where a GdkPixbuf
 * does, the PNG's own header is not read by the ICO check, so the size the decoder announces
 * is checked too. */
static void
test_png_inside_ico (void)
{
  g_autoptr(GBytes) bytes = read_fixture ("png-inside.ico");
  g_autoptr(GBytes) huge = make_png_header (20000, 20000);
  g_autoptr(GBytes) huge_ico = wrap_in_ico (huge);

  assert_refused ("ICO holding a PNG", bytes, -1);
  assert_refused ("ICO holding a 20000x20000 PNG", huge_ico, -1);
}

static GPtrArray *
icons_of (const char * const *urls_and_sizes)
{
  GPtrArray *icons = g_ptr_array_new_with_free_func ((GDestroyNotify) nearby_page_icon_free);

  /* url, rel, type, sizes: four strings per icon */
  for (guint i = 0; urls_and_sizes[i] != NULL; i += 4)
    {
      int size = nearby_page_icon_parse_sizes (urls_and_sizes[i + 3]);

      g_ptr_array_add (icons, nearby_page_icon_new (urls_and_sizes[i], urls_and_sizes[i + 1],
                                                    urls_and_sizes[i + 2], size));
    }

  return icons;
}

/* The smallest icon that fills the row, else the biggest there is; never an SVG. */
static void
test_choose (void)
{
  const char * const page[] = {
    "https://shop.example/favicon-16.png", "icon", NULL, "16x16",
    "https://shop.example/icon-96.png", "icon", "image/png", "96x96",
    "https://shop.example/icon.svg", "icon", "image/svg+xml", "any",
    "https://cdn.example/touch.png", "apple-touch-icon", NULL, NULL,
    NULL,
  };
  const char * const small[] = {
    "https://a.example/16.png", "icon", NULL, "16x16",
    "https://a.example/logo.svg", "icon", NULL, "512x512",
    "https://a.example/32.png", "icon", NULL, "32x32 24x24",
    NULL,
  };
  const char * const only_svg[] = {
    "https://a.example/logo.svg", "icon", NULL, NULL,
    "https://a.example/logo", "icon", "image/svg+xml", NULL,
    NULL,
  };
  g_autoptr(GPtrArray) page_icons = icons_of (page);
  g_autoptr(GPtrArray) small_icons = icons_of (small);
  g_autoptr(GPtrArray) svg_icons = icons_of (only_svg);
  g_autoptr(GPtrArray) none = g_ptr_array_new ();
  NearbyPageIcon *icon;

  /* 64 px row: the 96 px PNG beats the 16 px one, the 180 px touch icon and the SVG */
  icon = nearby_icon_choose (page_icons, NEARBY_ICON_TARGET_SIZE);
  g_assert_nonnull (icon);
  g_assert_cmpstr (icon->url, ==, "https://shop.example/icon-96.png");
  /* A 200 px target: the touch icon (180 px, as Apple defines it) is the biggest there is */
  icon = nearby_icon_choose (page_icons, 200);
  g_assert_cmpstr (icon->url, ==, "https://cdn.example/touch.png");

  icon = nearby_icon_choose (small_icons, NEARBY_ICON_TARGET_SIZE);
  g_assert_cmpstr (icon->url, ==, "https://a.example/32.png");

  g_assert_null (nearby_icon_choose (svg_icons, NEARBY_ICON_TARGET_SIZE));
  g_assert_null (nearby_icon_choose (none, NEARBY_ICON_TARGET_SIZE));
}

/* The page's choice, the manifest's, then /favicon.ico, each tried once. */
static void
test_candidates (void)
{
  const char *html = "<html><head><link rel=icon href='/i/page.png' sizes=64x64>"
                     "<link rel=manifest href='/app.json'></head></html>";
  const char *json = "{\"icons\": [{\"src\": \"/i/app.png\", \"sizes\": \"192x192\"},"
                     "           {\"src\": \"/i/page.png\", \"sizes\": \"48x48\"}]}";
  const char *same_json = "{\"icons\": [{\"src\": \"/i/page.png\", \"sizes\": \"64x64\"}]}";
  g_autoptr(NearbyPageMeta) meta = nearby_page_meta_parse ("https://shop.example/menu/today", NULL,
                                                           (const guint8 *) html, strlen (html));
  g_autoptr(NearbyManifest) manifest = nearby_manifest_parse ("https://shop.example/app.json",
                                                              (const guint8 *) json, strlen (json),
                                                              NULL);
  g_autoptr(NearbyManifest) same = nearby_manifest_parse ("https://shop.example/app.json",
                                                          (const guint8 *) same_json,
                                                          strlen (same_json), NULL);
  g_autoptr(GPtrArray) all = nearby_icon_candidates (meta, manifest,
                                                     "https://shop.example/menu/today");
  g_autoptr(GPtrArray) deduplicated = nearby_icon_candidates (meta, same, "https://shop.example/x");
  g_autoptr(GPtrArray) bare = nearby_icon_candidates (NULL, NULL, "https://shop.example:8443/a/b");

  g_assert_cmpuint (all->len, ==, 3);
  g_assert_cmpstr (g_ptr_array_index (all, 0), ==, "https://shop.example/i/page.png");
  g_assert_cmpstr (g_ptr_array_index (all, 1), ==, "https://shop.example/i/app.png");
  g_assert_cmpstr (g_ptr_array_index (all, 2), ==, "https://shop.example/favicon.ico");

  g_assert_cmpuint (deduplicated->len, ==, 2);
  g_assert_cmpstr (g_ptr_array_index (deduplicated, 0), ==, "https://shop.example/i/page.png");
  g_assert_cmpstr (g_ptr_array_index (deduplicated, 1), ==, "https://shop.example/favicon.ico");

  g_assert_cmpuint (bare->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (bare, 0), ==, "https://shop.example:8443/favicon.ico");
}

static void
on_decoded (GObject      *source,
            GAsyncResult *result,
            gpointer      user_data)
{
  GAsyncResult **out = user_data;

  *out = g_object_ref (result);
}

/* The resolver decodes in a worker thread; the result is the same. */
static void
test_async (void)
{
  g_autoptr(GBytes) bytes = nearby_test_make_image ("png", 96, 96);
  g_autoptr(GBytes) svg = g_bytes_new_static ("<svg/>", 6);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GAsyncResult) refused = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(NearbyIcon) icon = NULL;

  nearby_icon_decode_async (bytes, ROW_SIZE, NULL, on_decoded, &result);
  nearby_icon_decode_async (svg, ROW_SIZE, NULL, on_decoded, &refused);
  WAIT_UNTIL (result != NULL && refused != NULL);

  icon = nearby_icon_decode_finish (result, &error);
  g_assert_no_error (error);
  g_assert_cmpint (icon->width, ==, 96);
  assert_row_png (icon, ROW_SIZE, ROW_SIZE);

  g_assert_null (nearby_icon_decode_finish (refused, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/icon/choose", test_choose);
  g_test_add_func ("/icon/candidates", test_candidates);
  g_test_add_func ("/icon/formats", test_formats);
  g_test_add_func ("/icon/pixels-kept", test_pixels_kept);
  g_test_add_func ("/icon/scaling", test_scaling);
  g_test_add_func ("/icon/fixtures", test_fixtures);
  g_test_add_func ("/icon/refused", test_refused);
  g_test_add_func ("/icon/png-inside-ico", test_png_inside_ico);
  g_test_add_func ("/icon/async", test_async);

  return g_test_run ();
}
