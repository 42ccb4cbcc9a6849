/* nearby-resolver-private.h: what the resolver's look-ups and its HTTP fetching share
 *
 * Included by nearby-resolver.c and nearby-resolver-fetch.c only.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <libsoup/soup.h>

#include "nearby-manifest.h"
#include "nearby-page-meta.h"
#include "nearby-resolver.h"

G_BEGIN_DECLS

typedef enum {
  NEARBY_RESOLVER_FETCH_PAGE,
  NEARBY_RESOLVER_FETCH_MANIFEST,
  NEARBY_RESOLVER_FETCH_ICON,
} NearbyResolverFetchKind;

typedef struct _NearbyResolverJob NearbyResolverJob;

struct _NearbyResolver
{
  GObject                  parent_instance;

  SoupSession             *session;
  NearbyPageCache         *cache;
  GTlsDatabase            *tls_database;
  GProxyResolver          *proxy_resolver;
  guint                    deadline_ms;
  guint                    max_in_flight;
  guint                    io_timeout;

  GHashTable              *jobs;             /* key -> NearbyResolverJob */
  /* "host:port" once connected to a non-public address */
  GHashTable              *private_origins;
  /* host -> when its name last failed to resolve (monotonic µs), for manifests and icons */
  GHashTable              *unresolved_hosts;
  /* "scheme://host:port" -> when its /favicon.ico was last not found (monotonic µs) */
  GHashTable              *missing_favicons;
  GQueue                   queue;            /* of jobs waiting for a slot, most urgent first */
  guint64                  next_sequence;    /* orders jobs of equal priority: first asked, first */
  guint                    running;          /* jobs holding a slot: fetching their page */

  NearbyAddressClassifier  classifier;
  gpointer                 classifier_data;
};

struct _NearbyResolverJob
{
  NearbyResolver          *self;             /* strong: a running job keeps the session alive */
  char                    *key;
  char                    *url;
  NearbyUrlPolicy          policy;
  NearbyResolveFlags       flags;
  int                      priority;
  guint64                  sequence;         /* when it was asked for, among the resolver's jobs */
  GList                   *waiters;          /* of Waiter (nearby-resolver.c) */
  GCancellable            *cancellable;
  guint                    deadline_id;
  gboolean                 timed_out;
  gboolean                 queued;
  gboolean                 started;
  gboolean                 holds_slot;       /* counted in self->running: fetching its page */
  gint64                   started_us;

  NearbyPage              *page;
  NearbyPageMeta          *meta;
  NearbyManifest          *manifest;
  GPtrArray               *icon_candidates;  /* of char *, tried in order */
  guint                    icon_index;
  char                    *decoding_url;     /* the icon the decoder is working on */
  gint64                   expires_at_us;

  /* The request in progress: only one at a time per job. */
  NearbyResolverFetchKind  kind;
  GUri                    *uri;
  guint                    hops;
  SoupMessage             *message;
  GInputStream            *stream;
  GCancellable            *fetch_cancellable;
  GError                  *policy_error;
  gboolean                 via_proxy;
  NearbyPageMetaParser    *parser;
  GByteArray              *body;
  gsize                    body_cap;
  guint64                  body_read;        /* bytes of the body read so far */
  gboolean                 sniffed;
};

/* nearby-resolver-fetch.c */
GUri     *_nearby_resolver_check_url        (NearbyResolver           *self,
                                             NearbyUrlPolicy           policy,
                                             const char               *url,
                                             GError                  **error);
GProxyResolver *_nearby_resolver_get_proxy_resolver (NearbyResolver *self);
void      _nearby_resolver_job_fetch        (NearbyResolverJob        *job,
                                             NearbyResolverFetchKind   kind,
                                             const char               *url);
void      _nearby_resolver_job_clear_fetch  (NearbyResolverJob        *job);
void      _nearby_resolver_job_follow_refresh (NearbyResolverJob      *job,
                                               const char             *url);

/* nearby-resolver-drain.c */
void      _nearby_resolver_job_drain        (NearbyResolverJob        *job);

/* nearby-resolver.c */
gboolean  _nearby_resolver_job_is_cancelled (NearbyResolverJob        *job);
void      _nearby_resolver_job_release_slot (NearbyResolverJob        *job);
void      _nearby_resolver_job_fetch_done   (NearbyResolverJob        *job,
                                             GError                   *error);

G_END_DECLS
