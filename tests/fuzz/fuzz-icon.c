/* fuzz-icon.c: image bytes from hostile servers, as each type the icon decoder accepts
 *
 * The low bits of the first byte pick the type: PNG, ICO, JPEG or GIF, whose signature is put
 * in front of the rest unless it begins with it already, so that each decoder is fed arbitrary
 * bytes; the other values pass the rest as it is, for the type sniffing to judge. WebP is not
 * among the types: the decoder refuses it, and Debian 12's GdkPixbuf has no loader for it.
 *
 * GdkPixbuf and its loaders are system libraries, built without coverage instrumentation or
 * sanitizers: libFuzzer sees the edges of nearby-icon.c only, and ASan catches what a loader
 * does wrong only where it calls an intercepted function (memcpy, malloc and the like).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <stdint.h>
#include <string.h>

#include <gdk-pixbuf/gdk-pixbuf.h>

#include "nearby-icon.h"

#define ROW_SIZE 64

static const struct {
  const char *signature;
  size_t      len;
  const char *mime_type;
} types[] = {
  { "\x89PNG\r\n\x1a\n", 8, "image/png" },
  { "\0\0\1\0", 4, "image/x-icon" },
  { "\xff\xd8\xff", 3, "image/jpeg" },
  { "GIF89a", 6, "image/gif" },
};

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

static gboolean
has_signature (const uint8_t *data,
               size_t         size,
               const char    *mime_type)
{
  for (guint i = 0; i < G_N_ELEMENTS (types); i++)
    {
      if (mime_type != NULL && !g_str_equal (mime_type, types[i].mime_type))
        continue;
      if (size >= types[i].len && memcmp (data, types[i].signature, types[i].len) == 0)
        return TRUE;
      if (i == 3 && size >= 6 && memcmp (data, "GIF87a", 6) == 0)
        return TRUE;
    }

  return FALSE;
}

static guint32
be32 (const guint8 *p)
{
  return ((guint32) p[0] << 24) | ((guint32) p[1] << 16) | ((guint32) p[2] << 8) | p[3];
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  guint8 *joined = NULL;
  const guint8 *image;
  size_t image_len;
  guint type;
  NearbyIcon *icon;
  GError *error = NULL;

  if (size < 1)
    return 0;

  type = data[0] & 7;
  image = data + 1;
  image_len = size - 1;
  if (type < G_N_ELEMENTS (types) && !has_signature (image, image_len, types[type].mime_type))
    {
      joined = g_malloc (types[type].len + image_len);
      memcpy (joined, types[type].signature, types[type].len);
      if (image_len > 0)
        memcpy (joined + types[type].len, image, image_len);
      image = joined;
      image_len += types[type].len;
    }

  icon = nearby_icon_decode (image, image_len, ROW_SIZE, &error);
  g_assert ((icon == NULL) != (error == NULL));

  if (icon != NULL)
    {
      gsize png_len;
      const guint8 *png = g_bytes_get_data (icon->png, &png_len);

      /* Only the four types, and what the row gets is a PNG of our size. */
      g_assert (has_signature (image, image_len, icon->mime_type));
      g_assert (icon->width > 0 && icon->width <= NEARBY_ICON_MAX_EDGE);
      g_assert (icon->height > 0 && icon->height <= NEARBY_ICON_MAX_EDGE);
      g_assert (png_len > 24 && memcmp (png, "\x89PNG\r\n\x1a\n", 8) == 0 &&
                memcmp (png + 12, "IHDR", 4) == 0);
      g_assert (be32 (png + 16) >= 1 && be32 (png + 16) <= ROW_SIZE);
      g_assert (be32 (png + 20) >= 1 && be32 (png + 20) <= ROW_SIZE);
      nearby_icon_free (icon);
    }
  else
    {
      g_assert (error->domain == G_IO_ERROR || error->domain == GDK_PIXBUF_ERROR);
      g_assert (error->message != NULL && g_utf8_validate (error->message, -1, NULL));
      g_error_free (error);
    }

  g_free (joined);

  return 0;
}
