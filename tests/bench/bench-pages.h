/* bench-pages.h: a corpus of page shapes as real sites write their heads, written to a directory
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct {
  char *path;        /* relative to the directory: "pages/p007.html" */
  char *icon_path;   /* the icon the page links to, or NULL (pages not generated here) */
  char *shape;       /* what its head does, for the report */
} BenchPage;

void       bench_page_free   (BenchPage  *page);
GPtrArray *bench_pages_write (const char *dir,
                              guint       n_generated,
                              const char *extra_dir);

G_END_DECLS
