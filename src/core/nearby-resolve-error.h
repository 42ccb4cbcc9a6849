/* nearby-resolve-error.h: why a URL did not resolve
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The resolver reports these inside a NearbyPage, the URL policy raises the ones it decides,
 * and nearby_resolve_error_to_string() gives each a stable name for JSON and logs. */
typedef enum {
  NEARBY_RESOLVE_ERROR_INVALID_URL,
  NEARBY_RESOLVE_ERROR_UNSUPPORTED_SCHEME,  /* urn:uuid:, file:, data:, javascript:, … */
  NEARBY_RESOLVE_ERROR_NEEDS_CONFIRMATION,  /* http, local network or loopback not allowed by the policy */
  NEARBY_RESOLVE_ERROR_NETWORK,
  NEARBY_RESOLVE_ERROR_TLS,
  NEARBY_RESOLVE_ERROR_TIMEOUT,
  NEARBY_RESOLVE_ERROR_HTTP,                /* the server answered with an error status */
  NEARBY_RESOLVE_ERROR_HIDDEN,              /* 204 or 404: the page hides itself */
  NEARBY_RESOLVE_ERROR_TOO_MANY_REDIRECTS,
  NEARBY_RESOLVE_ERROR_BAD_REDIRECT,        /* no Location, or a Location that is not http(s) */
  NEARBY_RESOLVE_ERROR_NOT_HTML,
} NearbyResolveError;

#define NEARBY_RESOLVE_ERROR (nearby_resolve_error_quark ())
GQuark      nearby_resolve_error_quark       (void);
const char *nearby_resolve_error_to_string   (NearbyResolveError  code);
gboolean    nearby_resolve_error_from_string (const char         *name,
                                              NearbyResolveError *code);

G_END_DECLS
