/* nearby-manifest.h: a web app manifest's names, icons and shortcuts
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

#include "nearby-page-meta.h"

G_BEGIN_DECLS

#define NEARBY_MANIFEST_MAX_ACTIONS 8

/* A shortcut the page's web app offers, shown as an action of its row. */
typedef struct {
  char *title;
  char *url;
} NearbyPageAction;

NearbyPageAction *nearby_page_action_new  (const char       *title,
                                           const char       *url);
NearbyPageAction *nearby_page_action_copy (NearbyPageAction *action);
void              nearby_page_action_free (NearbyPageAction *action);

typedef struct {
  char      *name;
  char      *short_name;
  char      *description;
  GPtrArray *icons;      /* of NearbyPageIcon, at most NEARBY_PAGE_META_MAX_ICONS */
  GPtrArray *actions;    /* of NearbyPageAction, from "shortcuts" */
} NearbyManifest;

NearbyManifest *nearby_manifest_parse (const char    *manifest_url,
                                       const guint8  *data,
                                       gsize          len,
                                       GError       **error);
void            nearby_manifest_free  (NearbyManifest *manifest);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (NearbyManifest, nearby_manifest_free)

G_END_DECLS
