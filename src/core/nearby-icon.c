/* nearby-icon.c
 *
 * Icons come from whatever server a beacon names, in formats whose decoders have a long
 * history of memory bugs. Few are tried: the one icon chosen from those the page declares,
 * the manifest's, then /favicon.ico. Only PNG, ICO, JPEG and GIF are accepted (no SVG from the
 * network, which can reference other resources and costs what its author wants to render);
 * the dimensions a header claims are checked before any decoder runs, again when the decoder
 * announces them, and the image the app keeps is a PNG re-encoded here.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "nearby-icon"

#include "config.h"

#include <glib/gi18n.h>

#include <string.h>

#include <gdk-pixbuf/gdk-pixbuf.h>
#include <png.h>

#include "nearby-icon.h"
#include "nearby-url-policy.h"

/* Choosing */

static gboolean
icon_is_svg (const NearbyPageIcon *icon)
{
  g_autoptr(GUri) uri = NULL;

  if (icon->type != NULL && strstr (icon->type, "svg") != NULL)
    return TRUE;

  uri = g_uri_parse (icon->url, G_URI_FLAGS_ENCODED, NULL);

  return uri != NULL && g_str_has_suffix (g_uri_get_path (uri), ".svg");
}

static int
assumed_size (const NearbyPageIcon *icon)
{
  if (icon->size > 0)
    return icon->size;
  if (icon->size < 0)
    return 512;
  if (icon->rel != NULL && g_str_equal (icon->rel, "apple-touch-icon"))
    return 180;

  return 32;
}

/* The smallest icon at least target_size big, else the biggest; no SVG from the network. */
NearbyPageIcon *
nearby_icon_choose (GPtrArray *icons,
                    int        target_size)
{
  NearbyPageIcon *best = NULL;

  g_return_val_if_fail (icons != NULL, NULL);

  for (guint i = 0; i < icons->len; i++)
    {
      NearbyPageIcon *icon = g_ptr_array_index (icons, i);
      int size;
      int best_size;

      if (icon_is_svg (icon))
        continue;
      if (best == NULL)
        {
          best = icon;
          continue;
        }

      size = assumed_size (icon);
      best_size = assumed_size (best);
      if (best_size >= target_size)
        {
          if (size >= target_size && size < best_size)
            best = icon;
        }
      else if (size > best_size)
        {
          best = icon;
        }
    }

  return best;
}

static void
add_candidate (GPtrArray  *candidates,
               const char *url)
{
  if (url == NULL)
    return;

  for (guint i = 0; i < candidates->len; i++)
    {
      if (g_str_equal (g_ptr_array_index (candidates, i), url))
        return;
    }
  g_ptr_array_add (candidates, g_strdup (url));
}

/* The icon URLs to try, best first: the page's own choice, the manifest's, then the
 * /favicon.ico every browser asks for. Either metadata may be NULL. */
GPtrArray *
nearby_icon_candidates (NearbyPageMeta *meta,
                        NearbyManifest *manifest,
                        const char     *page_url)
{
  GPtrArray *candidates = g_ptr_array_new_with_free_func (g_free);
  NearbyPageIcon *icon;
  g_autofree char *favicon = NULL;

  if (meta != NULL && (icon = nearby_icon_choose (meta->icons, NEARBY_ICON_TARGET_SIZE)) != NULL)
    add_candidate (candidates, icon->url);
  if (manifest != NULL &&
      (icon = nearby_icon_choose (manifest->icons, NEARBY_ICON_TARGET_SIZE)) != NULL)
    add_candidate (candidates, icon->url);

  favicon = nearby_url_resolve (page_url, "/favicon.ico");
  add_candidate (candidates, favicon);

  return candidates;
}

/* Encoding */

static void
on_png_write (png_structp  png,
              png_bytep    data,
              size_t       len)
{
  g_byte_array_append (png_get_io_ptr (png), data, len);
}

static void
on_png_flush (png_structp png)
{
}

static void
on_png_error (png_structp     png,
              png_const_charp message)
{
  g_debug ("Cannot encode an icon: %s", message);
  png_longjmp (png, 1);
}

static void
on_png_warning (png_structp     png,
                png_const_charp message)
{
}

static GBytes *
encode_png_failed (png_structp  *png,
                   png_infop    *info,
                   GByteArray   *out,
                   GError      **error)
{
  png_destroy_write_struct (png, info);
  g_byte_array_unref (out);
  g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_FAILED, _("Cannot encode the image"));

  return NULL;
}

/* The icon as the app keeps it. Written with libpng rather than GdkPixbuf's saver, which lets
 * libpng try every row filter and gives zlib its largest tables: for a 64 px icon that took
 * three times as long, for a file no smaller (tests/bench/README.md, icon encoding). No filter
 * and memLevel 5 suit a picture of a few kilobytes. */
static GBytes *
encode_png (GdkPixbuf  *pixbuf,
            GError    **error)
{
  GByteArray *out;
  const guint8 *pixels = gdk_pixbuf_read_pixels (pixbuf);
  int width = gdk_pixbuf_get_width (pixbuf);
  int height = gdk_pixbuf_get_height (pixbuf);
  int rowstride = gdk_pixbuf_get_rowstride (pixbuf);
  gboolean alpha = gdk_pixbuf_get_has_alpha (pixbuf);
  png_structp png;
  png_infop info = NULL;
  gsize len;
  guint8 *data;

  /* GdkPixbuf holds 8 bits a sample, RGB or RGBA, rows rowstride bytes apart. */
  g_return_val_if_fail (gdk_pixbuf_get_bits_per_sample (pixbuf) == 8, NULL);
  g_return_val_if_fail (gdk_pixbuf_get_n_channels (pixbuf) == (alpha ? 4 : 3), NULL);

  out = g_byte_array_sized_new (4096);
  png = png_create_write_struct (PNG_LIBPNG_VER_STRING, NULL, on_png_error, on_png_warning);
  if (png == NULL || (info = png_create_info_struct (png)) == NULL)
    return encode_png_failed (&png, &info, out, error);
  /* Nothing below changes png, info or out: after a longjmp, they are as they were here. */
  if (setjmp (png_jmpbuf (png)) != 0)
    return encode_png_failed (&png, &info, out, error);

  png_set_write_fn (png, out, on_png_write, on_png_flush);
  png_set_IHDR (png, info, width, height, 8,
                alpha ? PNG_COLOR_TYPE_RGB_ALPHA : PNG_COLOR_TYPE_RGB,
                PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_set_filter (png, PNG_FILTER_TYPE_BASE, PNG_FILTER_NONE);
  png_set_compression_mem_level (png, 5);
  png_write_info (png, info);
  for (int y = 0; y < height; y++)
    png_write_row (png, (png_const_bytep) (pixels + (gsize) y * rowstride));
  png_write_end (png, info);
  png_destroy_write_struct (&png, &info);

  /* The icon is kept as long as its object: only its own bytes are. */
  len = out->len;
  data = g_byte_array_steal (out, NULL);
  g_byte_array_unref (out);

  return g_bytes_new_take (g_realloc (data, len), len);
}

/* Decoding */

static const char *
sniff_image_type (const guint8 *data,
                  gsize         len,
                  const char  **mime_type)
{
  if (len >= 8 && memcmp (data, "\x89PNG\r\n\x1a\n", 8) == 0)
    return *mime_type = "image/png", "png";
  if (len >= 4 && memcmp (data, "\0\0\1\0", 4) == 0)
    return *mime_type = "image/x-icon", "ico";
  if (len >= 3 && memcmp (data, "\xff\xd8\xff", 3) == 0)
    return *mime_type = "image/jpeg", "jpeg";
  if (len >= 6 && (memcmp (data, "GIF87a", 6) == 0 || memcmp (data, "GIF89a", 6) == 0))
    return *mime_type = "image/gif", "gif";

  return NULL;
}

static gsize
skip_gif_sub_blocks (const guint8 *data,
                     gsize         len,
                     gsize         pos)
{
  while (pos < len)
    {
      guint8 block_len = data[pos];

      pos += 1 + block_len;
      if (block_len == 0)
        break;
    }

  return pos;
}

/* Every frame inside the logical screen, as the GIF specification asks. GdkPixbuf allocates
 * each frame at the size its image descriptor gives, which the header check and size-prepared
 * (both the screen's size) do not see: 135 KB of GIF claiming 8x8, with one 20000x20000 frame,
 * took 200 MB to decode. A frame of width 0, or one past the screen in an animation, makes
 * GdkPixbuf log a critical. The blocks are walked the way GdkPixbuf 2.42 reads them, so that
 * no frame it decodes goes unseen; where the data ends early, the decoder decides. */
static gboolean
gif_frames_ok (const guint8 *data,
               gsize         len)
{
  gsize pos = 13;
  guint screen_width;
  guint screen_height;

  if (len < pos)
    return FALSE;
  screen_width = data[6] | (data[7] << 8);
  screen_height = data[8] | (data[9] << 8);
  if (data[10] & 0x80)
    pos += (gsize) 3 << ((data[10] & 0x07) + 1);   /* global color table */

  while (pos < len)
    {
      switch (data[pos])
        {
        case 0x3b:   /* trailer */
          return TRUE;

        case 0x21:   /* extension: label, then sub-blocks */
          {
            guint8 label;

            if (pos + 1 >= len)
              return TRUE;
            label = data[pos + 1];
            pos += 2;
            /* GdkPixbuf takes the first block of these two whole, even when it is empty, so an
             * empty one does not end them there: a frame hidden after it is still read. */
            if ((label == 0xf9 || label == 0xff) && pos < len)
              pos += 1 + data[pos];
            pos = skip_gif_sub_blocks (data, len, pos);
          }
          break;

        case 0x2c:   /* image descriptor */
          {
            guint left;
            guint top;
            guint width;
            guint height;

            if (pos + 10 > len)
              return TRUE;
            left = data[pos + 1] | (data[pos + 2] << 8);
            top = data[pos + 3] | (data[pos + 4] << 8);
            width = data[pos + 5] | (data[pos + 6] << 8);
            height = data[pos + 7] | (data[pos + 8] << 8);
            if (width == 0 || height == 0 ||
                left + width > screen_width || top + height > screen_height)
              return FALSE;
            if (data[pos + 9] & 0x80)
              pos += (gsize) 3 << ((data[pos + 9] & 0x07) + 1);   /* local color table */
            /* the LZW code size, then the image data */
            pos = skip_gif_sub_blocks (data, len, pos + 10 + 1);
          }
          break;

        default:     /* GdkPixbuf skips a byte that starts no block, and so does this */
          pos++;
          break;
        }
    }

  return TRUE;
}

/* The dimensions a header claims, read before any decoder allocates a pixel. */
static gboolean
header_dimensions_ok (const char   *type,
                      const guint8 *data,
                      gsize         len)
{
  guint64 width = 0;
  guint64 height = 0;

  if (g_str_equal (type, "png"))
    {
      if (len < 24)
        return FALSE;
      width = ((guint64) data[16] << 24) | (data[17] << 16) | (data[18] << 8) | data[19];
      height = ((guint64) data[20] << 24) | (data[21] << 16) | (data[22] << 8) | data[23];
    }
  else if (g_str_equal (type, "gif"))
    {
      if (len < 10)
        return FALSE;
      width = data[6] | (data[7] << 8);
      height = data[8] | (data[9] << 8);
      if (!gif_frames_ok (data, len))
        return FALSE;
    }
  else if (g_str_equal (type, "jpeg"))
    {
      gsize i = 2;

      /* Walk the segments to the first start-of-frame. */
      while (i + 9 < len)
        {
          guint8 marker;
          gsize segment;

          if (data[i] != 0xff)
            return FALSE;
          marker = data[i + 1];
          if (marker == 0xff)
            {
              i++;
              continue;
            }
          segment = (data[i + 2] << 8) | data[i + 3];
          if (marker >= 0xc0 && marker <= 0xcf && marker != 0xc4 && marker != 0xc8 && marker != 0xcc)
            {
              height = (data[i + 5] << 8) | data[i + 6];
              width = (data[i + 7] << 8) | data[i + 8];
              break;
            }
          if (segment < 2)
            return FALSE;
          i += 2 + segment;
        }
      if (width == 0)
        return FALSE;
    }
  else
    {
      /* ICO: entries are at most 256 px (a PNG inside is checked in size-prepared), but every
       * entry must lie inside the file: the decoder would show a truncated one half drawn. */
      guint count;

      if (len < 6)
        return FALSE;
      count = data[4] | (data[5] << 8);
      if (count == 0 || count > 64 || len < 6 + 16 * (gsize) count)
        return FALSE;
      for (guint i = 0; i < count; i++)
        {
          const guint8 *entry = data + 6 + 16 * i;
          guint64 size = entry[8] | (entry[9] << 8) | (entry[10] << 16) | ((guint64) entry[11] << 24);
          guint64 offset = entry[12] | (entry[13] << 8) | (entry[14] << 16) | ((guint64) entry[15] << 24);

          if (size == 0 || offset + size > len)
            return FALSE;
        }
      return TRUE;
    }

  return width > 0 && height > 0 &&
         width <= NEARBY_ICON_MAX_EDGE && height <= NEARBY_ICON_MAX_EDGE;
}

static void
on_size_prepared (GdkPixbufLoader *loader,
                  int              width,
                  int              height,
                  gpointer         user_data)
{
  gboolean *too_big = user_data;

  if (width <= 0 || height <= 0 ||
      width > NEARBY_ICON_MAX_EDGE || height > NEARBY_ICON_MAX_EDGE)
    {
      *too_big = TRUE;
      /* A zero size makes the decoders stop before allocating the image. */
      gdk_pixbuf_loader_set_size (loader, 0, 0);
    }
}

/* Untrusted bytes in, a PNG of our own making out, at most size px on its longer edge. Safe to
 * call from any thread. */
NearbyIcon *
nearby_icon_decode (const guint8  *data,
                    gsize          len,
                    int            size,
                    GError       **error)
{
  NearbyIcon *icon;
  g_autoptr(GdkPixbufLoader) loader = NULL;
  g_autoptr(GdkPixbuf) scaled = NULL;
  g_autoptr(GBytes) png = NULL;
  GdkPixbuf *pixbuf;
  const char *mime_type = NULL;
  const char *type;
  gboolean too_big = FALSE;
  gboolean ok;
  int width;
  int height;

  g_return_val_if_fail (data != NULL || len == 0, NULL);
  g_return_val_if_fail (size > 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  type = sniff_image_type (data, len, &mime_type);
  if (type == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                           _("Not a PNG, ICO, JPEG or GIF image"));
      return NULL;
    }
  if (!header_dimensions_ok (type, data, len))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                           _("The image is too big or its header is broken"));
      return NULL;
    }

  loader = gdk_pixbuf_loader_new_with_type (type, error);
  if (loader == NULL)
    return NULL;
  g_signal_connect (loader, "size-prepared", G_CALLBACK (on_size_prepared), &too_big);

  ok = gdk_pixbuf_loader_write (loader, data, len, error);
  /* Always closed: a loader finalized open complains. */
  if (ok)
    ok = gdk_pixbuf_loader_close (loader, error);
  else
    gdk_pixbuf_loader_close (loader, NULL);

  if (too_big)
    {
      g_clear_error (error);
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, _("The image is too big"));
      return NULL;
    }
  if (!ok)
    return NULL;

  pixbuf = gdk_pixbuf_loader_get_pixbuf (loader);
  if (pixbuf == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, _("The image is empty"));
      return NULL;
    }

  width = gdk_pixbuf_get_width (pixbuf);
  height = gdk_pixbuf_get_height (pixbuf);
  if (width > size || height > size)
    {
      double scale = (double) size / MAX (width, height);

      scaled = gdk_pixbuf_scale_simple (pixbuf, MAX (1, (int) (width * scale + 0.5)),
                                        MAX (1, (int) (height * scale + 0.5)),
                                        GDK_INTERP_BILINEAR);
    }
  else
    {
      scaled = g_object_ref (pixbuf);
    }

  if (scaled == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_FAILED, _("Cannot scale the image"));
      return NULL;
    }
  png = encode_png (scaled, error);
  if (png == NULL)
    return NULL;

  icon = g_new0 (NearbyIcon, 1);
  icon->png = g_steal_pointer (&png);
  icon->mime_type = mime_type;
  icon->width = width;
  icon->height = height;

  return icon;
}

void
nearby_icon_free (NearbyIcon *icon)
{
  if (icon == NULL)
    return;

  g_bytes_unref (icon->png);
  g_free (icon);
}

typedef struct {
  GBytes *bytes;
  int     size;
} DecodeData;

static void
decode_data_free (DecodeData *data)
{
  g_bytes_unref (data->bytes);
  g_free (data);
}

static void
decode_thread (GTask        *task,
               gpointer      source_object,
               gpointer      task_data,
               GCancellable *cancellable)
{
  DecodeData *data = task_data;
  GError *error = NULL;
  NearbyIcon *icon;
  gsize len;
  const guint8 *bytes = g_bytes_get_data (data->bytes, &len);

  icon = nearby_icon_decode (bytes, len, data->size, &error);
  if (icon != NULL)
    g_task_return_pointer (task, icon, (GDestroyNotify) nearby_icon_free);
  else
    g_task_return_error (task, error);
}

/* A hostile image can take a while to decode: never on the main loop. */
void
nearby_icon_decode_async (GBytes              *bytes,
                          int                  size,
                          GCancellable        *cancellable,
                          GAsyncReadyCallback  callback,
                          gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  DecodeData *data;

  g_return_if_fail (bytes != NULL);
  g_return_if_fail (size > 0);
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  data = g_new0 (DecodeData, 1);
  data->bytes = g_bytes_ref (bytes);
  data->size = size;

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, nearby_icon_decode_async);
  g_task_set_task_data (task, data, (GDestroyNotify) decode_data_free);
  g_task_run_in_thread (task, decode_thread);
}

NearbyIcon *
nearby_icon_decode_finish (GAsyncResult  *result,
                           GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == nearby_icon_decode_async, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
