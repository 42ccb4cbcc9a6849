/* nearby-page.h: what resolving a beacon URL found out
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "nearby-manifest.h"

G_BEGIN_DECLS


typedef struct {
  char  *url;
  guint  status;
} NearbyRedirect;

/* A reference-counted, immutable once published, record. The fields are public for reading;
 * only the resolver and nearby_page_new_from_json() fill them in. */
typedef struct {
  char      *url;                /* as asked for */
  char      *final_url;          /* after redirects */
  guint      status;             /* HTTP status of the last response, 0 if none */
  GPtrArray *redirects;          /* of NearbyRedirect: each hop that redirected, in order */
  char      *title;              /* on success never NULL: falls back to host and path */
  char      *description;
  char      *canonical_url;
  char      *manifest_url;
  char      *manifest_name;
  char      *icon_url;
  GBytes    *icon;               /* PNG, at most NEARBY_ICON_TARGET_SIZE px, or NULL */
  char      *icon_type;          /* the type of the image as served, e.g. "image/x-icon" */
  int        icon_width;         /* as served */
  int        icon_height;
  GPtrArray *actions;            /* of NearbyPageAction */
  gint64     fetched_at_us;      /* wall clock */
  gint64     expires_at_us;
  gint64     headers_us;         /* from the first request to the final response's headers */
  gint64     total_us;
  gboolean   from_cache;
  GError    *error;              /* NULL when resolved; NEARBY_RESOLVE_ERROR otherwise */
} NearbyPage;

#define NEARBY_TYPE_PAGE (nearby_page_get_type ())
GType       nearby_page_get_type       (void) G_GNUC_CONST;
NearbyPage *nearby_page_new            (const char  *url);
NearbyPage *nearby_page_ref            (NearbyPage  *page);
void        nearby_page_unref          (NearbyPage  *page);
void        nearby_page_add_redirect   (NearbyPage  *page,
                                        const char  *url,
                                        guint        status);
const char *nearby_page_get_error_code (NearbyPage  *page);
char       *nearby_page_to_json        (NearbyPage  *page);
NearbyPage *nearby_page_new_from_json  (const char  *json,
                                        GBytes      *icon,
                                        GError     **error);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (NearbyPage, nearby_page_unref)

G_END_DECLS
