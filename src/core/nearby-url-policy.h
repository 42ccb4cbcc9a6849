/* nearby-url-policy.h: which URLs may be fetched or opened, and how they are shown
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "nearby-resolve-error.h"

G_BEGIN_DECLS

/* Longer links on a page or in a manifest are ignored. */
#define NEARBY_URL_MAX_LEN 2048

/* What the caller allows. Automatic look-ups pass NEARBY_URL_POLICY_AUTOMATIC (public https
 * only); something the user explicitly asked for passes NEARBY_URL_POLICY_EXPLICIT. */
typedef enum {
  NEARBY_URL_POLICY_AUTOMATIC      = 0,
  NEARBY_URL_POLICY_ALLOW_HTTP     = 1 << 0,
  NEARBY_URL_POLICY_ALLOW_LOCAL    = 1 << 1,
  NEARBY_URL_POLICY_ALLOW_LOOPBACK = 1 << 2,
} NearbyUrlPolicy;

#define NEARBY_URL_POLICY_EXPLICIT \
  (NEARBY_URL_POLICY_ALLOW_HTTP | NEARBY_URL_POLICY_ALLOW_LOCAL | NEARBY_URL_POLICY_ALLOW_LOOPBACK)

typedef enum {
  NEARBY_ADDRESS_PUBLIC,
  NEARBY_ADDRESS_LOCAL,     /* RFC 1918, fc00::/7, link-local, CGNAT, .local, unspecified */
  NEARBY_ADDRESS_LOOPBACK,
} NearbyAddressClass;

const char        *nearby_address_class_to_string     (NearbyAddressClass  klass);
NearbyAddressClass nearby_url_policy_classify_address (GInetAddress       *address);
NearbyAddressClass nearby_url_policy_classify_host    (const char         *host);
gboolean           nearby_url_policy_check_address    (NearbyUrlPolicy     policy,
                                                       NearbyAddressClass  klass,
                                                       const char         *what,
                                                       GError            **error);

gboolean           nearby_url_is_fetchable            (const char         *url);
GUri              *nearby_url_policy_check_url        (const char         *url,
                                                       NearbyUrlPolicy     policy,
                                                       GError            **error);
char              *nearby_url_resolve                 (const char         *base_url,
                                                       const char         *ref);
char              *nearby_url_without_userinfo        (const char         *url);

typedef enum {
  NEARBY_URL_DISPLAY_NONE          = 0,
  NEARBY_URL_DISPLAY_HAS_USERINFO  = 1 << 0,  /* https://bank.example@evil.example: suspicious */
  NEARBY_URL_DISPLAY_PUNYCODE      = 1 << 1,  /* the host mixes scripts or is confusable */
  NEARBY_URL_DISPLAY_NOT_FETCHABLE = 1 << 2,  /* shown only, never opened */
  NEARBY_URL_DISPLAY_INVALID       = 1 << 3,
} NearbyUrlDisplayFlags;

char *nearby_url_display_host (const char            *url,
                               NearbyUrlDisplayFlags *flags);
char *nearby_url_display      (const char            *url,
                               NearbyUrlDisplayFlags *flags);
char *nearby_url_display_host_path (const char       *url);
char *nearby_url_display_path      (const char       *url);
char *nearby_url_site              (const char       *url);

G_END_DECLS
