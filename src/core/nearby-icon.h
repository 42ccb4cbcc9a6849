/* nearby-icon.h: a page's icon, from untrusted image bytes to a small PNG of our own
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "nearby-manifest.h"
#include "nearby-page-meta.h"

G_BEGIN_DECLS

#define NEARBY_ICON_TARGET_SIZE 64            /* px: what a list row shows at 2x scale */
#define NEARBY_ICON_MAX_BYTES   (256 * 1024)  /* more than this is not read */
#define NEARBY_ICON_MAX_EDGE    2048          /* px: a larger image is refused before decoding */

NearbyPageIcon *nearby_icon_choose     (GPtrArray      *icons,
                                        int             target_size);
GPtrArray      *nearby_icon_candidates (NearbyPageMeta *meta,
                                        NearbyManifest *manifest,
                                        const char     *page_url);

typedef struct {
  GBytes     *png;        /* re-encoded, at most the size asked for on its longer edge */
  const char *mime_type;  /* the type as served: "image/png", "image/x-icon", … */
  int         width;      /* as served */
  int         height;
} NearbyIcon;

NearbyIcon *nearby_icon_decode        (const guint8         *data,
                                       gsize                 len,
                                       int                   size,
                                       GError              **error);
void        nearby_icon_decode_async  (GBytes               *bytes,
                                       int                   size,
                                       GCancellable         *cancellable,
                                       GAsyncReadyCallback   callback,
                                       gpointer              user_data);
NearbyIcon *nearby_icon_decode_finish (GAsyncResult         *result,
                                       GError              **error);
void        nearby_icon_free          (NearbyIcon           *icon);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (NearbyIcon, nearby_icon_free)

G_END_DECLS
