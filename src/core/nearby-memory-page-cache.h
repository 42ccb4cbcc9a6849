/* nearby-memory-page-cache.h: a NearbyPageCache that lives as long as the process
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "nearby-page-cache.h"

G_BEGIN_DECLS

#define NEARBY_TYPE_MEMORY_PAGE_CACHE (nearby_memory_page_cache_get_type ())
G_DECLARE_FINAL_TYPE (NearbyMemoryPageCache, nearby_memory_page_cache, NEARBY, MEMORY_PAGE_CACHE, GObject)

NearbyPageCache *nearby_memory_page_cache_new    (void);
guint            nearby_memory_page_cache_get_size (NearbyMemoryPageCache *self);

G_END_DECLS
