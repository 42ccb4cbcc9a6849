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
  FETCH_PAGE,
  FETCH_MANIFEST,
  FETCH_ICON,
} FetchKind;

typedef struct _Job Job;

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

  GHashTable              *jobs;      /* key -> Job */
  GHashTable              *private_origins;  /* "host:port" once connected to a non-public address */
  GQueue                   queue;     /* of Job, waiting for a slot, most urgent first */
  guint                    running;

  NearbyAddressClassifier  classifier;
  gpointer                 classifier_data;
};

typedef struct {
  GTask   *task;
  gulong   cancelled_id;
} Waiter;

struct _Job
{
  NearbyResolver     *self;       /* strong: a running job keeps the session alive */
  char               *key;
  char               *url;
  NearbyUrlPolicy     policy;
  NearbyResolveFlags  flags;
  int                 priority;
  GList              *waiters;    /* of Waiter */
  GCancellable       *cancellable;
  guint               deadline_id;
  gboolean            timed_out;
  gboolean            queued;
  gboolean            started;
  gint64              started_us;

  NearbyPage         *page;
  NearbyPageMeta     *meta;
  NearbyManifest     *manifest;
  GPtrArray          *icon_candidates;   /* of char *, tried in order */
  guint               icon_index;
  char               *decoding_url;      /* the icon the decoder is working on */
  gint64              expires_at_us;

  /* The request in progress: only one at a time per job. */
  FetchKind           kind;
  GUri               *uri;
  guint               hops;
  SoupMessage        *message;
  GInputStream       *stream;
  GCancellable       *fetch_cancellable;
  GError             *policy_error;
  gboolean            via_proxy;
  NearbyPageMetaParser *parser;
  GByteArray         *body;
  gsize               body_cap;
  gboolean            sniffed;
};

/* nearby-resolver-fetch.c */
GUri     *_nearby_resolver_check_url        (NearbyResolver   *self,
                                             NearbyUrlPolicy   policy,
                                             const char       *url,
                                             GError          **error);
void      _nearby_resolver_job_fetch        (Job              *job,
                                             FetchKind         kind,
                                             const char       *url);
void      _nearby_resolver_job_clear_fetch  (Job              *job);

/* nearby-resolver.c */
gboolean  _nearby_resolver_job_is_cancelled (Job              *job);
void      _nearby_resolver_job_fetch_done   (Job              *job,
                                             GError           *error);

G_END_DECLS
