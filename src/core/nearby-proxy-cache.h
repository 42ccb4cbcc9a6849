/* nearby-proxy-cache.h: a GProxyResolver that remembers another's answers for a while
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define NEARBY_TYPE_PROXY_CACHE (nearby_proxy_cache_get_type ())
G_DECLARE_FINAL_TYPE (NearbyProxyCache, nearby_proxy_cache, NEARBY, PROXY_CACHE, GObject)

/* How long an answer is kept when nothing says the proxy settings changed. */
#define NEARBY_PROXY_CACHE_DEFAULT_MAX_AGE_MS 10000

GProxyResolver *nearby_proxy_cache_new   (GProxyResolver   *resolver);
GProxyResolver *nearby_proxy_cache_get_resolver (NearbyProxyCache *self);
void            nearby_proxy_cache_clear (NearbyProxyCache *self);
char          **nearby_proxy_cache_lookup_cached (NearbyProxyCache *self,
                                                  const char       *uri);

G_END_DECLS
